import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { dashboardApi } from '@/testing/dashboards';
import { currentPath, makeUser, renderApp } from '@/testing/test-utils';

describe('route guards', () => {
  it('sends a signed-out visitor of a dashboard to /login', async () => {
    const { router } = renderApp('/coach/dashboard');
    expect(await screen.findByRole('tab', { name: 'Login' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/login');
  });

  it('sends a signed-out visitor of /coaches to /login', async () => {
    const { router } = renderApp('/coaches');
    await screen.findByRole('tab', { name: 'Login' });
    expect(currentPath(router)).toBe('/login');
  });

  it('shows a dashboard only to its own role', async () => {
    const { router } = renderApp('/gym/dashboard', { user: 'gym', api: dashboardApi('gym', makeUser().user_id) });
    expect(await screen.findByRole('heading', { name: 'Gym Dashboard' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/gym/dashboard');
  });

  it("bounces a client off the coach dashboard, via /login, to their own", async () => {
    const { router } = renderApp('/coach/dashboard', {
      user: makeUser({ full_name: 'Casey Client' }),
      api: dashboardApi('client', makeUser().user_id),
    });
    expect(await screen.findByRole('heading', { name: 'Welcome back, Casey!' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/client/dashboard');
  });

  it.each([
    ['admin', '/admin/dashboard'],
    ['coach', '/coach/dashboard'],
    ['gym', '/gym/dashboard'],
    ['client', '/client/dashboard'],
  ] as const)('redirects a signed-in %s visiting /login to %s', async (role, target) => {
    const { router } = renderApp('/login', { user: role, api: dashboardApi(role, makeUser().user_id) });
    await waitFor(() => expect(currentPath(router)).toBe(target));
  });

  it('removes a stored token that the server no longer accepts, silently', async () => {
    localStorage.setItem('token', 'stale');
    const { router } = renderApp('/client/dashboard', {
      api: { 'GET /auth/me': { status: 401, body: { detail: 'Token expired' } } },
    });
    await screen.findByRole('tab', { name: 'Login' });
    expect(currentPath(router)).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.queryByText('Token expired')).not.toBeInTheDocument();
  });

  it('keeps a stored token when the server could not answer for it', async () => {
    localStorage.setItem('token', 'still-good');
    renderApp('/client/dashboard', {
      api: { 'GET /auth/me': { status: 503, body: { detail: 'Courtside is busy. Please try again.' } } },
    });
    await screen.findByRole('tab', { name: 'Login' });
    expect(localStorage.getItem('token')).toBe('still-good');
  });
});
