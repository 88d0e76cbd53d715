import { screen, waitFor, within } from '@testing-library/react';
import { mutate } from 'swr';
import { describe, expect, it, vi } from 'vitest';
import { clientDashboardApi } from '@/testing/dashboards';
import { paymentMethod } from '@/testing/fixtures';
import { fakeStripe, PAYMENTS_CONFIG } from '@/testing/stripe';
import { makeUser, renderApp } from '@/testing/test-utils';

const client = makeUser({ user_id: 'client-1', full_name: 'Casey Jordan' });
const visa = paymentMethod();
const mastercard = paymentMethod({
  payment_method_id: 'pm-mc',
  brand: 'mastercard',
  last4: '4444',
  exp_month: 3,
  exp_year: 2031,
  is_default: false,
});

describe('the Payment methods card', () => {
  it('lists the cards: brand, last four, expiry and the default', async () => {
    renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({ 'GET /client/payment-methods': [visa, mastercard] }),
    });
    const rows = await screen.findAllByTestId('payment-method');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Visa •••• 4242');
    expect(rows[0]).toHaveTextContent('Expires 12/34');
    expect(within(rows[0]).getByText('Default')).toBeInTheDocument();
    expect(within(rows[0]).queryByRole('button', { name: /^Make default/ })).not.toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Mastercard •••• 4444');
    expect(rows[1]).toHaveTextContent('Expires 03/31');
    expect(within(rows[1]).queryByText('Default')).not.toBeInTheDocument();
    expect(document.getElementById('payment-methods')).toContainElement(rows[0]);
  });

  it('comes into view when a link names it (#payment-methods: the card-declined email’s)', async () => {
    const scrolled: string[] = [];
    vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this.id);
    });
    renderApp('/client/dashboard#payment-methods', { user: client, api: clientDashboardApi() });
    await screen.findAllByTestId('payment-method');
    await waitFor(() => expect(scrolled).toContain('payment-methods'));
  });

  it('says when there is no card yet, and when the cards cannot be read', async () => {
    let fail = false;
    const { user } = renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({
        'GET /client/payment-methods': () =>
          fail ? { status: 503, body: { detail: 'Payments are unavailable right now' } } : [],
      }),
    });
    expect(await screen.findByText('No cards yet. Add one to book paid sessions.')).toBeInTheDocument();
    fail = true;
    // Read again (a refresh): the error and a way to try again.
    await mutate('/client/payment-methods', undefined);
    expect(await screen.findByText('Payments are unavailable right now')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No cards yet. Add one to book paid sessions.')).toBeInTheDocument();
  });

  it('makes another card the default', async () => {
    let cards = [visa, mastercard];
    const { user, calls } = renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({
        'GET /client/payment-methods': () => cards,
        'PUT /client/payment-methods/pm-mc/default': () => {
          cards = [{ ...mastercard, is_default: true }, { ...visa, is_default: false }];
          return cards;
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Make default: Mastercard •••• 4444' }));
    expect(await screen.findByText('Mastercard •••• 4444 is now your default card')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('payment-method')[0]).toHaveTextContent('Mastercard •••• 4444'));
    expect(within(screen.getAllByTestId('payment-method')[0]).getByText('Default')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
    // The bookings are read again: a declined hold is tried with the new default.
    expect(calls.filter((c) => c.method === 'GET' && c.path === '/bookings').length).toBeGreaterThan(1);
  });

  it('removes a card, and shows why the server refuses to', async () => {
    let cards = [visa, mastercard];
    const { user } = renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({
        'GET /client/payment-methods': () => cards,
        'DELETE /client/payment-methods/pm-visa': {
          status: 409,
          body: { detail: 'This card holds the payment of an upcoming session; make another card the default first.' },
        },
        'DELETE /client/payment-methods/pm-mc': () => {
          cards = [visa];
          return { status: 204 };
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Remove Visa •••• 4242' }));
    const [visaRow] = screen.getAllByTestId('payment-method');
    expect(
      await within(visaRow).findByRole('alert'),
    ).toHaveTextContent('This card holds the payment of an upcoming session; make another card the default first.');

    await user.click(screen.getByRole('button', { name: 'Remove Mastercard •••• 4444' }));
    expect(await screen.findByText('Mastercard •••• 4444 removed')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('payment-method')).toHaveLength(1));
  });

  it('adds a card through Stripe Elements: setup, confirmCardSetup, then the cards again', async () => {
    const stripe = fakeStripe();
    let cards: ReturnType<typeof paymentMethod>[] = [];
    const { user, calls } = renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({
        'GET /client/payment-methods': () => cards,
        'GET /payments/config': PAYMENTS_CONFIG,
        'POST /client/payment-methods/setup': () => {
          cards = [visa];
          return { status: 201, body: { setup_intent_id: 'seti_1', client_secret: 'seti_1_secret_abc' } };
        },
      }),
    });
    await screen.findByText('No cards yet. Add one to book paid sessions.');
    await user.click(screen.getByRole('button', { name: 'Add Card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a card' });
    expect(await within(dialog).findByRole('textbox', { name: 'Card number' })).toBeInTheDocument();
    expect(stripe.factory).toHaveBeenCalledWith('pk_test_courtside');
    expect(stripe.create).toHaveBeenCalledWith('card');

    await user.click(within(dialog).getByRole('button', { name: 'Save Card' }));
    expect(await screen.findByText('Card added')).toBeInTheDocument();
    expect(stripe.confirmCardSetup).toHaveBeenCalledWith('seti_1_secret_abc', { payment_method: { card: stripe.card } });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Visa •••• 4242')).toBeInTheDocument();
    expect(stripe.card.destroy).toHaveBeenCalled();
    expect(calls.filter((c) => c.path === '/client/payment-methods/setup')).toHaveLength(1);
  });

  it('keeps the dialog open with Stripe’s message when the card is refused', async () => {
    const stripe = fakeStripe({ error: { message: 'Your card was declined.' } });
    const { user } = renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({
        'GET /client/payment-methods': [],
        'GET /payments/config': PAYMENTS_CONFIG,
        'POST /client/payment-methods/setup': { status: 201, body: { setup_intent_id: 'seti_2', client_secret: 'seti_2_secret_x' } },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add Card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a card' });
    await within(dialog).findByRole('textbox', { name: 'Card number' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Card' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Your card was declined.');
    expect(stripe.confirmCardSetup).toHaveBeenCalledTimes(1);
    expect(within(dialog).getByRole('button', { name: 'Save Card' })).toBeEnabled();
  });

  it('says so when the card form cannot be loaded', async () => {
    const { user } = renderApp('/client/dashboard', {
      user: client,
      api: clientDashboardApi({
        'GET /client/payment-methods': [],
        'GET /payments/config': { status: 404, body: { detail: 'Payments are not set up on this server' } },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add Card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a card' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Payments are not set up on this server');
    expect(within(dialog).getByRole('button', { name: 'Save Card' })).toBeDisabled();
  });
});
