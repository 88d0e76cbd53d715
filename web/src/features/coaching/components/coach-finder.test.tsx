import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { coachListing, coachProfile } from '@/testing/fixtures';
import { coachPageApi } from '@/testing/dashboards';
import { currentPath, renderApp } from '@/testing/test-utils';

const maya = coachListing({
  coach_id: 'maya',
  coach_name: 'Maya Thompson',
  specialties: ['Shooting', 'Defense', 'Footwork', 'Rebounding'],
  locations: [{ city: 'Austin', state: 'TX' }, { city: 'Round Rock', state: 'TX' }],
});
const leo = coachListing({ coach_id: 'leo', coach_name: 'Leo Park', specialties: ['Volleyball Serve'], locations: [{ city: 'Denver', state: 'CO' }] });

function stubGeolocation(geolocation: unknown) {
  Object.defineProperty(navigator, 'geolocation', { value: geolocation, configurable: true });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'geolocation');
});

const base = { 'GET /coaches': [maya, leo] };

describe('the coaches page', () => {
  it('lists all coaches with up to 3 specialties, their locations, and the "all" banner', async () => {
    renderApp('/coaches', { user: 'client', api: base });
    expect(await screen.findByRole('heading', { name: 'Find Your Coach' })).toBeInTheDocument();
    const card = (await screen.findByRole('heading', { name: 'Maya Thompson' })).closest('[data-testid="coach-card"]') as HTMLElement;
    expect(within(within(card).getByRole('list', { name: 'Specialties' })).getAllByRole('listitem')).toHaveLength(3);
    expect(within(card).getByText('Austin, TX')).toBeInTheDocument();
    expect(within(card).getByText('Round Rock, TX')).toBeInTheDocument();
    expect(within(card).getByText('$65')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Search mode' })).toHaveTextContent('Showing all coaches');
  });

  it('opens a coach profile from the card or View Profile', async () => {
    const leoPage = coachPageApi(
      {
        'GET /coach/profile/leo': coachProfile({ coach_id: 'leo', coach_name: 'Leo Park' }),
        'GET /locations/coach/leo': [],
        'GET /availability/coach/leo': [],
      },
      'leo',
    );
    const { user, router } = renderApp('/coaches', { user: 'client', api: { ...base, ...leoPage } });
    const card = (await screen.findByRole('heading', { name: 'Leo Park' })).closest('[data-testid="coach-card"]') as HTMLElement;
    expect(within(card).getByRole('link', { name: 'View Profile' })).toHaveAttribute('href', '/coach/leo');
    await user.click(within(card).getByText('Denver, CO'));
    // The detail page is a lazy chunk: the path changes once it has loaded.
    await waitFor(() => expect(currentPath(router)).toBe('/coach/leo'));
  });

  it('filters the list by name or specialty as you type', async () => {
    const { user } = renderApp('/coaches', { user: 'client', api: base });
    await screen.findByRole('heading', { name: 'Maya Thompson' });
    await user.type(screen.getByLabelText('Name or specialty'), 'volley');
    expect(screen.queryByRole('heading', { name: 'Maya Thompson' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Leo Park' })).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Name or specialty'));
    await user.type(screen.getByLabelText('Name or specialty'), 'nobody');
    expect(screen.getByText('No coaches found')).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search criteria')).toBeInTheDocument();
  });

  it('asks for a city or state before searching a place', async () => {
    const { user, calls } = renderApp('/coaches', { user: 'client', api: base });
    await user.click(await screen.findByRole('button', { name: 'Search Location' }));
    expect(await screen.findByText('Please enter a city or state')).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/geocode') || c.path.startsWith('/coaches/search'))).toBe(false);
  });

  it('searches within 25 miles of a place the server can geocode', async () => {
    const { user, calls } = renderApp('/coaches', {
      user: 'client',
      api: {
        ...base,
        'GET /geocode': { found: true, lat: 30.27, lng: -97.74, name: 'Austin, TX' },
        'GET /coaches/search/nearby': [{ ...maya, distance: 3.24 }],
      },
    });
    await user.type(await screen.findByLabelText('City'), 'Austin');
    await user.type(screen.getByLabelText('State'), 'TX');
    await user.click(screen.getByRole('button', { name: 'Search Location' }));

    expect(await screen.findByText('Found 1 coaches near Austin, TX')).toBeInTheDocument();
    const nearby = calls.find((c) => c.path === '/coaches/search/nearby');
    expect(Object.fromEntries(nearby!.query)).toEqual({ lat: '30.27', lng: '-97.74', radius: '25' });
    expect(Object.fromEntries(calls.find((c) => c.path === '/geocode')!.query)).toEqual({ city: 'Austin', state: 'TX' });
    expect(await screen.findByText('3.2 miles away')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Leo Park' })).not.toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Search mode' })).toHaveTextContent('within 25 miles of Austin, TX');
  });

  it('falls back to the city search when the place is not found', async () => {
    const { user, calls } = renderApp('/coaches', {
      user: 'client',
      api: {
        ...base,
        'GET /geocode': { found: false, lat: null, lng: null, name: null },
        'GET /coaches/search/city': [leo],
      },
    });
    await user.type(await screen.findByLabelText('State'), 'CO');
    await user.click(screen.getByRole('button', { name: 'Search Location' }));
    expect(await screen.findByText('Found 1 coaches')).toBeInTheDocument();
    expect(Object.fromEntries(calls.find((c) => c.path === '/coaches/search/city')!.query)).toEqual({ state: 'CO' });
    expect(screen.getByRole('status', { name: 'Search mode' })).toHaveTextContent('Showing coaches in CO');
    expect(screen.queryByRole('heading', { name: 'Maya Thompson' })).not.toBeInTheDocument();
  });

  it('says when the city search fails', async () => {
    const { user } = renderApp('/coaches', {
      user: 'client',
      api: { ...base, 'GET /geocode': { found: false }, 'GET /coaches/search/city': { status: 500 } },
    });
    await user.type(await screen.findByLabelText('City'), 'Nowhere');
    await user.click(screen.getByRole('button', { name: 'Search Location' }));
    expect(await screen.findByText('Failed to search coaches')).toBeInTheDocument();
  });

  it('finds coaches within 25 miles of the browser position, then Show All returns', async () => {
    stubGeolocation({
      getCurrentPosition: (ok: PositionCallback) =>
        ok({ coords: { latitude: 39.74, longitude: -104.99 } } as GeolocationPosition),
    });
    const { user, calls } = renderApp('/coaches', {
      user: 'client',
      api: { ...base, 'GET /coaches/search/nearby': [{ ...leo, distance: 1 }] },
    });
    await user.click(await screen.findByRole('button', { name: 'Find Near Me' }));
    expect(await screen.findByText('Found 1 coaches within 25 miles')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/coaches/search/nearby')!.query.get('radius')).toBe('25');
    expect(screen.getByRole('status', { name: 'Search mode' })).toHaveTextContent('your location');
    expect(screen.queryByRole('heading', { name: 'Maya Thompson' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show All' }));
    expect(await screen.findByRole('heading', { name: 'Maya Thompson' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Search mode' })).toHaveTextContent('Showing all coaches');
  });

  it('explains a refused location', async () => {
    stubGeolocation({
      getCurrentPosition: (_ok: PositionCallback, fail: PositionErrorCallback) =>
        fail({ code: 1, message: 'denied' } as GeolocationPositionError),
    });
    const { user } = renderApp('/coaches', { user: 'client', api: base });
    await user.click(await screen.findByRole('button', { name: 'Find Near Me' }));
    expect(
      await screen.findByText('Unable to get your location. Please enable location services.'),
    ).toBeInTheDocument();
  });

  it('explains a browser without geolocation', async () => {
    const { user } = renderApp('/coaches', { user: 'client', api: base });
    await user.click(await screen.findByRole('button', { name: 'Find Near Me' }));
    expect(await screen.findByText('Geolocation is not supported by your browser')).toBeInTheDocument();
  });

  it('says when the list cannot load', async () => {
    renderApp('/coaches', { user: 'client', api: { 'GET /coaches': { status: 403, body: {} } } });
    expect(await screen.findByText('Failed to load coaches')).toBeInTheDocument();
  });

  it('has a Dashboard button to the client dashboard', async () => {
    renderApp('/coaches', { user: 'client', api: base });
    expect(await screen.findByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/client/dashboard');
  });
});

describe('the coaches page filters and sort', () => {
  it('asks the server for the filters and order kept in the URL, and shows the stars', async () => {
    const rated = coachListing({ coach_id: 'leo', coach_name: 'Leo Park', rating_average: 4.8, rating_count: 23 });
    const { calls } = renderApp('/coaches?sort=rating&min_rating=4', {
      user: 'client',
      api: { ...base, 'GET /coaches': (call: { query: URLSearchParams }) => (call.query.get('sort') ? [rated] : [maya, leo]) },
    });
    const card = (await screen.findByRole('heading', { name: 'Leo Park' })).closest('[data-testid="coach-card"]') as HTMLElement;
    expect(within(card).getByTestId('rating-summary')).toHaveTextContent('4.8 · 23 reviews');
    expect(screen.queryByRole('heading', { name: 'Maya Thompson' })).not.toBeInTheDocument();
    const asked = calls.find((c) => c.path === '/coaches' && c.query.get('sort'));
    expect(asked?.query.get('sort')).toBe('rating');
    expect(asked?.query.get('min_rating')).toBe('4');
    expect(screen.getByLabelText('Sort by')).toHaveValue('rating');
    expect(screen.getByLabelText('Minimum rating')).toHaveValue('4');
  });

  it('puts a chosen order into the URL, and a new coach reads "New coach"', async () => {
    const { user, router, calls } = renderApp('/coaches', { user: 'client', api: base });
    const card = (await screen.findByRole('heading', { name: 'Maya Thompson' })).closest('[data-testid="coach-card"]') as HTMLElement;
    expect(within(card).getByTestId('rating-summary')).toHaveTextContent('New coach');

    await user.selectOptions(screen.getByLabelText('Sort by'), 'price');

    await waitFor(() => expect(router.state.location.search).toBe('?sort=price'));
    await waitFor(() => expect(calls.some((c) => c.path === '/coaches' && c.query.get('sort') === 'price')).toBe(true));
    expect(currentPath(router)).toBe('/coaches');
  });
});
