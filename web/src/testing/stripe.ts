/** A stand-in for Stripe.js in component tests: `window.Stripe` with a card element that mounts
 * one labelled input, and a `confirmCardSetup` answering `result`. */
import { vi } from 'vitest';
import { resetStripeLoads } from '@/features/booking/api/stripe';

export const PAYMENTS_CONFIG = { publishable_key: 'pk_test_courtside', js_url: '/stripe/js.stripe.com/v3/' };

export function fakeStripe(
  result: { error?: { message: string } | null; setupIntent?: { id: string; status: string } } = {
    error: null,
    setupIntent: { id: 'seti_1', status: 'succeeded' },
  },
) {
  resetStripeLoads();
  const card = {
    mount: vi.fn((target: HTMLElement) => {
      const input = document.createElement('input');
      input.setAttribute('placeholder', 'number');
      input.setAttribute('aria-label', 'Card number');
      target.appendChild(input);
    }),
    destroy: vi.fn(),
    on: vi.fn(),
  };
  const create = vi.fn(() => card);
  const confirmCardSetup = vi.fn(async () => result);
  const factory = vi.fn(() => ({ elements: () => ({ create }), confirmCardSetup }));
  vi.stubGlobal('Stripe', factory);
  return { card, create, confirmCardSetup, factory };
}
