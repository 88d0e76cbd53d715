/**
 * GET /api/notifications/stream: Server-Sent Events read with `fetch` (an `EventSource` cannot
 * send the bearer token), parsed here. Each `notification` event's data is one notification; each
 * `message` event's a new message of one of the person's conversations (issue 36).
 */
import { env } from '@/config/env';
import { getToken } from '@/lib/api-client';
import type { Notification } from './get-notifications';

export interface StreamHandlers {
  /** The stream is open: what was announced while it was closed is only in the inbox. */
  onOpen: () => void;
  onNotification: (notification: Notification) => void;
  /** A `message` event: `{conversation_id, message}` (the Messages page's shape). */
  onMessage?: (event: LiveMessage) => void;
}

/** A `message` event's data, as far as the stream needs it (the Messages page owns the shape). */
export interface LiveMessage {
  conversation_id: string;
  message: { message_id: string; body: string; mine: boolean; sender: { full_name: string } };
}

/** One SSE event: its name (default "message") and its data lines joined. */
interface ServerEvent {
  event: string;
  data: string;
}

/** Splits complete SSE events off `buffer`; returns them and what remains. */
export function parseEvents(buffer: string): { events: ServerEvent[]; rest: string } {
  const events: ServerEvent[] = [];
  const blocks = buffer.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length) events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}

/** Reads one connection until it ends; true when it should be opened again. */
async function readOnce(handlers: StreamHandlers, signal: AbortSignal): Promise<boolean> {
  const token = getToken();
  if (!token) return false;
  const response = await fetch(`${env.apiBase}/notifications/stream`, {
    headers: { Accept: 'text/event-stream', Authorization: `Bearer ${token}` },
    signal,
  });
  // A 4xx (signed out, no such route) will not fix itself; a 429 or 5xx may.
  if (!response.ok) return response.status === 429 || response.status >= 500;
  if (!response.body) return false;
  handlers.onOpen();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return true;
    buffer += decoder.decode(value, { stream: true });
    const { events, rest } = parseEvents(buffer);
    buffer = rest;
    for (const e of events) {
      try {
        if (e.event === 'notification') handlers.onNotification(JSON.parse(e.data) as Notification);
        else if (e.event === 'message') handlers.onMessage?.(JSON.parse(e.data) as LiveMessage);
      } catch {
        // A malformed event is skipped; the inbox (or the thread) still has it.
      }
    }
  }
}

/** Keeps the stream open (reconnecting with a back-off) until `signal` aborts. */
export async function followNotifications(handlers: StreamHandlers, signal: AbortSignal) {
  let backoff = 1000;
  while (!signal.aborted) {
    let again: boolean;
    try {
      again = await readOnce(handlers, signal);
      backoff = 1000;
    } catch {
      again = !signal.aborted;
    }
    if (!again || signal.aborted) return;
    await new Promise((resolve) => setTimeout(resolve, backoff));
    backoff = Math.min(backoff * 2, 30_000);
  }
}
