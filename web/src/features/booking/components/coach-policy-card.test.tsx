import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { coachProfile } from '@/testing/fixtures';
import { coachPageApi } from '@/testing/dashboards';
import { makeUser, renderApp } from '@/testing/test-utils';

const client = makeUser({ user_id: 'client-1', full_name: 'Casey Jordan' });

/** A coach with no places or slots; the server answers the default policy unless `api` says. */
const coachPage = (api: Record<string, unknown> = {}) =>
  coachPageApi({
    'GET /coach/profile/coach-1': coachProfile({ coach_id: 'coach-1', coach_name: 'Maya Thompson' }),
    'GET /locations/coach/coach-1': [],
    'GET /availability/coach/coach-1': [],
    'GET /availability/coach/coach-1/calendar': [],
    ...api,
  });

describe("the coach's page", () => {
  it("shows the coach's booking policy before a slot is chosen", async () => {
    renderApp('/coach/coach-1', {
      user: client,
      api: coachPage({
        'GET /coach/policy/coach-1': {
          min_notice_minutes: 120,
          max_advance_days: 30,
          response_window_minutes: 720,
          cancellation_window_minutes: 1440,
        },
      }),
    });

    const policy = await screen.findByTestId('coach-policy');
    const lines = within(policy)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(lines).toEqual([
      'Book at least 2 hours ahead',
      'Book up to 30 days ahead',
      'The coach answers within 12 hours',
      'Free cancellation until 24 hours before',
    ]);
    expect(screen.getByRole('region', { name: 'Booking policy' })).toBeInTheDocument();
  });

  it('shows the default policy of a coach who set none', async () => {
    renderApp('/coach/coach-1', { user: client, api: coachPage() });

    const policy = await screen.findByTestId('coach-policy');
    expect(policy).toHaveTextContent('Book up to 365 days ahead');
    expect(policy).toHaveTextContent('Free cancellation until 24 hours before');
    expect(policy).not.toHaveTextContent('Book at least');
  });
});
