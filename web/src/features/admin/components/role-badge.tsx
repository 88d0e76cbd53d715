import { Badge, type BadgeProps } from '@/components/ui/badge';

/** SPEC §9: admin red, coach blue, client green, gym purple. */
const VARIANT: Record<string, BadgeProps['variant']> = {
  admin: 'destructive',
  coach: 'info',
  client: 'success',
  gym: 'purple',
};

export function RoleBadge({ role }: { role: string }) {
  return (
    <Badge variant={VARIANT[role] ?? 'secondary'} className="capitalize" data-testid="role-badge">
      {role}
    </Badge>
  );
}
