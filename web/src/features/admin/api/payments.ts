/**
 * Issue 33's admin side of money: the Payments list (GET /api/admin/payments, paged on the
 * server, filtered by payment status, coach and dates) and a refund (POST
 * /api/admin/bookings/{id}/refund).
 */
import { mutate } from 'swr';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';
import { refreshPaged, usePagedList } from '@/lib/pages';
import { withQuery } from '@/lib/swr';
import { refreshAudit } from './get-audit';
import { ADMIN_STATS_KEY } from './get-stats';

/** A booking that carries money, as the Payments list answers it. */
export type AdminPayment = Complete<Schemas['Booking']>;

export const ADMIN_PAYMENTS_KEY = '/admin/payments';

/** Rows per page. */
export const PAYMENTS_PAGE = 20;

export interface PaymentFilters {
  payment_status?: string;
  coach_id?: string;
  /** YYYY-MM-DD, the booking's date. */
  from?: string;
  to?: string;
}

/** The pages of payments `filters` let through, newest first; `loadMore` reads the next. */
export function usePaymentPages(filters: PaymentFilters) {
  const first = withQuery(ADMIN_PAYMENTS_KEY, {
    limit: PAYMENTS_PAGE,
    payment_status: filters.payment_status,
    coach_id: filters.coach_id,
    from: filters.from,
    to: filters.to,
  });
  const list = usePagedList<AdminPayment>(first, (row) => row.booking_id, {
    onError: () => toast.error('Failed to load payments', { id: 'admin-payments-error' }),
  });
  return { ...list, payments: list.rows };
}

export type RefundRequest = Schemas['RefundBody'];

/** POST /api/admin/bookings/{id}/refund, then the list, the stats and the activity log again. */
export async function refundBooking(bookingId: string, refund: RefundRequest) {
  const answer = await api.post<unknown>(`/admin/bookings/${encodeURIComponent(bookingId)}/refund`, refund);
  await Promise.all([refreshPaged(ADMIN_PAYMENTS_KEY), mutate(ADMIN_STATS_KEY), refreshAudit()]);
  return answer;
}
