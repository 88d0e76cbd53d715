import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentPath, renderApp } from '@/testing/test-utils';

// The pages are lazy chunks: on a busy machine the first render of one can take seconds.
const LAZY = { timeout: 15_000 };

const TOKEN = 'Vx2V0F6n4yJ1bq9Hc0wYt3ZpR8sLmN5aQeK7uDfGhIj';

describe('a forgotten password', { timeout: 60_000 }, () => {
  it('the login page links to asking for a reset link, which says the same for any email', async () => {
    const { user, calls, router } = renderApp('/login', {
      api: { 'POST /auth/forgot-password': { status: 202 } },
    });
    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }, LAZY));
    await waitFor(() => expect(currentPath(router)).toBe('/forgot-password'), LAZY);

    await user.type(await screen.findByLabelText('Email', undefined, LAZY), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Email me a reset link' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      'If an account exists for ann@example.com, we have emailed it a link',
    );
    expect(calls.find((c) => c.path === '/auth/forgot-password')?.body).toEqual({ email: 'ann@example.com' });
  });

  it('the reset page changes the password with the link’s token, then goes to the login page', async () => {
    const { user, calls, router } = renderApp(`/reset-password?token=${TOKEN}`, {
      api: { 'POST /auth/reset-password': { email: 'ann@example.com' } },
    });
    await user.type(await screen.findByLabelText('New password', undefined, LAZY), 'brand-new-pw');
    await user.type(screen.getByLabelText('Confirm new password'), 'brand-new-pw');

    await user.click(screen.getByRole('button', { name: 'Change password' }));

    await waitFor(() => expect(currentPath(router)).toBe('/login'), LAZY);
    expect(calls.find((c) => c.path === '/auth/reset-password')?.body).toEqual({
      token: TOKEN,
      password: 'brand-new-pw',
    });
    expect(await screen.findByText('Password changed. Sign in with your new password.')).toBeInTheDocument();
  });

  it('shows why a used or expired link does not work, and refuses a short or mistyped password first', async () => {
    const { user, calls } = renderApp(`/reset-password?token=${TOKEN}`, {
      api: {
        'POST /auth/reset-password': {
          status: 400,
          body: { detail: 'This password reset link is invalid, was already used or has expired. Ask for a new one.' },
        },
      },
    });
    const password = await screen.findByLabelText('New password', undefined, LAZY);
    await user.type(password, 'abc');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Use at least 6 characters.');
    await user.type(password, 'defgh');
    await user.type(screen.getByLabelText('Confirm new password'), 'abcdefgX');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The two passwords differ.');
    expect(calls.some((c) => c.path === '/auth/reset-password')).toBe(false);

    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'abcdefgh');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('was already used or has expired');
  });
});
