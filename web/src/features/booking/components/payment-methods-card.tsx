import { CreditCard, Plus, RotateCw } from 'lucide-react';
import * as React from 'react';
import { useLocation } from 'react-router-dom';
import { toast } from 'sonner';
import { DashboardCard, EmptyNote } from '@/components/cards/dashboard-card';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DialogTrigger } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import {
  cardExpiry,
  cardLabel,
  removePaymentMethod,
  setDefaultPaymentMethod,
  usePaymentMethods,
  type PaymentMethod,
} from '../api/payments';
import { AddCardDialog } from './add-card-form';

/** Where a "fix your card" link lands (`/client/dashboard#payment-methods`). */
export const PAYMENT_METHODS_ANCHOR = 'payment-methods';

/**
 * The client's "Payment methods": their saved cards (brand, last four, expiry, the default one),
 * a way to add one through Stripe's card element, make another the default, or remove one (the
 * server refuses while a session's hold is on it, and says why).
 */
export function PaymentMethodsCard({ className }: { className?: string }) {
  const { data: cards, error, isLoading, mutate } = usePaymentMethods();
  const [adding, setAdding] = React.useState(false);
  useScrolledToWhenLinked(!isLoading);

  return (
    <DashboardCard
      id={PAYMENT_METHODS_ANCHOR}
      titleId="payment-methods-title"
      className={className}
      title="Payment methods"
      description="Paid sessions are held on your default card and charged after they take place."
      actions={
        <AddCardDialog
          open={adding}
          onOpenChange={setAdding}
          trigger={
            <DialogTrigger asChild>
              <Button variant="accent" size="sm">
                <Plus aria-hidden="true" />
                Add Card
              </Button>
            </DialogTrigger>
          }
        />
      }
      loading={isLoading}
      loadingLabel="Loading your cards"
      empty={
        error && !cards ? (
          <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed px-4 py-6 text-center text-sm">
            <p role="alert">{errorMessage(error, 'Failed to load your cards')}</p>
            <Button variant="outline" size="sm" onClick={() => void mutate()}>
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : !cards?.length ? (
          <EmptyNote>No cards yet. Add one to book paid sessions.</EmptyNote>
        ) : null
      }
    >
      <ul aria-label="Your cards" className="grid gap-3">
        {cards?.map((card) => <CardRow key={card.payment_method_id} card={card} />)}
      </ul>
    </DashboardCard>
  );
}

function CardRow({ card }: { card: PaymentMethod }) {
  const [busy, setBusy] = React.useState<'default' | 'remove' | null>(null);
  const [problem, setProblem] = React.useState<string | null>(null);
  const label = cardLabel(card);

  async function run(action: 'default' | 'remove') {
    setBusy(action);
    setProblem(null);
    try {
      if (action === 'default') {
        await setDefaultPaymentMethod(card.payment_method_id);
        toast.success(`${label} is now your default card`);
      } else {
        await removePaymentMethod(card.payment_method_id);
        toast.success(`${label} removed`);
      }
    } catch (error) {
      const message = errorMessage(error, action === 'default' ? 'Failed to change the default card' : 'Failed to remove the card');
      setProblem(message);
      toast.error(message);
    } finally {
      setBusy(null);
    }
  }

  return (
    <li data-testid="payment-method" className="grid gap-2 rounded-lg border p-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 items-center gap-3">
          <CreditCard className="size-5 shrink-0 text-court-700" aria-hidden="true" />
          <div className="min-w-0">
            <p className="font-semibold text-navy-900">
              {label}{' '}
              {card.is_default ? (
                <Badge variant="accent" className="ml-1 align-middle">
                  Default
                </Badge>
              ) : null}
            </p>
            <p className="text-sm text-muted-foreground">Expires {cardExpiry(card)}</p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          {card.is_default ? null : (
            <Button
              variant="outline"
              size="sm"
              disabled={busy !== null}
              aria-label={`Make default: ${label}`}
              onClick={() => void run('default')}
            >
              Make default
            </Button>
          )}
          <Button
            variant="outline"
            size="sm"
            className="text-destructive hover:bg-red-50"
            disabled={busy !== null}
            aria-label={`Remove ${label}`}
            onClick={() => void run('remove')}
          >
            Remove
          </Button>
        </div>
      </div>
      {problem ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {problem}
        </p>
      ) : null}
    </li>
  );
}

/** A link to `#payment-methods` (the "card declined" notice's and email's, a booking row's)
 * brings the card into view once it has loaded: the browser looked for it before the app drew
 * it. Once per arrival at that address (a notice opened later scrolls again). */
function useScrolledToWhenLinked(ready: boolean) {
  const { hash, key } = useLocation();
  const scrolledFor = React.useRef<string | null>(null);
  React.useEffect(() => {
    if (!ready || hash !== `#${PAYMENT_METHODS_ANCHOR}` || scrolledFor.current === key) return;
    scrolledFor.current = key;
    document.getElementById(PAYMENT_METHODS_ANCHOR)?.scrollIntoView({ block: 'start' });
  }, [ready, hash, key]);
}
