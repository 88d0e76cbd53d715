/**
 * Issue 33's client side of money: the provider's public settings, the client's saved cards, a
 * booking's receipt and the coach's earnings.
 */
import useSWR, { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';
import type { Booking } from './get-bookings';
import { refreshBookings } from './get-bookings';

/** GET /api/payments/config (public): the key Stripe.js is started with and where to load it. */
export type PaymentsConfig = Schemas['PaymentsConfig'];
export const PAYMENTS_CONFIG_KEY = '/payments/config';
export const usePaymentsConfig = (enabled = true) =>
  useSWR<PaymentsConfig>(enabled ? PAYMENTS_CONFIG_KEY : null, () => api.get<PaymentsConfig>(PAYMENTS_CONFIG_KEY), {
    revalidateIfStale: false,
  });

/** One of the client's saved cards. */
export type PaymentMethod = Schemas['PaymentMethod'];

/** GET /api/client/payment-methods: the client's cards, the default first. */
export const PAYMENT_METHODS_KEY = '/client/payment-methods';
export const getPaymentMethods = () => api.get<PaymentMethod[]>(PAYMENT_METHODS_KEY);
export const usePaymentMethods = (enabled = true) =>
  useSWR<PaymentMethod[]>(enabled ? PAYMENT_METHODS_KEY : null, getPaymentMethods);

/** POST /api/client/payment-methods/setup → 201: the SetupIntent the browser confirms. */
export type CardSetup = Schemas['SetupIntent'];
export const setupPaymentMethod = () => api.post<CardSetup>(`${PAYMENT_METHODS_KEY}/setup`);

/** After a card was added or the default changed: the cards, and the bookings (a declined hold is
 * tried again with the new default). */
export const refreshCards = () => Promise.all([mutate(PAYMENT_METHODS_KEY), refreshBookings()]);

/** PUT /api/client/payment-methods/{id}/default. */
export async function setDefaultPaymentMethod(id: string) {
  await api.put(`${PAYMENT_METHODS_KEY}/${encodeURIComponent(id)}/default`);
  await refreshCards();
}

/** DELETE /api/client/payment-methods/{id} (409 while it holds an open payment). */
export async function removePaymentMethod(id: string) {
  await api.delete(`${PAYMENT_METHODS_KEY}/${encodeURIComponent(id)}`);
  await mutate(PAYMENT_METHODS_KEY);
}

/** "Visa •••• 4242". */
export const cardLabel = (card: Pick<PaymentMethod, 'brand' | 'last4'>) =>
  `${card.brand ? card.brand[0].toUpperCase() + card.brand.slice(1) : 'Card'} •••• ${card.last4}`;

/** "12/34". */
export const cardExpiry = (card: Pick<PaymentMethod, 'exp_month' | 'exp_year'>) =>
  `${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year % 100).padStart(2, '0')}`;

/** One movement of a booking's money, as a receipt lists it. */
export type ReceiptLine = Complete<Schemas['ReceiptLine']>;

/** GET /api/bookings/{id}/receipt (its client and coach; 404 before anything was charged). */
export type Receipt = Omit<Complete<Schemas['Receipt']>, 'booking' | 'lines'> & { booking: Booking; lines: ReceiptLine[] };
export const receiptKey = (bookingId: string) => `/bookings/${encodeURIComponent(bookingId)}/receipt`;
export const useReceipt = (bookingId: string | undefined) =>
  useSWR<Receipt>(bookingId ? receiptKey(bookingId) : null, () => api.get<Receipt>(receiptKey(bookingId as string)));

/** One capture or refund of the coach's month. */
export type EarningsLine = Complete<Schemas['EarningsLine']>;

/** GET /api/coach/earnings?month=YYYY-MM. */
export type Earnings = Omit<Complete<Schemas['Earnings']>, 'lines'> & { lines: EarningsLine[] };
export const earningsKey = (month: string) => `/coach/earnings?month=${encodeURIComponent(month)}`;
export const useEarnings = (month: string) => useSWR<Earnings>(earningsKey(month), () => api.get<Earnings>(earningsKey(month)));

/** GET /api/coach/earnings.csv?month=YYYY-MM: the month's statement. */
export const getEarningsCsv = (month: string) => api.file('/coach/earnings.csv', { query: { month } });
export const earningsCsvName = (month: string) => `courtside-earnings-${month}.csv`;
