import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { dashboardApi } from '@/testing/dashboards';
import { currentPath, makeUser, renderApp } from '@/testing/test-utils';

describe('the landing page', () => {
  it('offers Login and Get Started to a signed-out visitor, both to /login', async () => {
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument();
  });

  it.each([
    'Book a Session',
    'Become a Coach',
    'Host Your Courts',
    'List Your Facility',
    'Start Your Journey',
    'List Your Gym',
  ])('sends "%s" to /login', async (name) => {
    renderApp('/');
    expect(await screen.findByRole('link', { name })).toHaveAttribute('href', '/login');
  });

  it('makes only the Expert Coaches feature clickable', async () => {
    renderApp('/');
    const expert = await screen.findByRole('link', { name: /Expert Coaches/ });
    expect(expert).toHaveAttribute('href', '/expert-coaches');
    for (const title of ['Flexible Scheduling', 'Multiple Locations', 'Easy Payments']) {
      expect(screen.getByRole('heading', { name: title }).closest('a')).toBeNull();
    }
  });

  it('pitches gyms with three points and ends with the 2025 copyright', async () => {
    renderApp('/');
    for (const point of ['Maximize Court Utilization', 'Approve Every Reservation', 'Simple Management']) {
      expect(await screen.findByRole('heading', { name: point })).toBeInTheDocument();
    }
    expect(screen.getByText(/© 2025/)).toBeInTheDocument();
  });

  it('shows a coach a Dashboard button to the coach dashboard', async () => {
    renderApp('/', { user: 'coach' });
    expect(await screen.findByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/coach/dashboard');
    expect(screen.queryByRole('link', { name: 'Get Started' })).not.toBeInTheDocument();
  });

  it('sends a client from Dashboard to the client dashboard', async () => {
    const { user, router } = renderApp('/', { user: 'client', api: dashboardApi('client', makeUser().user_id) });
    await user.click(await screen.findByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(currentPath(router)).toBe('/client/dashboard'));
  });

  it('logs out from a dashboard back to the signed-out landing page', async () => {
    const { user, router, calls } = renderApp('/client/dashboard', {
      user: 'client',
      api: dashboardApi('client', makeUser().user_id),
    });
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    await waitFor(() => expect(currentPath(router)).toBe('/'));
    expect(await screen.findByRole('link', { name: 'Get Started' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/auth/logout')).toBe(true);
  });
});
