import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { dashboardApi } from '@/testing/dashboards';
import { currentPath, makeUser, renderApp } from '@/testing/test-utils';

describe('the login page', () => {
  it('opens on the Login tab with required email and password', async () => {
    renderApp('/login');
    const loginTab = await screen.findByRole('tab', { name: 'Login' });
    expect(loginTab).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('switches to the Register form with its fields and a client default role', async () => {
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('tab', { name: 'Register' }));
    expect(screen.getByLabelText('Full Name')).toBeRequired();
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Phone (Optional)')).not.toBeRequired();
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.getByRole('combobox', { name: 'I am a...' })).toHaveTextContent('Client');
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeInTheDocument();
  });

  it('does not call the server when required fields are empty', async () => {
    const { user, calls } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(calls.filter((c) => c.path === '/auth/login')).toHaveLength(0);
  });

  it('signs a coach in, welcomes them and lands on the coach dashboard', async () => {
    const coach = makeUser({ role: 'coach', full_name: 'Cora Coach' });
    const { user, router, calls } = renderApp('/login', {
      api: dashboardApi('coach', coach.user_id, { 'POST /auth/login': { token: 'tok', user: coach } }),
    });
    await user.type(await screen.findByLabelText('Email'), 'cora@example.com');
    await user.type(screen.getByLabelText('Password'), 'Courtside-fixture-2026');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Welcome back!')).toBeInTheDocument();
    await waitFor(() => expect(currentPath(router)).toBe('/coach/dashboard'));
    expect(localStorage.getItem('token')).toBe('tok');
    expect(calls.find((c) => c.path === '/auth/login')?.body).toEqual({
      email: 'cora@example.com',
      password: 'Courtside-fixture-2026',
    });
    expect(await screen.findByText('Cora Coach')).toBeInTheDocument();
  });

  it("shows the server's reason when login fails", async () => {
    const { user } = renderApp('/login', {
      api: { 'POST /auth/login': { status: 401, body: { detail: 'Invalid email or password' } } },
    });
    await user.type(await screen.findByLabelText('Email'), 'x@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
  });

  it('falls back to "Login failed" when the server gives no reason', async () => {
    const { user } = renderApp('/login', { api: { 'POST /auth/login': { status: 500 } } });
    await user.type(await screen.findByLabelText('Email'), 'x@example.com');
    await user.type(screen.getByLabelText('Password'), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
  });

  it('registers a gym with phone null when left empty and lands on the gym dashboard', async () => {
    const gym = makeUser({ role: 'gym', full_name: 'Hoops Arena' });
    const { user, router, calls } = renderApp('/login', {
      api: dashboardApi('gym', gym.user_id, { 'POST /auth/register': { status: 201, body: { token: 'tok', user: gym } } }),
    });
    await user.click(await screen.findByRole('tab', { name: 'Register' }));
    await user.type(screen.getByLabelText('Full Name'), 'Hoops Arena');
    await user.type(screen.getByLabelText('Email'), 'arena@example.com');
    await user.type(screen.getByLabelText('Password'), 'Courtside-fixture-2026');
    await user.click(screen.getByRole('combobox', { name: 'I am a...' }));
    await user.click(await screen.findByRole('option', { name: 'Gym' }));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Account created successfully!')).toBeInTheDocument();
    await waitFor(() => expect(currentPath(router)).toBe('/gym/dashboard'));
    expect(calls.find((c) => c.path === '/auth/register')?.body).toEqual({
      full_name: 'Hoops Arena',
      email: 'arena@example.com',
      phone: null,
      password: 'Courtside-fixture-2026',
      role: 'gym',
    });
  });

  it('falls back to "Registration failed"', async () => {
    const { user } = renderApp('/login', { api: { 'POST /auth/register': { status: 503 } } });
    await user.click(await screen.findByRole('tab', { name: 'Register' }));
    await user.type(screen.getByLabelText('Full Name'), 'A B');
    await user.type(screen.getByLabelText('Email'), 'ab@example.com');
    await user.type(screen.getByLabelText('Password'), 'Courtside-fixture-2026');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Registration failed')).toBeInTheDocument();
  });
});
