import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { coachDashboardApi } from '@/testing/dashboards';
import { makeUser, renderApp } from '@/testing/test-utils';
import { DEFAULT_POLICY } from '../utils/booking-policy';

const coach = makeUser({ user_id: 'coach-1', role: 'coach', full_name: 'Maya Thompson' });

async function policyCard() {
  const heading = await screen.findByRole('heading', { name: 'Booking policy' });
  return heading.closest('[aria-labelledby="booking-policy-title"]') as HTMLElement;
}

describe("the coach's Booking policy card", () => {
  it('shows the policy in friendly units', async () => {
    renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /coach/policy': {
          min_notice_minutes: 120,
          max_advance_days: 60,
          response_window_minutes: 2880,
          cancellation_window_minutes: 1440,
        },
      }),
    });
    const card = await policyCard();
    const policy = await within(card).findByTestId('booking-policy');
    expect(policy).toHaveTextContent('Minimum notice2 hours');
    expect(policy).toHaveTextContent('Book up to60 days ahead');
    expect(policy).toHaveTextContent('Answer within2 days');
    expect(policy).toHaveTextContent('Free cancellation until24 hours before');
  });

  it('saves a policy typed in hours and days as minutes and days, and shows it', async () => {
    let saved = DEFAULT_POLICY;
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /coach/policy': () => saved,
        'PUT /coach/policy': ({ body }: { body: typeof DEFAULT_POLICY }) => {
          saved = body;
          return body;
        },
      }),
    });
    const card = await policyCard();
    await within(card).findByTestId('booking-policy');
    await user.click(within(card).getByRole('button', { name: 'Edit Policy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Booking Policy' });
    expect(within(dialog).getByLabelText('Answer requests within')).toHaveValue(2);
    expect(within(dialog).getByRole('combobox', { name: 'Answer requests within unit' })).toHaveTextContent('Days');

    await user.clear(within(dialog).getByLabelText('Minimum notice'));
    await user.type(within(dialog).getByLabelText('Minimum notice'), '3');
    await user.clear(within(dialog).getByLabelText('How far ahead (days)'));
    await user.type(within(dialog).getByLabelText('How far ahead (days)'), '30');
    await user.click(within(dialog).getByRole('combobox', { name: 'Free cancellation until unit' }));
    await user.click(await screen.findByRole('option', { name: 'Days' }));
    await user.clear(within(dialog).getByLabelText('Free cancellation until'));
    await user.type(within(dialog).getByLabelText('Free cancellation until'), '2');
    expect(within(dialog).getByLabelText('Late cancellation fee (%)')).toHaveValue(50);
    expect(within(dialog).getByLabelText('No-show fee (%)')).toHaveValue(100);
    await user.clear(within(dialog).getByLabelText('Late cancellation fee (%)'));
    await user.type(within(dialog).getByLabelText('Late cancellation fee (%)'), '25');
    await user.clear(within(dialog).getByLabelText('No-show fee (%)'));
    await user.type(within(dialog).getByLabelText('No-show fee (%)'), '0');
    await user.click(within(dialog).getByRole('button', { name: 'Save Policy' }));

    expect(await screen.findByText('Booking policy saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT' && c.path === '/coach/policy')?.body).toEqual({
      min_notice_minutes: 180,
      max_advance_days: 30,
      response_window_minutes: 2880,
      cancellation_window_minutes: 2880,
      late_cancellation_fee_percent: 25,
      no_show_fee_percent: 0,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(card).getByTestId('booking-policy')).toHaveTextContent('Minimum notice3 hours');
    expect(within(card).getByTestId('booking-policy')).toHaveTextContent('Free cancellation until2 days before');
    expect(within(card).getByTestId('booking-policy')).toHaveTextContent('Late cancellation fee25% of the price');
    expect(within(card).getByTestId('booking-policy')).toHaveTextContent('No-show fee0% of the price');
  });

  it('says which field is out of range before sending anything', async () => {
    const { user, calls } = renderApp('/coach/dashboard', { user: coach, api: coachDashboardApi() });
    const card = await policyCard();
    await within(card).findByTestId('booking-policy');
    await user.click(within(card).getByRole('button', { name: 'Edit Policy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Booking Policy' });
    await user.clear(within(dialog).getByLabelText('How far ahead (days)'));
    await user.type(within(dialog).getByLabelText('How far ahead (days)'), '1000');
    await user.click(within(dialog).getByRole('button', { name: 'Save Policy' }));
    await user.clear(within(dialog).getByLabelText('No-show fee (%)'));
    await user.type(within(dialog).getByLabelText('No-show fee (%)'), '150');
    await user.click(within(dialog).getByRole('button', { name: 'Save Policy' }));
    expect(within(dialog).getByLabelText('No-show fee (%)')).toHaveAccessibleDescription(
      'Of the price, charged when you mark a client a no-show. No-show fee must be a whole percentage between 0 and 100',
    );
    const field = within(dialog).getByLabelText('How far ahead (days)');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription('How far ahead must be a whole number of days between 1 and 730');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it("shows the server's refusal in the form", async () => {
    const { user } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'PUT /coach/policy': { status: 400, body: { detail: 'min_notice_minutes must be at most 43200' } },
      }),
    });
    const card = await policyCard();
    await within(card).findByTestId('booking-policy');
    await user.click(within(card).getByRole('button', { name: 'Edit Policy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Booking Policy' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Policy' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('min_notice_minutes must be at most 43200');
  });

  it('offers to try again when the policy cannot be loaded', async () => {
    let fail = true;
    const { user } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /coach/policy': () => (fail ? { status: 503, body: { detail: 'Coaching is unavailable' } } : DEFAULT_POLICY),
      }),
    });
    const card = await policyCard();
    expect(await within(card).findByRole('alert')).toHaveTextContent('Coaching is unavailable');
    fail = false;
    await user.click(within(card).getByRole('button', { name: 'Try again' }));
    expect(await within(card).findByTestId('booking-policy')).toHaveTextContent('Answer within2 days');
  });
});
