import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentPath, renderApp } from '@/testing/test-utils';

// The pages are lazy chunks: on a busy machine the first render of one can take seconds.
const LAZY = { timeout: 15_000 };

const TOKEN = 'Vx2V0F6n4yJ1bq9Hc0wYt3ZpR8sLmN5aQeK7uDfGhIj';
const NEW_PASSWORD = 'Courtside-renewed-2026';

describe('a forgotten password', { timeout: 60_000 }, () => {
  it('the login page links to asking for a reset link, which says the same for any email', async () => {
    const { user, calls, router } = renderApp('/login', {
      api: { 'POST /auth/forgot-password': { status: 202 } },
    });
    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }, LAZY));
    await waitFor(() => expect(currentPath(router)).toBe('/forgot-password'), LAZY);

    // The forgot-password page is lazy: wait for its own button, so the Email field typed into is
    // its field and not the login page's on its way out.
    const send = await screen.findByRole('button', { name: 'Email me a reset link' }, LAZY);
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.click(send);

    expect(await screen.findByRole('status')).toHaveTextContent(
      'If an account exists for ann@example.com, we have emailed it a link',
    );
    expect(calls.find((c) => c.path === '/auth/forgot-password')?.body).toEqual({ email: 'ann@example.com' });
  });

  it('the reset page takes the token from the link’s fragment, drops it from the address, changes the password and goes to the login page', async () => {
    const { user, calls, router } = renderApp(`/reset-password#token=${TOKEN}`, {
      api: { 'POST /auth/reset-password': { email: 'ann@example.com' } },
    });
    const password = await screen.findByLabelText('New password', undefined, LAZY);
    await waitFor(() => expect(router.state.location.hash).toBe(''));
    expect(router.state.location.pathname).toBe('/reset-password');
    expect(router.state.location.search).toBe('');

    await user.type(password, NEW_PASSWORD);
    await user.type(screen.getByLabelText('Confirm new password'), NEW_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    await waitFor(() => expect(currentPath(router)).toBe('/login'), LAZY);
    expect(calls.find((c) => c.path === '/auth/reset-password')?.body).toEqual({
      token: TOKEN,
      password: NEW_PASSWORD,
    });
    expect(await screen.findByText('Password changed. Sign in with your new password.')).toBeInTheDocument();
  });

  it('a link mailed before, with ?token=, still works and leaves the address too', async () => {
    const { user, calls, router } = renderApp(`/reset-password?token=${TOKEN}`, {
      api: { 'POST /auth/reset-password': { email: 'ann@example.com' } },
    });
    const password = await screen.findByLabelText('New password', undefined, LAZY);
    await waitFor(() => expect(router.state.location.search).toBe(''));

    await user.type(password, NEW_PASSWORD);
    await user.type(screen.getByLabelText('Confirm new password'), NEW_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    await waitFor(() => expect(currentPath(router)).toBe('/login'), LAZY);
    expect(calls.find((c) => c.path === '/auth/reset-password')?.body).toEqual({
      token: TOKEN,
      password: NEW_PASSWORD,
    });
  });

  it('shows why a used or expired link does not work, and refuses a short or mistyped password first', async () => {
    const { user, calls } = renderApp(`/reset-password#token=${TOKEN}`, {
      api: {
        'POST /auth/reset-password': {
          status: 400,
          body: { detail: 'This password reset link is invalid, was already used or has expired. Ask for a new one.' },
        },
      },
    });
    const password = await screen.findByLabelText('New password', undefined, LAZY);
    expect(screen.getByText(/At least 10 characters that are not easy to guess/)).toBeInTheDocument();
    await user.type(password, 'Courtside');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Password must be at least 10 characters.');
    await user.type(password, '-renewed');
    await user.type(screen.getByLabelText('Confirm new password'), 'Courtside-renewex');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The two passwords differ.');
    expect(calls.some((c) => c.path === '/auth/reset-password')).toBe(false);

    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'Courtside-renewed');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('was already used or has expired');
  });

  it('a page opened without a token asks for a new link', async () => {
    renderApp('/reset-password');
    expect(await screen.findByRole('link', { name: 'Ask for a new link' }, LAZY)).toBeInTheDocument();
  });
});
