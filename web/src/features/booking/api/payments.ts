/**
 * Issue 33's client side of money: the provider's public settings, the client's saved cards, a
 * booking's receipt and the coach's earnings. Shapes as the issue and booking.v1 payments.proto
 * fix them (TODO: alias `Schemas[...]` once gateway/openapi.json documents these routes).
 */
import useSWR, { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Booking } from './get-bookings';
import { refreshBookings } from './get-bookings';

/** GET /api/payments/config (public): the key Stripe.js is started with and where to load it. */
export interface PaymentsConfig {
  publishable_key: string;
  js_url: string;
}
export const PAYMENTS_CONFIG_KEY = '/payments/config';
export const usePaymentsConfig = (enabled = true) =>
  useSWR<PaymentsConfig>(enabled ? PAYMENTS_CONFIG_KEY : null, () => api.get<PaymentsConfig>(PAYMENTS_CONFIG_KEY), {
    revalidateIfStale: false,
  });

/** One of the client's saved cards. */
export interface PaymentMethod {
  payment_method_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  is_default: boolean;
}

/** GET /api/client/payment-methods: the client's cards, the default first. */
export const PAYMENT_METHODS_KEY = '/client/payment-methods';
export const getPaymentMethods = () => api.get<PaymentMethod[]>(PAYMENT_METHODS_KEY);
export const usePaymentMethods = (enabled = true) =>
  useSWR<PaymentMethod[]>(enabled ? PAYMENT_METHODS_KEY : null, getPaymentMethods);

/** POST /api/client/payment-methods/setup → 201: the SetupIntent the browser confirms. */
export interface CardSetup {
  setup_intent_id: string;
  client_secret: string;
}
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
export interface ReceiptLine {
  kind: 'hold' | 'capture' | 'release' | 'refund' | string;
  amount_cents: number;
  at: string;
  reason?: string | null;
}

/** GET /api/bookings/{id}/receipt (its client and coach; 404 before anything was charged). */
export interface Receipt {
  receipt_id: string;
  booking: Booking;
  card_brand: string;
  card_last4: string;
  amount_paid_cents: number;
  amount_refunded_cents: number;
  currency: string;
  lines: ReceiptLine[];
  issued_at: string;
}
export const receiptKey = (bookingId: string) => `/bookings/${encodeURIComponent(bookingId)}/receipt`;
export const useReceipt = (bookingId: string | undefined) =>
  useSWR<Receipt>(bookingId ? receiptKey(bookingId) : null, () => api.get<Receipt>(receiptKey(bookingId as string)));

/** One capture or refund of the coach's month. */
export interface EarningsLine {
  booking_id: string;
  booking_date: string;
  kind: 'capture' | 'refund' | string;
  gross_cents: number;
  fee_cents: number;
  net_cents: number;
  at: string;
  client_id: string;
  client_name?: string;
}

/** GET /api/coach/earnings?month=YYYY-MM. */
export interface Earnings {
  month?: string;
  currency?: string;
  held_cents: number;
  paid_cents: number;
  fees_cents: number;
  net_cents: number;
  lines: EarningsLine[];
}
export const earningsKey = (month: string) => `/coach/earnings?month=${encodeURIComponent(month)}`;
export const useEarnings = (month: string) => useSWR<Earnings>(earningsKey(month), () => api.get<Earnings>(earningsKey(month)));

/** GET /api/coach/earnings.csv?month=YYYY-MM: the month's statement. */
export const getEarningsCsv = (month: string) => api.file('/coach/earnings.csv', { query: { month } });
export const earningsCsvName = (month: string) => `courtside-earnings-${month}.csv`;
