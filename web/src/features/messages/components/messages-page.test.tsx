import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  CONVERSATION_ID,
  COACH_ID,
  conversation,
  message,
  threadApi,
} from '@/testing/messages-fixtures';
import { currentPath, renderApp } from '@/testing/test-utils';

const THREAD = `/messages/${CONVERSATION_ID}`;

describe('Messages page', () => {
  it('lists the threads and shows the open one, oldest message first, with what the two share', async () => {
    renderApp(THREAD, {
      user: 'client',
      api: threadApi([
        message({ message_id: 'm-2', body: 'Yes, 6 pm works.', mine: true, read: true, created_at: '2026-11-28T18:05:00Z' }),
        message({ message_id: 'm-1', body: 'Can we start at 6 pm?' }),
      ]),
    });

    const list = await screen.findByRole('list', { name: 'Conversations' });
    expect(within(list).getByRole('link', { name: /Carla Coach/ })).toHaveAttribute('aria-current', 'page');
    const thread = await screen.findByRole('list', { name: 'Messages with Carla Coach' });
    const items = within(thread).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Can we start at 6 pm?');
    expect(items[1]).toHaveTextContent('Yes, 6 pm works.');
    expect(items[1]).toHaveTextContent('Read');
    expect(screen.getByRole('link', { name: /Booking, .*18:00–19:00 \(confirmed\)/ })).toHaveAttribute(
      'href',
      '/client/dashboard?booking=b-1',
    );
  });

  it('renders a message as text with its URLs as safe links, never as HTML', async () => {
    const body = '<script>window.hacked = true</script><img src=x onerror=alert(1)> map: https://gym.example.com/map.';
    renderApp(THREAD, { user: 'client', api: threadApi([message({ body })]) });

    const thread = await screen.findByRole('list', { name: 'Messages with Carla Coach' });
    expect(thread).toHaveTextContent('<script>window.hacked = true</script><img src=x onerror=alert(1)> map:');
    expect(thread.querySelector('script, img')).toBeNull();
    const link = within(thread).getByRole('link', { name: 'https://gym.example.com/map' });
    expect(link).toHaveAttribute('href', 'https://gym.example.com/map');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  });

  it('sends a message with Enter and reads the thread again', async () => {
    let sent: unknown;
    const { user, calls } = renderApp(THREAD, {
      user: 'client',
      api: threadApi([message()], {}, {
        [`POST /conversations/${CONVERSATION_ID}/messages`]: ({ body }: { body: unknown }) => {
          sent = body;
          return { status: 201, body: message({ message_id: 'm-9', body: 'On my way', mine: true, read: false }) };
        },
      }),
    });

    const box = await screen.findByRole('textbox', { name: 'Message Carla Coach' });
    await user.type(box, '  On my way {Enter}');

    await waitFor(() => expect(sent).toEqual({ body: 'On my way' }));
    await waitFor(() => expect(box).toHaveValue(''));
    const reads = calls.filter((c) => c.method === 'GET' && c.path === `/conversations/${CONVERSATION_ID}/messages`);
    await waitFor(() => expect(reads.length).toBeGreaterThan(0));
  });

  it('says the server refusal when a message is not sent (rate limit)', async () => {
    const { user } = renderApp(THREAD, {
      user: 'client',
      api: threadApi([message()], {}, {
        [`POST /conversations/${CONVERSATION_ID}/messages`]: {
          status: 429,
          body: { detail: 'You are sending messages too fast. Try again in a minute.' },
        },
      }),
    });

    await user.type(await screen.findByRole('textbox', { name: 'Message Carla Coach' }), 'Hello{Enter}');

    expect(await screen.findByText('You are sending messages too fast. Try again in a minute.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message Carla Coach' })).toHaveValue('Hello');
  });

  it('marks an unread thread read once it is open', async () => {
    let marked = 0;
    renderApp(THREAD, {
      user: 'client',
      api: threadApi([message({ read: false })], { unread: 1 }, {
        [`POST /conversations/${CONVERSATION_ID}/read`]: () => {
          marked += 1;
          return { status: 204 };
        },
      }),
    });

    await waitFor(() => expect(marked).toBe(1));
  });

  it('shows the header badge with the unread count', async () => {
    renderApp('/messages', {
      user: 'coach',
      api: { 'GET /conversations': [conversation({ unread: 3 })], 'GET /conversations/unread-count': { unread: 3 } },
    });

    expect(await screen.findByRole('link', { name: 'Messages, 3 unread' })).toBeInTheDocument();
    expect(screen.getByTestId('messages-unread-count')).toHaveTextContent('3');
    expect(await screen.findByText('Choose a conversation')).toBeInTheDocument();
  });

  it('says so when there are no conversations yet', async () => {
    renderApp('/messages', { user: 'client', api: { 'GET /conversations': [] } });

    expect(await screen.findByText('No conversations yet')).toBeInTheDocument();
    expect(screen.getByText('Message a coach from their page, or from one of your bookings.')).toBeInTheDocument();
  });

  it('says so when the conversations cannot be loaded', async () => {
    renderApp('/messages', { user: 'client', api: { 'GET /conversations': { status: 500, body: {} } } });

    expect(await screen.findByText('Conversations could not be loaded.')).toBeInTheDocument();
  });

  it('answers a thread that is not yours as not found', async () => {
    renderApp(THREAD, {
      user: 'client',
      api: {
        'GET /conversations': [],
        [`GET /conversations/${CONVERSATION_ID}`]: { status: 404, body: { detail: 'Not found' } },
      },
    });

    expect(await screen.findByText('Conversation not found')).toBeInTheDocument();
  });

  it('opens the thread with a person from a Message button (?with=)', async () => {
    let started: unknown;
    const { router } = renderApp(`/messages?with=${COACH_ID}`, {
      user: 'client',
      api: threadApi([message()], {}, {
        'POST /conversations': ({ body }: { body: unknown }) => {
          started = body;
          return { status: 201, body: conversation() };
        },
      }),
    });

    await screen.findByRole('list', { name: 'Messages with Carla Coach' });
    expect(started).toEqual({ with_user_id: COACH_ID });
    expect(currentPath(router)).toBe(THREAD);
  });

  it('says why a thread cannot be started', async () => {
    renderApp('/messages?with=someone', {
      user: 'coach',
      api: {
        'POST /conversations': {
          status: 403,
          body: { detail: 'You can message a client once they have booked with you.' },
        },
      },
    });

    expect(await screen.findByRole('alert')).toHaveTextContent('You can message a client once they have booked with you.');
    expect(screen.getByRole('link', { name: 'Back to Messages' })).toHaveAttribute('href', '/messages');
  });
});
