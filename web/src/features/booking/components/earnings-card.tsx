import { ChevronLeft, ChevronRight, Download, Loader2, RotateCw } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { DashboardCard, EmptyNote } from '@/components/cards/dashboard-card';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/api-client';
import { formatDisplayDate } from '@/lib/dates';
import { saveFile } from '@/lib/download';
import { formatCents } from '@/lib/money';
import { earningsCsvName, getEarningsCsv, useEarnings, type Earnings, type EarningsLine } from '../api/payments';

/** "2026-11": the month (UTC, as the ledger counts it) of `at`. */
export const monthOf = (at: Date) => `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;

/** The month `delta` months from `month` ("2026-01", −1 → "2025-12"). */
export function shiftMonth(month: string, delta: number): string {
  const [year, m] = month.split('-').map(Number);
  return monthOf(new Date(Date.UTC(year, m - 1 + delta, 1)));
}

/** "November 2026". */
export function monthName(month: string): string {
  const [year, m] = month.split('-').map(Number);
  if (!year || !m) return month;
  return new Date(Date.UTC(year, m - 1, 1)).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

const isMonth = (value: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(value);

/**
 * The coach's "Earnings": what is on hold now, what was paid in a month, the platform's fees and
 * what is left (GET /api/coach/earnings?month=), each capture and refund of the month, and the
 * month's statement as CSV (GET /api/coach/earnings.csv?month=).
 */
export function EarningsCard({ className }: { className?: string }) {
  const [month, setMonth] = React.useState(() => monthOf(new Date()));
  const [typed, setTyped] = React.useState(month);
  const { data, error, isLoading, mutate } = useEarnings(month);
  const [downloading, setDownloading] = React.useState(false);

  const go = (next: string) => {
    setMonth(next);
    setTyped(next);
  };

  async function download() {
    setDownloading(true);
    try {
      saveFile(await getEarningsCsv(month), earningsCsvName(month));
    } catch (failure) {
      toast.error(errorMessage(failure, 'Failed to download the statement'));
    } finally {
      setDownloading(false);
    }
  }

  return (
    <DashboardCard
      className={className}
      titleId="earnings-title"
      title="Earnings"
      description="Your sessions' payments, less the platform's fee."
      actions={
        <Button variant="outline" size="sm" onClick={() => void download()} disabled={downloading}>
          {downloading ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
          Download CSV
        </Button>
      }
    >
      <div className="grid gap-4">
        <div className="flex flex-wrap items-end gap-2">
          <Button variant="outline" size="icon" aria-label="Previous month" onClick={() => go(shiftMonth(month, -1))}>
            <ChevronLeft aria-hidden="true" />
          </Button>
          <div className="grid gap-1">
            <Label htmlFor="earnings-month">Month</Label>
            <Input
              id="earnings-month"
              type="month"
              className="w-44"
              value={typed}
              onChange={(event) => {
                setTyped(event.target.value);
                if (isMonth(event.target.value)) setMonth(event.target.value);
              }}
            />
          </div>
          <Button variant="outline" size="icon" aria-label="Next month" onClick={() => go(shiftMonth(month, 1))}>
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
        <EarningsBody month={month} data={data} error={error} isLoading={isLoading} retry={() => void mutate()} />
      </div>
    </DashboardCard>
  );
}

function EarningsBody({
  month,
  data,
  error,
  isLoading,
  retry,
}: {
  month: string;
  data: Earnings | undefined;
  error: unknown;
  isLoading: boolean;
  retry: () => void;
}) {
  if (isLoading && !data) {
    return (
      <div className="flex justify-center py-6" role="status">
        <Loader2 className="size-6 animate-spin text-court-700" aria-hidden="true" />
        <span className="sr-only">Loading earnings</span>
      </div>
    );
  }
  if (error && !data) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed px-4 py-6 text-center text-sm">
        <p role="alert">{errorMessage(error, 'Failed to load your earnings')}</p>
        <Button variant="outline" size="sm" onClick={retry}>
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </div>
    );
  }
  if (!data) return null;
  const figures: [string, number][] = [
    ['On hold now', data.held_cents],
    [`Paid in ${monthName(month)}`, data.paid_cents],
    ['Platform fees', data.fees_cents],
    ['Net', data.net_cents],
  ];
  return (
    <div className="grid gap-4">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="earnings-figures">
        {figures.map(([term, cents]) => (
          <div key={term} className="rounded-lg bg-muted/60 p-3">
            <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{term}</dt>
            <dd className="mt-1 text-lg font-bold tabular-nums text-navy-900">{formatCents(cents)}</dd>
          </div>
        ))}
      </dl>
      {data.lines.length === 0 ? (
        <EmptyNote>No payments in {monthName(month)}.</EmptyNote>
      ) : (
        <ul aria-label={`Payments in ${monthName(month)}`} className="grid gap-2">
          {data.lines.map((line, index) => (
            <EarningsRow key={`${line.booking_id}-${line.kind}-${line.at}-${index}`} line={line} />
          ))}
        </ul>
      )}
    </div>
  );
}

function EarningsRow({ line }: { line: EarningsLine }) {
  return (
    <li
      data-testid="earnings-line"
      className="flex flex-col gap-1 rounded-lg border px-3 py-2 text-sm sm:flex-row sm:items-center sm:justify-between"
    >
      <span>
        <span className="font-medium text-navy-900">{formatDisplayDate(line.booking_date)}</span>{' '}
        <span className="text-muted-foreground">
          · {line.kind === 'refund' ? 'Refunded' : 'Charged'}
          {line.client_name ? ` · ${line.client_name}` : ''}
        </span>
      </span>
      <span className="flex flex-wrap gap-x-3 tabular-nums">
        <span>{formatCents(line.gross_cents)}</span>
        <span className="text-muted-foreground">fee {formatCents(line.fee_cents)}</span>
        <span className="font-semibold">net {formatCents(line.net_cents)}</span>
      </span>
    </li>
  );
}
