import { CreditCard, Loader2 } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { DialogWhileOpen } from '@/components/dialogs/form-dialog';
import { Button } from '@/components/ui/button';
import { DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { refreshCards, setupPaymentMethod, usePaymentsConfig } from '../api/payments';
import { loadStripe, type StripeCardElement, type StripeClient } from '../api/stripe';

type Ready = { stripe: StripeClient; card: StripeCardElement };

/**
 * Stripe's card element, mounted here: the card's number never passes through Courtside. Loads
 * Stripe.js from the configured address once; `null` until the element is in place.
 */
function useCardElement(target: React.RefObject<HTMLDivElement | null>) {
  const config = usePaymentsConfig();
  const [ready, setReady] = React.useState<Ready | null>(null);
  const [failed, setFailed] = React.useState<string | null>(null);
  const jsUrl = config.data?.js_url;
  const key = config.data?.publishable_key;

  React.useEffect(() => {
    if (!jsUrl || !key) return;
    let card: StripeCardElement | null = null;
    let gone = false;
    loadStripe(jsUrl, key)
      .then((stripe) => {
        if (gone || !target.current) return;
        card = stripe.elements().create('card');
        card.mount(target.current);
        setReady({ stripe, card });
      })
      .catch((error: unknown) => {
        console.error('Failed to load Stripe.js', error);
        if (!gone) setFailed('The card form could not be loaded. Try again later.');
      });
    return () => {
      gone = true;
      card?.destroy();
    };
  }, [jsUrl, key, target]);

  const error = config.error ? errorMessage(config.error, 'The card form could not be loaded. Try again later.') : failed;
  return { ready, error };
}

/**
 * Adds a card: Stripe's card element, then POST /api/client/payment-methods/setup and
 * `stripe.confirmCardSetup`, then the cards are read again. Used in the "Add a card" dialog and
 * inside the booking dialog when a paid session needs a card first.
 */
export function AddCardForm({ onAdded, onCancel }: { onAdded: () => void; onCancel?: () => void }) {
  const target = React.useRef<HTMLDivElement>(null);
  const { ready, error: loadError } = useCardElement(target);
  const [saving, setSaving] = React.useState(false);
  const [problem, setProblem] = React.useState<string | null>(null);

  async function save() {
    if (!ready) return;
    setSaving(true);
    setProblem(null);
    try {
      const setup = await setupPaymentMethod();
      const result = await ready.stripe.confirmCardSetup(setup.client_secret, { payment_method: { card: ready.card } });
      if (result.error) {
        setProblem(result.error.message || 'Your card could not be saved. Check its details and try again.');
        setSaving(false);
        return;
      }
      await refreshCards();
      toast.success('Card added');
      onAdded();
    } catch (error) {
      setProblem(errorMessage(error, 'Failed to add the card'));
      setSaving(false);
    }
  }

  return (
    <div className="grid gap-3">
      <div
        role="group"
        aria-label="Card details"
        className="min-h-11 rounded-md border border-input bg-white px-3 py-2 text-sm [&_input]:min-w-0 [&_input]:max-w-full [&_input]:rounded [&_input]:border [&_input]:border-input [&_input]:px-1 [&_input]:py-1 flex flex-wrap items-center gap-1"
        data-testid="card-element"
        ref={target}
      />
      {!ready && !loadError ? <Spinner className="size-5" label="Loading the card form" /> : null}
      {loadError || problem ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {problem ?? loadError}
        </p>
      ) : null}
      <p className="text-xs text-muted-foreground">
        Your card is saved with our payment provider; Courtside never sees its number.
      </p>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {onCancel ? (
          <Button type="button" variant="outline" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
        ) : null}
        <Button type="button" variant="accent" onClick={() => void save()} disabled={!ready || saving}>
          {saving ? <Loader2 className="animate-spin" aria-hidden="true" /> : <CreditCard aria-hidden="true" />}
          Save Card
        </Button>
      </div>
    </div>
  );
}

/** "Add a card" in its own dialog (the Payment methods card's button). */
export function AddCardDialog({ open, onOpenChange, trigger }: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger?: React.ReactNode;
}) {
  return (
    <DialogWhileOpen open={open} onOpenChange={onOpenChange} trigger={trigger}>
      {(close) => (
        <div className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Add a card</DialogTitle>
            <DialogDescription>Paid sessions are held on this card and charged after they take place.</DialogDescription>
          </DialogHeader>
          <AddCardForm onAdded={close} onCancel={close} />
        </div>
      )}
    </DialogWhileOpen>
  );
}
