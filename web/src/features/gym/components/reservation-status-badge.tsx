import { Badge } from '@/components/ui/badge';

/** SPEC §4: pending yellow, approved green, any other status red. */
export function ReservationStatusBadge({ status }: { status: string }) {
  const variant = status === 'pending' ? 'warning' : status === 'approved' ? 'success' : 'destructive';
  return (
    <Badge variant={variant} data-testid="reservation-status">
      {status}
    </Badge>
  );
}
