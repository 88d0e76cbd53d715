import type * as React from 'react';
import { Printer, ReceiptText, RotateCw } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage, isNotFound } from '@/lib/api-client';
import { formatDisplayDate } from '@/lib/dates';
import { formatCents } from '@/lib/money';
import { formatTimeRange } from '@/lib/zoned-time';
import { cardLabel, useReceipt, type Receipt, type ReceiptLine } from '../api/payments';

const LINE_WORDS: Record<string, string> = {
  hold: 'Held on card',
  capture: 'Charged',
  release: 'Hold released',
  refund: 'Refunded',
};

/** "Mar 14, 2025, 5:03 PM" in the reader's zone. */
const formatInstant = (at: string) =>
  new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * A booking's receipt (GET /api/bookings/{id}/receipt): who, when and where, the card, each
 * movement of the money, what was paid and refunded. Prints on one page; reads on a phone.
 */
export function ReceiptView({ bookingId }: { bookingId: string }) {
  const { data: receipt, error, isLoading, mutate } = useReceipt(bookingId);

  if (isLoading) {
    return (
      <div className="flex justify-center py-24">
        <Spinner label="Loading the receipt" />
      </div>
    );
  }
  if (isNotFound(error)) {
    return (
      <EmptyState
        icon={<ReceiptText />}
        title="No receipt yet"
        description="Nothing has been charged for this booking, so there is no receipt."
      />
    );
  }
  if (error || !receipt) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed px-4 py-10 text-center">
        <p role="alert">{errorMessage(error, 'Failed to load the receipt')}</p>
        <Button variant="outline" size="sm" onClick={() => void mutate()}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  }
  return <ReceiptCard receipt={receipt} />;
}

function ReceiptCard({ receipt }: { receipt: Receipt }) {
  const { booking, currency } = receipt;
  const net = receipt.amount_paid_cents - receipt.amount_refunded_cents;
  return (
    <Card className="print:border-0 print:shadow-none" data-testid="receipt">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="space-y-1.5">
          <CardTitle>
            <span className="block text-2xl font-extrabold">Receipt</span>
          </CardTitle>
          <CardDescription>
            No. <span className="font-mono">{receipt.receipt_id}</span> · issued {formatInstant(receipt.issued_at)}
          </CardDescription>
        </div>
        <Button variant="outline" size="sm" className="print:hidden" onClick={() => window.print()}>
          <Printer aria-hidden="true" />
          Print
        </Button>
      </CardHeader>
      <CardContent className="grid gap-6">
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <Item term="Session">
            {formatDisplayDate(booking.booking_date)}, {formatTimeRange(booking)}
          </Item>
          <Item term="Place">{booking.location_name || 'Location TBD'}</Item>
          <Item term="Coach">{booking.coach_name}</Item>
          <Item term="Client">{booking.client_name}</Item>
          <Item term="Card">{cardLabel({ brand: receipt.card_brand, last4: receipt.card_last4 })}</Item>
          <Item term="Price">{formatCents(booking.price_cents, currency)}</Item>
        </dl>

        <table className="w-full text-sm" aria-label="Payments">
          <thead>
            <tr className="border-b text-left text-xs uppercase tracking-wide text-muted-foreground">
              <th scope="col" className="py-2 pr-2 font-medium">
                What
              </th>
              <th scope="col" className="py-2 pr-2 font-medium">
                When
              </th>
              <th scope="col" className="py-2 text-right font-medium">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {receipt.lines.map((line, index) => (
              <LineRow key={`${line.kind}-${line.at}-${index}`} line={line} currency={currency} />
            ))}
          </tbody>
        </table>

        <dl className="ml-auto grid w-full max-w-xs gap-1 text-sm" data-testid="receipt-totals">
          <Total term="Paid" value={formatCents(receipt.amount_paid_cents, currency)} />
          {receipt.amount_refunded_cents > 0 ? (
            <Total term="Refunded" value={formatCents(-receipt.amount_refunded_cents, currency)} />
          ) : null}
          <Total term="Total" value={formatCents(net, currency)} strong />
        </dl>
      </CardContent>
    </Card>
  );
}

function Item({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{term}</dt>
      <dd className="mt-0.5 break-words font-medium text-navy-900">{children}</dd>
    </div>
  );
}

function LineRow({ line, currency }: { line: ReceiptLine; currency: string }) {
  const amount = line.kind === 'refund' ? -Math.abs(line.amount_cents) : line.amount_cents;
  return (
    <tr className="border-b align-top last:border-0" data-testid="receipt-line">
      <td className="py-2 pr-2">
        {LINE_WORDS[line.kind] ?? line.kind}
        {line.reason ? <span className="block text-xs text-muted-foreground">{line.reason}</span> : null}
      </td>
      <td className="py-2 pr-2 text-muted-foreground">{formatInstant(line.at)}</td>
      <td className="py-2 text-right font-medium tabular-nums">{formatCents(amount, currency)}</td>
    </tr>
  );
}

function Total({ term, value, strong }: { term: string; value: string; strong?: boolean }) {
  return (
    <div className={strong ? 'flex justify-between border-t pt-1 font-bold text-navy-900' : 'flex justify-between'}>
      <dt>{term}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}
