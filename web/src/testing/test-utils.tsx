/** Render the real app (routes, guards, providers) at a path, optionally signed in. */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import type { Role, User } from '@/lib/auth';
import { mockApi, type MockResponse } from './mock-api';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    user_id: '11111111-1111-4111-8111-111111111111',
    email: 'pat@example.com',
    full_name: 'Pat Morgan',
    phone: null,
    role: 'client',
    created_at: '2025-01-01T00:00:00Z',
    ...overrides,
  };
}

interface RenderAppOptions {
  /** Signs this user in: a stored token plus GET /auth/me answering with them. */
  user?: User | Role;
  /** More mocked endpoints, as for `mockApi`: every call the screen makes beside the shell's
   * (`/auth/me`, logout and the header bell's count and stream, declared here). */
  api?: Record<string, unknown>;
}

export function renderApp(path: string, { user, api = {} }: RenderAppOptions = {}) {
  const signedIn = typeof user === 'string' ? makeUser({ role: user }) : user;
  if (signedIn) localStorage.setItem('token', 'test-token');
  const mocks = mockApi({
    ...(signedIn ? { 'GET /auth/me': signedIn } : {}),
    'POST /auth/logout': { status: 204 } satisfies MockResponse,
    // The signed-in header's bell: no unread notifications and a live stream that ends at once.
    'GET /notifications/unread-count': { count: 0 },
    'GET /notifications/stream': { status: 204 } satisfies MockResponse,
    // The header's Messages link: no unread messages.
    'GET /conversations/unread-count': { unread: 0 },
    ...api,
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const utils = render(
    <AppProvider swr={{ dedupingInterval: 0 }}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...utils, router, user: userEvent.setup(), ...mocks };
}

/** The path the app is showing now. */
export function currentPath(router: { state: { location: { pathname: string } } }) {
  return router.state.location.pathname;
}
