import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminDashboardApi } from '@/testing/dashboards';
import { makeUser, renderApp } from '@/testing/test-utils';
import type { AdminReview } from '../api/get-admin-reviews';

const admin = makeUser({ user_id: 'admin-1', role: 'admin', full_name: 'Ada Admin', email: 'ada@courtside.test' });

function review(overrides: Partial<AdminReview> = {}): AdminReview {
  return {
    review_id: 'r-1',
    booking_id: 'b-1',
    coach_id: 'coach-1',
    coach_name: 'Maya Thompson',
    client_name: 'Casey Jordan',
    rating: 4,
    comment: 'Great footwork drills.',
    created_at: '2025-03-15T10:00:00Z',
    updated_at: '2025-03-15T10:00:00Z',
    editable_until: '2025-03-29T10:00:00Z',
    reply: null,
    replied_at: null,
    hidden: false,
    hidden_reason: null,
    ...overrides,
  };
}

/** The other admin cards' reads, so that only the reviews card is under test. */
const api = (extra: Record<string, unknown> = {}) => adminDashboardApi({ 'GET /admin/users': [admin], ...extra });

const items = (list: HTMLElement) => within(list).getAllByRole('listitem');

describe("the admin dashboard's reviews card", () => {
  it('lists reviews newest first with coach, client, stars, comment, date and hidden state, and shows more', async () => {
    const { user, calls } = renderApp('/admin/dashboard', {
      user: admin,
      api: api({
        'GET /admin/reviews': ({ query }: { query: URLSearchParams }) =>
          query.get('cursor') === 'c2'
            ? [review({ review_id: 'r-1', client_name: 'Old Client', rating: 2, comment: null, created_at: '2025-03-01T10:00:00Z' })]
            : {
                body: [
                  review({ review_id: 'r-3', rating: 5, created_at: '2025-03-20T10:00:00Z' }),
                  review({
                    review_id: 'r-2',
                    client_name: 'Rude Client',
                    coach_name: 'Jordan Lee',
                    rating: 1,
                    comment: 'You are useless',
                    hidden: true,
                    hidden_reason: 'Personal insults',
                  }),
                ],
                headers: { Link: '</api/admin/reviews?limit=10&cursor=c2>; rel="next"' },
              },
      }),
    });

    expect(await screen.findByRole('heading', { name: 'Reviews' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'All reviews' });
    const [newest, hidden] = items(list);
    expect(newest).toHaveTextContent('Casey Jordan on Maya Thompson');
    expect(within(newest).getByLabelText('5 out of 5 stars')).toBeInTheDocument();
    expect(newest).toHaveTextContent('Great footwork drills.');
    expect(within(newest).getByText(/2025/)).toHaveAttribute('datetime', '2025-03-20T10:00:00Z');
    expect(within(newest).getByRole('button', { name: "Hide Casey Jordan's review of Maya Thompson" })).toBeInTheDocument();

    expect(hidden).toHaveTextContent('Rude Client on Jordan Lee');
    expect(hidden).toHaveTextContent('Hidden');
    expect(hidden).toHaveTextContent('Reason: Personal insults');
    expect(within(hidden).queryByRole('button')).not.toBeInTheDocument();
    expect(calls.find((call) => call.path === '/admin/reviews')?.query.get('limit')).toBe('10');

    await user.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(items(screen.getByRole('list', { name: 'All reviews' }))).toHaveLength(3));
    expect(items(screen.getByRole('list', { name: 'All reviews' }))[2]).toHaveTextContent('Old Client on Maya Thompson');
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it('hides a review with the reason the admin gives, then shows it hidden', async () => {
    let hidden = false;
    const { user, calls } = renderApp('/admin/dashboard', {
      user: admin,
      api: api({
        'GET /admin/reviews': () => [review(hidden ? { hidden: true, hidden_reason: 'Spam link' } : {})],
        'PATCH /admin/reviews/r-1/hide': () => {
          hidden = true;
          return review({ hidden: true, hidden_reason: 'Spam link' });
        },
      }),
    });

    await user.click(await screen.findByRole('button', { name: "Hide Casey Jordan's review of Maya Thompson" }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Hide this review?' })).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Reason (kept with the review)'), 'Spam link');
    await user.click(within(dialog).getByRole('button', { name: 'Hide review' }));

    await waitFor(() => expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ reason: 'Spam link' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const list = screen.getByRole('list', { name: 'All reviews' });
    await waitFor(() => expect(items(list)[0]).toHaveTextContent('Reason: Spam link'));
    expect(within(list).queryByRole('button', { name: /^Hide/ })).not.toBeInTheDocument();
  });

  it('says when there are no reviews yet', async () => {
    renderApp('/admin/dashboard', { user: admin, api: api({ 'GET /admin/reviews': [] }) });
    expect(await screen.findByText('No reviews yet.')).toBeInTheDocument();
  });

  it('says when the reviews could not be read', async () => {
    renderApp('/admin/dashboard', {
      user: admin,
      api: api({ 'GET /admin/reviews': { status: 500, body: { detail: 'Something broke' } } }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load reviews');
  });
});
