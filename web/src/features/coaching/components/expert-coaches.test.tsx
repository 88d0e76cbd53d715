import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { coachListing } from '@/testing/fixtures';
import { renderApp } from '@/testing/test-utils';

const coaches = [
  coachListing({
    coach_id: 'a',
    coach_name: 'Maya Thompson',
    years_experience: 8,
    specialties: ['Shooting', 'Defense', 'Footwork', 'Rebounding', 'Passing'],
    locations: [{ city: 'Austin', state: 'TX' }, { city: 'Dallas', state: 'TX' }],
  }),
  coachListing({
    coach_id: 'b',
    coach_name: 'Leo Park',
    years_experience: 4,
    specialties: ['Volleyball Serve', 'defense'],
    locations: [],
    bio: '',
    hourly_rate: 42.5,
  }),
];

describe('the public coaches page', () => {
  it('sums the directory and lists every coach under "All Coaches"', async () => {
    renderApp('/expert-coaches', { api: { 'GET /coaches': coaches } });
    expect(await screen.findAllByTestId('coach-card')).toHaveLength(2);
    expect(screen.getByRole('heading', { name: 'All Coaches' })).toBeInTheDocument();
    const summary = screen.getByLabelText('Coach summary');
    const stat = (label: string) => within(summary).getByText(label).parentElement;
    expect(stat('Coaches')).toHaveTextContent('2');
    expect(stat('Years of Experience')).toHaveTextContent('12'); // 8 + 4
    expect(stat('Specialties')).toHaveTextContent('6'); // "Defense" and "defense" count once
  });

  it('shows at most 4 specialty badges, the first location, the rate and Book Now to /login', async () => {
    renderApp('/expert-coaches', { api: { 'GET /coaches': coaches } });
    const card = (await screen.findByRole('heading', { name: 'Maya Thompson' })).closest('[data-testid="coach-card"]') as HTMLElement;
    const badges = within(within(card).getByRole('list', { name: 'Specialties' })).getAllByRole('listitem');
    expect(badges.map((b) => b.textContent)).toEqual(['Shooting', 'Defense', 'Footwork', 'Rebounding']);
    expect(within(card).getByText('Austin, TX')).toBeInTheDocument();
    expect(within(card).queryByText('Dallas, TX')).not.toBeInTheDocument();
    expect(within(card).getByText('8 years experience')).toBeInTheDocument();
    expect(within(card).getByText('$65/hr')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Book Now' })).toHaveAttribute('href', '/login');
  });

  it('falls back to the standard bio when a coach has none', async () => {
    renderApp('/expert-coaches', { api: { 'GET /coaches': coaches } });
    const card = (await screen.findByRole('heading', { name: 'Leo Park' })).closest('[data-testid="coach-card"]') as HTMLElement;
    expect(
      within(card).getByText('Professional coach dedicated to helping athletes achieve their goals.'),
    ).toHaveClass('line-clamp-3');
    expect(within(card).getByText('$42.50/hr')).toBeInTheDocument();
  });

  it('renders a long directory a screenful at a time, and a search starts again from its first', async () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      coachListing({ coach_id: `c${i}`, coach_name: `Coach ${i}`, specialties: [i % 2 ? 'Defense' : 'Shooting'] }),
    );
    const { user } = renderApp('/expert-coaches', { api: { 'GET /coaches': many } });
    expect(await screen.findAllByTestId('coach-card')).toHaveLength(24);
    expect(screen.getByLabelText('Coach summary')).toHaveTextContent('30');
    await user.click(screen.getByRole('button', { name: /Show more coaches/ }));
    expect(screen.getAllByTestId('coach-card')).toHaveLength(30);
    expect(screen.queryByRole('button', { name: /Show more coaches/ })).not.toBeInTheDocument();

    await user.type(screen.getByPlaceholderText('Search by name or specialty...'), 'defense');
    expect(screen.getByRole('heading', { name: '15 coaches found' })).toBeInTheDocument();
    expect(screen.getAllByTestId('coach-card')).toHaveLength(15);
  });

  it('filters by name or specialty, case-insensitively, and counts the matches', async () => {
    const { user } = renderApp('/expert-coaches', { api: { 'GET /coaches': coaches } });
    const search = await screen.findByPlaceholderText('Search by name or specialty...');
    await user.type(search, 'DEFENSE');
    expect(screen.getByRole('heading', { name: '2 coaches found' })).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'serve');
    expect(screen.getByRole('heading', { name: '1 coaches found' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Leo Park' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Maya Thompson' })).not.toBeInTheDocument();
  });

  it('shows the empty state when nothing matches', async () => {
    const { user } = renderApp('/expert-coaches', { api: { 'GET /coaches': coaches } });
    await user.type(await screen.findByPlaceholderText('Search by name or specialty...'), 'zzz');
    expect(screen.getByText('No coaches found')).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search criteria')).toBeInTheDocument();
  });

  it('logs a failed load and shows the empty state', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/expert-coaches', { api: { 'GET /coaches': { status: 400, body: { detail: 'nope' } } } });
    expect(await screen.findByText('No coaches found')).toBeInTheDocument();
    expect(log).toHaveBeenCalled();
  });

  it('offers the way back and the sign-up call to action', async () => {
    renderApp('/expert-coaches', { api: { 'GET /coaches': [] } });
    expect(await screen.findByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Login / Sign Up' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Sign Up Now' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Learn More about Courtside on the home page' })).toHaveAttribute('href', '/');
    // The visible words stay SPEC's "Learn More"; the name adds where the link goes.
    expect(screen.getByText('Learn More').closest('a')).toHaveAttribute('href', '/');
  });
});
