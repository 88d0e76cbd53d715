/**
 * Stripe.js, loaded at run time from the `js_url` GET /api/payments/config answers (never
 * bundled): https://js.stripe.com/v3/ in production, localstripe's mock at
 * /stripe/js.stripe.com/v3/ in development and the e2e mesh. Only the few calls the app makes are
 * typed here.
 */

export interface StripeCardElement {
  mount(target: HTMLElement | string): void;
  destroy(): void;
  on(event: 'change' | 'ready', handler: (event?: { complete?: boolean; error?: { message?: string } }) => void): void;
}

export interface StripeElements {
  create(type: 'card', options?: Record<string, unknown>): StripeCardElement;
}

export interface StripeError {
  message?: string;
}

export interface StripeClient {
  elements(options?: Record<string, unknown>): StripeElements;
  confirmCardSetup(
    clientSecret: string,
    data: { payment_method: { card: StripeCardElement } },
  ): Promise<{ error?: StripeError | null; setupIntent?: { id: string; status: string; payment_method?: unknown } }>;
}

type StripeFactory = (publishableKey: string) => StripeClient;

declare global {
  interface Window {
    Stripe?: StripeFactory;
  }
}

/** The one load per page and script address (a second dialog reuses it). */
const loads = new Map<string, Promise<StripeFactory>>();

/** Loads the script at `jsUrl` once and answers its global `Stripe`. */
export function loadStripeScript(jsUrl: string): Promise<StripeFactory> {
  const known = loads.get(jsUrl);
  if (known) return known;
  const load = new Promise<StripeFactory>((resolve, reject) => {
    if (window.Stripe) {
      resolve(window.Stripe);
      return;
    }
    const script = document.createElement('script');
    script.src = jsUrl;
    script.async = true;
    script.onload = () => {
      if (window.Stripe) resolve(window.Stripe);
      else reject(new Error('Stripe.js loaded but did not start'));
    };
    script.onerror = () => reject(new Error('Stripe.js could not be loaded'));
    document.head.appendChild(script);
  });
  // A failed load may be tried again (the next opening of the dialog).
  load.catch(() => loads.delete(jsUrl));
  loads.set(jsUrl, load);
  return load;
}

/** Stripe started with `publishableKey`, its script loaded from `jsUrl` once. */
const clients = new Map<string, Promise<StripeClient>>();
export function loadStripe(jsUrl: string, publishableKey: string): Promise<StripeClient> {
  const id = `${jsUrl} ${publishableKey}`;
  const known = clients.get(id);
  if (known) return known;
  const client = loadStripeScript(jsUrl).then((factory) => factory(publishableKey));
  client.catch(() => clients.delete(id));
  clients.set(id, client);
  return client;
}

/** For tests: forget every load. */
export function resetStripeLoads() {
  loads.clear();
  clients.clear();
}
