import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadStripe, resetStripeLoads } from './stripe';

describe('loading Stripe.js', () => {
  afterEach(() => {
    resetStripeLoads();
    document.head.querySelectorAll('script').forEach((script) => script.remove());
  });

  it('adds the script from js_url once and starts Stripe with the publishable key', async () => {
    const client = { elements: vi.fn(), confirmCardSetup: vi.fn() };
    const factory = vi.fn(() => client);
    const first = loadStripe('/stripe/js.stripe.com/v3/', 'pk_test_1');
    const second = loadStripe('/stripe/js.stripe.com/v3/', 'pk_test_1');
    const scripts = document.head.querySelectorAll('script');
    expect(scripts).toHaveLength(1);
    expect(scripts[0].getAttribute('src')).toBe('/stripe/js.stripe.com/v3/');
    vi.stubGlobal('Stripe', factory);
    scripts[0].dispatchEvent(new Event('load'));
    await expect(first).resolves.toBe(client);
    await expect(second).resolves.toBe(client);
    expect(factory).toHaveBeenCalledTimes(1);
    expect(factory).toHaveBeenCalledWith('pk_test_1');
  });

  it('may be tried again after the script failed to load', async () => {
    const failed = loadStripe('/stripe/js.stripe.com/v3/', 'pk_test_1');
    document.head.querySelector('script')?.dispatchEvent(new Event('error'));
    await expect(failed).rejects.toThrow('Stripe.js could not be loaded');
    const again = loadStripe('/stripe/js.stripe.com/v3/', 'pk_test_1');
    expect(document.head.querySelectorAll('script')).toHaveLength(2);
    vi.stubGlobal('Stripe', () => ({ elements: vi.fn(), confirmCardSetup: vi.fn() }));
    document.head.querySelectorAll('script')[1].dispatchEvent(new Event('load'));
    await expect(again).resolves.toBeDefined();
  });
});
