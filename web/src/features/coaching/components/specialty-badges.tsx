import { Badge } from '@/components/ui/badge';

/** Up to `limit` specialties as badges (SPEC §9: 4 on the public card, 3 on the coaches page). */
export function SpecialtyBadges({ specialties, limit }: { specialties: string[]; limit?: number }) {
  const shown = limit === undefined ? specialties : specialties.slice(0, limit);
  if (shown.length === 0) return null;
  return (
    <ul aria-label="Specialties" className="flex flex-wrap gap-1.5">
      {shown.map((specialty, i) => (
        <li key={`${specialty}-${i}`}>
          <Badge variant="secondary">{specialty}</Badge>
        </li>
      ))}
    </ul>
  );
}
