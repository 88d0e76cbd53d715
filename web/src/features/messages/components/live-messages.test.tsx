import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CONVERSATION_ID, conversation, message, threadApi } from '@/testing/messages-fixtures';
import { renderApp } from '@/testing/test-utils';

/** The notifications stream, written by the test. */
function liveStream(fetchMock: typeof fetch) {
  let push: (text: string) => void = () => undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const encoder = new TextEncoder();
      push = (text) => controller.enqueue(encoder.encode(text));
    },
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
      String(input).endsWith('/api/notifications/stream')
        ? new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } })
        : fetchMock(input, init),
    ),
  );
  return (data: unknown) => push(`event: message\ndata: ${JSON.stringify(data)}\n\n`);
}

const REPLY = message({ message_id: 'm-2', body: 'Court 3 today, not court 2.', created_at: '2026-11-28T18:10:00Z', read: false });

describe('Live messages', () => {
  it('shows a new message in the open thread as it arrives, without a toast', async () => {
    let arrived = false;
    const { fetchMock } = renderApp(`/messages/${CONVERSATION_ID}`, {
      user: 'client',
      api: threadApi([message()], {}, {
        [`GET /conversations/${CONVERSATION_ID}/messages`]: () => (arrived ? [REPLY, message()] : [message()]),
        [`POST /conversations/${CONVERSATION_ID}/read`]: { status: 204 },
      }),
    });
    const send = liveStream(fetchMock);
    const thread = await screen.findByRole('list', { name: 'Messages with Carla Coach' });

    arrived = true;
    send({ conversation_id: CONVERSATION_ID, message: REPLY });

    expect(await within(thread).findByText('Court 3 today, not court 2.')).toBeInTheDocument();
    expect(screen.queryByText('New message from Carla Coach')).toBeNull();
  });

  it('toasts a message of another thread and refreshes the unread badge', async () => {
    let unread = 0;
    const { fetchMock, router } = renderApp('/messages', {
      user: 'client',
      api: {
        'GET /conversations/unread-count': () => ({ unread }),
        'GET /conversations': [conversation()],
        ...threadApi([REPLY], { unread: 1 }, { [`POST /conversations/${CONVERSATION_ID}/read`]: { status: 204 } }),
      },
    });
    const send = liveStream(fetchMock);
    await screen.findByRole('link', { name: 'Messages' });

    unread = 1;
    send({ conversation_id: CONVERSATION_ID, message: REPLY });

    expect(await screen.findByText('New message from Carla Coach')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Messages, 1 unread' })).toBeInTheDocument();
    // sonner's toast captures the pointer, which jsdom lacks: a plain click.
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/messages/${CONVERSATION_ID}`));
    expect(await screen.findByRole('list', { name: 'Messages with Carla Coach' })).toHaveTextContent('Court 3 today');
  });
});
