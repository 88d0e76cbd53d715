import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { booking2025, coachProfile } from '@/testing/fixtures';
import { coachDashboardApi, coachPageApi } from '@/testing/dashboards';
import { makeUser, renderApp } from '@/testing/test-utils';
import type { Booking } from '../api/get-bookings';
import type { Review } from '../api/post-review';

const client = makeUser({ user_id: 'client-1', full_name: 'Casey Jordan' });

function review(overrides: Partial<Review> = {}): Review {
  return {
    review_id: 'r-1',
    booking_id: 'b-1',
    coach_id: 'coach-1',
    client_name: 'Casey Jordan',
    rating: 4,
    comment: 'Great footwork drills.',
    created_at: '2025-03-15T10:00:00Z',
    updated_at: '2025-03-15T10:00:00Z',
    editable_until: '2099-03-29T10:00:00Z',
    reply: null,
    replied_at: null,
    hidden: false,
    hidden_reason: null,
    ...overrides,
  };
}

/** A session that took place. */
const completed = (overrides: Partial<Booking> = {}) => booking2025({ status: 'completed', ...overrides });

const noProfile = { status: 404, body: { detail: 'Client profile not found' } };

describe('reviews on the client dashboard', () => {
  it('offers "Leave a review" on a completed session only, and posts the stars and comment', async () => {
    let bookings = [completed(), completed({ booking_id: 'b-2', status: 'confirmed', starts_at: '2099-01-01T10:00:00Z' })];
    const { user, calls } = renderApp('/client/dashboard', {
      user: client,
      api: {
        'GET /bookings': () => bookings,
        'GET /client/profile/client-1': noProfile,
        'GET /client/payment-methods': [],
        'POST /bookings/b-1/review': () => {
          bookings = [completed({ review: review({ rating: 5 }) }), bookings[1]];
          return { status: 201, body: review({ rating: 5 }) };
        },
      },
    });
    const [done, upcoming] = await screen.findAllByTestId('booking');
    expect(within(upcoming).queryByRole('button', { name: 'Leave a review' })).not.toBeInTheDocument();

    await user.click(within(done).getByRole('button', { name: 'Leave a review' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: '5 stars' }));
    await user.type(within(dialog).getByLabelText('Comment (optional)'), 'Best coach ever');
    await user.click(within(dialog).getByRole('button', { name: 'Post review' }));

    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ rating: 5, comment: 'Best coach ever' });
    expect(await screen.findByRole('button', { name: 'Edit review' })).toBeInTheDocument();
  });

  it('asks for a rating before posting', async () => {
    const { user, calls } = renderApp('/client/dashboard', {
      user: client,
      api: { 'GET /bookings': [completed()], 'GET /client/profile/client-1': noProfile, 'GET /client/payment-methods': [] },
    });
    await user.click(await screen.findByRole('button', { name: 'Leave a review' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Post review' }));
    expect(await screen.findByText('Please choose a rating')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('offers "Edit review" within the edit window with the review filled in, and not after', async () => {
    const { user, calls } = renderApp('/client/dashboard', {
      user: client,
      api: {
        'GET /bookings': [
          completed({ review: review() }),
          completed({ booking_id: 'b-old', review: review({ booking_id: 'b-old', editable_until: '2020-01-01T00:00:00Z' }) }),
        ],
        'GET /client/profile/client-1': noProfile,
        'GET /client/payment-methods': [],
        'PUT /bookings/b-1/review': review({ rating: 3 }),
      },
    });
    const [fresh, old] = await screen.findAllByTestId('booking');
    expect(within(old).queryByRole('button', { name: 'Edit review' })).not.toBeInTheDocument();
    expect(within(old).getByTestId('your-review')).toHaveTextContent('★★★★');

    await user.click(within(fresh).getByRole('button', { name: 'Edit review' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('radio', { name: '4 stars' })).toHaveAttribute('aria-checked', 'true');
    expect(within(dialog).getByLabelText('Comment (optional)')).toHaveValue('Great footwork drills.');
    await user.click(within(dialog).getByRole('radio', { name: '3 stars' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save review' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ rating: 3, comment: 'Great footwork drills.' }));
  });
});

describe("a coach's reviews", () => {
  const profileWithRatings = coachProfile({
    rating_average: 4.5,
    rating_count: 2,
    rating_distribution: [0, 0, 0, 1, 1],
  });
  const detailApi = (extra: Record<string, unknown> = {}) =>
    coachPageApi({
      'GET /coach/profile/coach-1': profileWithRatings,
      'GET /locations/coach/coach-1': [],
      'GET /availability/coach/coach-1': [],
      ...extra,
    });

  it('shows the average, the distribution, replies and loads more on the coach page', async () => {
    const { user } = renderApp('/coach/coach-1', {
      user: client,
      api: detailApi({
        'GET /coach/coach-1/reviews': (call: { query: URLSearchParams }) =>
          call.query.get('cursor')
            ? [review({ review_id: 'r-2', client_name: 'Old Timer', rating: 5, comment: null })]
            : {
                body: [review({ reply: 'Thanks Casey!' })],
                headers: { Link: '</api/coach/coach-1/reviews?limit=5&cursor=abc>; rel="next"' },
              },
      }),
    });
    expect(await screen.findByText('4.5 · 2 reviews')).toBeInTheDocument();
    const distribution = await screen.findByRole('list', { name: 'Ratings by stars' });
    expect(within(distribution).getByLabelText('5 stars: 1')).toBeInTheDocument();
    const [first] = await screen.findAllByTestId('review');
    expect(first).toHaveTextContent('Great footwork drills.');
    expect(first).toHaveTextContent('Thanks Casey!');
    expect(within(first).queryByRole('button', { name: 'Reply' })).not.toBeInTheDocument();
    expect(within(first).queryByRole('button', { name: 'Hide review' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Old Timer')).toBeInTheDocument();
  });

  it('lets the coach reply once from the dashboard', async () => {
    const coach = makeUser({ user_id: 'coach-1', role: 'coach', full_name: 'Maya Thompson' });
    const { user, calls } = renderApp('/coach/dashboard', {
      user: coach,
      api: coachDashboardApi({
        'GET /coach/profile/coach-1': profileWithRatings,
        'GET /coach/coach-1/reviews': [review()],
        'POST /coach/reviews/r-1/reply': review({ reply: 'See you next week' }),
      }),
    });
    const item = await screen.findByTestId('review');
    await user.click(within(item).getByRole('button', { name: 'Reply' }));
    await user.type(within(item).getByLabelText('Your reply'), 'See you next week');
    await user.click(within(item).getByRole('button', { name: 'Post reply' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/coach/reviews/r-1/reply')?.body).toEqual({ reply: 'See you next week' }),
    );
  });

  it('lets an admin hide a review with a reason', async () => {
    const admin = makeUser({ user_id: 'admin-1', role: 'admin', full_name: 'Ada Admin' });
    const { user, calls } = renderApp('/coach/coach-1', {
      user: admin,
      api: detailApi({
        'GET /coach/coach-1/reviews': [review()],
        'PATCH /admin/reviews/r-1/hide': review({ hidden: true, hidden_reason: 'Insults' }),
      }),
    });
    await user.click(within(await screen.findByTestId('review')).getByRole('button', { name: 'Hide review' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Reason (kept with the review)'), 'Insults');
    await user.click(within(dialog).getByRole('button', { name: 'Hide review' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ reason: 'Insults' }));
  });
});
