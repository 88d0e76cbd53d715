import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import useSWR from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { mockApi } from '@/testing/mock-api';
import { makeUser } from '@/testing/test-utils';
import type { Notification } from '../api/get-notifications';
import { parseEvents } from '../api/notification-stream';
import { NotificationBell } from './notification-bell';

const REQUEST: Notification = {
  notification_id: 'aaaaaaaa-1111-4111-8111-111111111111',
  kind: 'booking_requested',
  title: 'New booking request',
  body: 'Chris Client asked to book 2030-06-05 from 17:00 to 18:00 at Austin Rec Center (America/Chicago).',
  link: '/coach/dashboard',
  created_at: new Date().toISOString(),
  read_at: null,
};
const WELCOME: Notification = {
  notification_id: 'bbbbbbbb-2222-4222-8222-222222222222',
  kind: 'welcome',
  title: 'Welcome to Courtside',
  body: 'Hi Carla, your coach account is ready.',
  link: '/coach/dashboard',
  created_at: '2030-01-01T00:00:00.000Z',
  read_at: '2030-01-01T00:01:00.000Z',
};

/** A stream the test writes events into. */
function controllableStream() {
  let push: (text: string) => void = () => undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const encoder = new TextEncoder();
      push = (text) => controller.enqueue(encoder.encode(text));
    },
  });
  return { body, push: (text: string) => push(text) };
}

/** A list the live stream should refresh: reads /bookings. */
function Bookings() {
  const { data } = useSWR<{ booking_id: string }[]>('/bookings');
  return <p>{`${data?.length ?? 0} bookings`}</p>;
}

function renderBell(api: Record<string, unknown>, stream = controllableStream()) {
  localStorage.setItem('token', 'test-token');
  const mocks = mockApi({
    'GET /auth/me': makeUser({ role: 'coach' }),
    'GET /bookings': [],
    'GET /notifications/preferences': { email_bookings: true, email_reminders: true, email_account: true, email_messages: true },
    ...api,
  });
  const mockedFetch = mocks.fetchMock;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/api/notifications/stream')) {
        return new Response(stream.body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
      }
      return mockedFetch(input, init);
    }),
  );
  const router = createMemoryRouter(
    [
      {
        path: '/coach/dashboard',
        element: (
          <>
            <NotificationBell />
            <Bookings />
          </>
        ),
      },
      { path: '/elsewhere', element: <p>Elsewhere</p> },
    ],
    { initialEntries: ['/coach/dashboard'] },
  );
  render(
    <AppProvider swr={{ dedupingInterval: 0 }}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...mocks, stream, router, user: userEvent.setup() };
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the notification bell', () => {
  it('shows the unread count and lists the notifications, newest first', async () => {
    const { user } = renderBell({
      'GET /notifications/unread-count': { count: 1 },
      'GET /notifications': [REQUEST, WELCOME],
    });
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });

    await user.click(bell);

    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    const items = within(panel).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]).getByText('New booking request')).toBeInTheDocument();
    expect(within(items[0]).getByText(/Unread/)).toBeInTheDocument();
    expect(within(items[1]).getByText('Welcome to Courtside')).toBeInTheDocument();
  });

  it('marks all read', async () => {
    let unread = 1;
    const { user, calls } = renderBell({
      'GET /notifications/unread-count': () => ({ count: unread }),
      'GET /notifications': () => (unread ? [REQUEST, WELCOME] : [{ ...REQUEST, read_at: WELCOME.read_at }, WELCOME]),
      'POST /notifications/read-all': () => {
        unread = 0;
        return { status: 204 };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });

    await user.click(await within(panel).findByRole('button', { name: 'Mark all read' }));

    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/notifications/read-all')).toBe(true);
    expect(within(panel).queryByText(/Unread/)).not.toBeInTheDocument();
  });

  it('opens a notification: marks it read and goes to its link', async () => {
    const elsewhere = { ...REQUEST, link: '/elsewhere' };
    const { user, calls, router } = renderBell({
      'GET /notifications/unread-count': { count: 1 },
      'GET /notifications': [elsewhere, WELCOME],
      [`POST /notifications/${REQUEST.notification_id}/read`]: { status: 204 },
    });
    await user.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });

    const first = within(panel).getAllByRole('listitem')[0];
    await user.click(within(first).getAllByRole('button')[0]);

    await waitFor(() => expect(router.state.location.pathname).toBe('/elsewhere'));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.path === `/notifications/${REQUEST.notification_id}/read`)).toBe(
        true,
      ),
    );
  });

  it('toasts a pushed notification, counts it and refreshes the bookings it concerns', async () => {
    let count = 0;
    let bookings: { booking_id: string }[] = [];
    const { stream } = renderBell({
      'GET /notifications/unread-count': () => ({ count }),
      'GET /notifications': () => (count ? [REQUEST] : []),
      'GET /bookings': () => bookings,
    });
    expect(await screen.findByText('0 bookings')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();

    count = 1;
    bookings = [{ booking_id: 'b1' }];
    stream.push(`: keep-alive\n\nevent: notification\ndata: ${JSON.stringify(REQUEST)}\n\n`);

    expect(await screen.findByText('New booking request')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeInTheDocument();
    expect(await screen.findByText('1 bookings')).toBeInTheDocument();
  });
});

describe('email preferences', () => {
  it('turns a category of emails off from the panel', async () => {
    const { user, calls } = renderBell({
      'GET /notifications/unread-count': { count: 0 },
      'GET /notifications': [WELCOME],
      'GET /notifications/preferences': { email_bookings: true, email_reminders: true, email_account: true, email_messages: true },
      'PUT /notifications/preferences': (call: { body: unknown }) => call.body,
    });
    await user.click(await screen.findByRole('button', { name: 'Notifications' }));
    const choices = await screen.findByRole('group', { name: 'Email me about' });

    await user.click(within(choices).getByRole('checkbox', { name: 'Reminders' }));

    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
        email_bookings: true,
        email_reminders: false,
        email_account: true,
        email_messages: true,
      }),
    );
    expect(within(choices).getByRole('checkbox', { name: 'Reminders' })).not.toBeChecked();
  });

  it('turns the emails about unread messages off', async () => {
    const { user, calls } = renderBell({
      'GET /notifications/unread-count': { count: 0 },
      'GET /notifications': [WELCOME],
      'GET /notifications/preferences': { email_bookings: true, email_reminders: true, email_account: true, email_messages: true },
      'PUT /notifications/preferences': (call: { body: unknown }) => call.body,
    });
    await user.click(await screen.findByRole('button', { name: 'Notifications' }));
    const choices = await screen.findByRole('group', { name: 'Email me about' });

    await user.click(within(choices).getByRole('checkbox', { name: 'Messages' }));

    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ email_messages: false, email_bookings: true }),
    );
  });
});

describe('reading the stream', () => {
  it('splits named events and skips comments, keeping an unfinished event for later', () => {
    const { events, rest } = parseEvents(': connected\n\nevent: notification\ndata: {"a":1}\n\ndata: par');
    expect(events).toEqual([{ event: 'notification', data: '{"a":1}' }]);
    expect(rest).toBe('data: par');
  });
});
