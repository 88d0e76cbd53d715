import { CreditCard, Wallet } from 'lucide-react';
import * as React from 'react';
import { SelectField } from '@/components/forms/select-field';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { formatCents, formatMinutes, formatPrice, percentOf } from '@/lib/money';
import { zoneSuffix } from '@/lib/zoned-time';
import { cardLabel, type PaymentMethod } from '../api/payments';
import { lateFeePercent, noShowFeePercent, type PolicyLimits } from '../utils/booking-policy';
import { AddCardForm } from './add-card-form';

/** Card holds lapse after 7 days: a session further out than this is held this long before it. */
export const HOLD_AHEAD_DAYS = 6;
const DAY_MS = 86_400_000;

/** "Thu, Mar 13, 5:00 PM" on the place's clock (with its zone when the reader is elsewhere). */
export function formatMoment(at: Date, zone: string): string {
  const text = at.toLocaleString('en-US', {
    timeZone: zone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
  return `${text}${zoneSuffix(zone, at)}`;
}

/** What will happen to the client's money, as sentences. */
export function paymentLines({
  priceCents,
  startsAt,
  zone,
  policy,
  now,
}: {
  priceCents: number;
  startsAt: Date | null;
  zone: string;
  policy: PolicyLimits;
  now: Date;
}): string[] {
  if (priceCents === 0) return ['This session is free: no card is needed and nothing is charged.'];
  const lines: string[] = [];
  const holdAt = startsAt ? new Date(startsAt.getTime() - HOLD_AHEAD_DAYS * DAY_MS) : null;
  lines.push(
    holdAt && holdAt > now
      ? `Held on your card on ${formatMoment(holdAt, zone)}, charged after the session.`
      : 'Held on your card now, charged after the session.',
  );
  const lateFee = percentOf(priceCents, lateFeePercent(policy));
  const freeUntil = startsAt ? new Date(startsAt.getTime() - policy.cancellation_window_minutes * 60_000) : null;
  if (lateFee === 0) {
    lines.push('Cancel for free at any time before the session.');
  } else if (freeUntil && freeUntil <= now) {
    lines.push(`Free cancellation has ended for this date: cancelling costs a ${formatCents(lateFee)} fee.`);
  } else if (freeUntil) {
    lines.push(`Free cancellation until ${formatMoment(freeUntil, zone)}; after that a ${formatCents(lateFee)} fee.`);
  }
  const noShowFee = percentOf(priceCents, noShowFeePercent(policy));
  lines.push(noShowFee > 0 ? `Missing the session costs ${formatCents(noShowFee)}.` : 'Missing the session costs nothing.');
  lines.push('If the coach declines or cancels, nothing is charged.');
  return lines;
}

/**
 * The booking dialog's money: the price ("$75.00 for 60 min", or "Free"), the card it will be
 * held on (or "Add a card first" with the card form in place), and what will happen.
 */
export function BookingPaymentSection({
  priceCents,
  minutes,
  startsAt,
  zone,
  policy,
  cards,
  problem,
  chosenCardId,
  onChooseCard,
}: {
  priceCents: number;
  minutes: number;
  startsAt: Date | null;
  zone: string;
  policy: PolicyLimits;
  cards: { data?: PaymentMethod[]; error?: unknown; isLoading: boolean };
  /** A 402's detail: the server wants a card. */
  problem?: string | null;
  /** The card picked among several (the default when null). */
  chosenCardId?: string | null;
  onChooseCard?: (id: string) => void;
}) {
  const [adding, setAdding] = React.useState(false);
  const now = React.useMemo(() => new Date(), []);
  const card = cards.data?.find((c) => c.payment_method_id === chosenCardId) ?? defaultCard(cards.data);
  const several = (cards.data?.length ?? 0) > 1 && onChooseCard !== undefined;
  const paid = priceCents > 0;

  return (
    <section aria-label="Payment" className="grid gap-2 rounded-lg border p-4 text-sm" data-testid="booking-payment-summary">
      <p className="flex items-center gap-2">
        <Wallet className="size-4 text-court-700" aria-hidden="true" />
        <span>
          <span className="font-semibold" data-testid="booking-price">
            {formatPrice(priceCents)}
          </span>
          {paid ? <span className="text-muted-foreground"> for {formatMinutes(minutes)}</span> : null}
        </span>
      </p>
      {paid && several && card ? (
        <SelectField
          id="booking-card"
          label="Card"
          value={card.payment_method_id}
          onChange={(id) => onChooseCard?.(id)}
          options={(cards.data ?? []).map((c) => ({
            value: c.payment_method_id,
            label: `${cardLabel(c)}${c.is_default ? ' (default)' : ''}`,
          }))}
        />
      ) : paid ? (
        <div className="flex items-center gap-2" data-testid="booking-card">
          <CreditCard className="size-4 shrink-0 text-court-700" aria-hidden="true" />
          {cards.isLoading ? (
            <Spinner className="size-4 border-2" label="Loading your cards" />
          ) : card ? (
            <span>
              Card: <span className="font-semibold">{cardLabel(card)}</span>
            </span>
          ) : cards.error ? (
            <span className="text-muted-foreground">Your cards could not be read; your default card will be used.</span>
          ) : (
            <span className="font-semibold text-destructive">Add a card first</span>
          )}
        </div>
      ) : null}
      {problem ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800">
          {problem}
        </p>
      ) : null}
      {paid && !cards.isLoading && (!card || problem) && !cards.error ? (
        adding ? (
          <AddCardForm onAdded={() => setAdding(false)} onCancel={() => setAdding(false)} />
        ) : (
          <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => setAdding(true)}>
            <CreditCard aria-hidden="true" />
            Add a card
          </Button>
        )
      ) : null}
      <ul aria-label="What will happen" className="grid gap-1 text-navy-700">
        {paymentLines({ priceCents, startsAt, zone, policy, now }).map((line) => (
          <li key={line} className="list-inside list-disc">
            {line}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The card a booking uses: the default, else the first. */
export const defaultCard = (cards: PaymentMethod[] | undefined) => cards?.find((c) => c.is_default) ?? cards?.[0];
