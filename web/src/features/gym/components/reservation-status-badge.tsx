import { Badge } from '@/components/ui/badge';

/** SPEC §4: pending yellow, approved green; expired (nobody answered in time) grey; any other red. */
export function ReservationStatusBadge({ status }: { status: string }) {
  const variant =
    status === 'pending'
      ? 'warning'
      : status === 'approved'
        ? 'success'
        : status === 'expired'
          ? 'secondary'
          : 'destructive';
  return (
    <Badge variant={variant} data-testid="reservation-status">
      {status}
    </Badge>
  );
}
