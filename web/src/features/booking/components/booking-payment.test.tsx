import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coachPageApi, dashboardApi } from '@/testing/dashboards';
import { coachLocation, coachProfile, paymentMethod, slot } from '@/testing/fixtures';
import { fakeStripe, PAYMENTS_CONFIG } from '@/testing/stripe';
import { makeUser, renderApp } from '@/testing/test-utils';
import { DEFAULT_POLICY } from '../utils/booking-policy';

/** The coach's page (a $65/hour coach, a Friday 17:00-18:00 slot in Chicago), and the client's
 * dashboard a booking lands on. */
const detailApi = (extra: Record<string, unknown> = {}) =>
  coachPageApi({
    ...dashboardApi('client', makeUser().user_id),
    'GET /coach/profile/coach-1': coachProfile(),
    'GET /locations/coach/coach-1': [coachLocation()],
    'GET /availability/coach/coach-1': [slot({ slot_id: 'weekly', slot_type: 'recurring', day_of_week: 'Friday' })],
    ...extra,
  });

async function openDialog(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Book This Slot' }));
  const dialog = await screen.findByRole('dialog', { name: 'Confirm Your Booking' });
  await within(dialog).findByText('Fri, Mar 14, 2025');
  return dialog;
}

describe('the booking dialog’s money', () => {
  beforeEach(() => {
    vi.stubEnv('TZ', 'America/Chicago');
    // Wednesday 12 March 2025, 10:00 in Chicago; only Date is faked so user events still run.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 12, 10, 0));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it('shows the price, the card and what will happen, by the coach’s fees', async () => {
    const { user } = renderApp('/coach/coach-1', { user: 'client', api: detailApi() });
    const dialog = await openDialog(user);
    const payment = within(dialog).getByRole('region', { name: 'Payment' });
    expect(within(payment).getByTestId('booking-price')).toHaveTextContent('$65.00');
    expect(payment).toHaveTextContent('$65.00 for 60 min');
    expect(await within(payment).findByTestId('booking-card')).toHaveTextContent('Card: Visa •••• 4242');
    expect(within(payment).getByRole('list', { name: 'What will happen' })).toHaveTextContent(
      'Held on your card now, charged after the session.' +
        'Free cancellation until Thu, Mar 13, 5:00 PM; after that a $32.50 fee.' +
        'Missing the session costs $65.00.' +
        'If the coach declines or cancels, nothing is charged.',
    );
    expect(within(dialog).getByRole('button', { name: 'Confirm Booking' })).toBeEnabled();
  });

  it('reads the coach’s own fees, and says when the hold comes for a session more than 6 days out', async () => {
    const { user } = renderApp('/coach/coach-1', {
      user: 'client',
      api: detailApi({
        'GET /coach/policy/coach-1': { ...DEFAULT_POLICY, late_cancellation_fee_percent: 20, no_show_fee_percent: 0 },
      }),
    });
    const dialog = await openDialog(user);
    const gridcell = (day: number) =>
      within(dialog).getAllByRole('gridcell').find((cell) => cell.getAttribute('data-day') === `2025-03-${day}`)!;
    await user.click(within(gridcell(28)).getByRole('button'));
    const lines = within(dialog).getByRole('list', { name: 'What will happen' });
    expect(lines).toHaveTextContent('Held on your card on Sat, Mar 22, 5:00 PM, charged after the session.');
    expect(lines).toHaveTextContent('Free cancellation until Thu, Mar 27, 5:00 PM; after that a $13.00 fee.');
    expect(lines).toHaveTextContent('Missing the session costs nothing.');
  });

  it('asks for a card first when the slot is paid and there is none, and adds one in place', async () => {
    const stripe = fakeStripe();
    let cards: ReturnType<typeof paymentMethod>[] = [];
    const { user, calls } = renderApp('/coach/coach-1', {
      user: 'client',
      api: detailApi({
        'GET /client/payment-methods': () => cards,
        'GET /payments/config': PAYMENTS_CONFIG,
        'POST /client/payment-methods/setup': () => {
          cards = [paymentMethod()];
          return { status: 201, body: { setup_intent_id: 'seti_1', client_secret: 'seti_1_secret_x' } };
        },
        'POST /bookings': { status: 201, body: { booking_id: 'b1' } },
      }),
    });
    const dialog = await openDialog(user);
    expect(await within(dialog).findByText('Add a card first')).toBeInTheDocument();
    const confirm = within(dialog).getByRole('button', { name: 'Confirm Booking' });
    expect(confirm).toBeDisabled();
    expect(confirm).toHaveAccessibleDescription('Add a card first: this session is paid.');

    await user.click(within(dialog).getByRole('button', { name: 'Add a card' }));
    await within(dialog).findByRole('textbox', { name: 'Card number' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Card' }));
    expect(await within(dialog).findByText('Visa •••• 4242')).toBeInTheDocument();
    expect(stripe.confirmCardSetup).toHaveBeenCalledWith('seti_1_secret_x', { payment_method: { card: stripe.card } });
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Confirm Booking' })).toBeEnabled());
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText('Booking confirmed! Check your dashboard.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/bookings')).toHaveLength(1);
  });

  it('holds another of the client’s cards when they pick it, the default otherwise', async () => {
    const mastercard = paymentMethod({ payment_method_id: 'pm-mc', brand: 'mastercard', last4: '4444', is_default: false });
    const { user, calls } = renderApp('/coach/coach-1', {
      user: 'client',
      api: detailApi({
        'GET /client/payment-methods': [paymentMethod(), mastercard],
        'POST /bookings': { status: 201, body: { booking_id: 'b1' } },
      }),
    });
    const dialog = await openDialog(user);
    const select = await within(dialog).findByRole('combobox', { name: 'Card' });
    expect(select).toHaveTextContent('Visa •••• 4242 (default)');
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'Mastercard •••• 4444' }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText('Booking confirmed! Check your dashboard.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path === '/bookings')?.body).toEqual({
      coach_id: 'coach-1',
      slot_id: 'weekly',
      booking_date: '2025-03-14',
      payment_method_id: 'pm-mc',
    });
  });

  it('shows a 402’s detail beside the card, with a way to add one', async () => {
    const detail = 'Add a card under Payment methods on your dashboard, then book again.';
    const { user } = renderApp('/coach/coach-1', {
      user: 'client',
      api: detailApi({ 'POST /bookings': { status: 402, body: { detail } } }),
    });
    const dialog = await openDialog(user);
    await within(dialog).findByText('Visa •••• 4242');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Booking' }));
    const payment = within(dialog).getByRole('region', { name: 'Payment' });
    expect(await within(payment).findByRole('alert')).toHaveTextContent(detail);
    expect(within(payment).getByRole('button', { name: 'Add a card' })).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Confirm Your Booking' })).toBeInTheDocument();
  });

  it('says a session of a coach without a rate is free, and asks for no card', async () => {
    const { user, calls } = renderApp('/coach/coach-1', {
      user: 'client',
      api: detailApi({
        'GET /coach/profile/coach-1': coachProfile({ hourly_rate: 0 }),
        'POST /bookings': { status: 201, body: { booking_id: 'b1' } },
      }),
    });
    const dialog = await openDialog(user);
    const payment = within(dialog).getByRole('region', { name: 'Payment' });
    expect(within(payment).getByTestId('booking-price')).toHaveTextContent('Free');
    expect(payment).toHaveTextContent('This session is free: no card is needed and nothing is charged.');
    expect(within(payment).queryByTestId('booking-card')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/client/payment-methods')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Booking' }));
    expect(await screen.findByText('Booking confirmed! Check your dashboard.')).toBeInTheDocument();
  });
});
