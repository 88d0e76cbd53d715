import * as React from 'react';
import { toast } from 'sonner';
import { mutate } from 'swr';
import { useLocation, useNavigate } from 'react-router-dom';
import { NOTIFICATIONS_KEY, UNREAD_COUNT_KEY, type Notification } from './get-notifications';
import { followNotifications, type LiveMessage } from './notification-stream';

/** The lists (SWR keys by their path's start) each kind of notification changes on screen. */
const CONCERNED: { kind: string; paths: string[] }[] = [
  { kind: 'booking_', paths: ['/bookings'] },
  { kind: 'reservation_', paths: ['/gym/pending-reservations', '/gym/reservations', '/coach/court-reservations'] },
];

const startsWithAny = (key: unknown, paths: string[]) => {
  const path = Array.isArray(key) ? key[0] : key;
  return typeof path === 'string' && paths.some((p) => path.startsWith(p));
};

/** Reads again the lists `kind` concerns (a coach's Client Bookings, a gym's pending requests). */
export function refreshConcerned(kind: string) {
  const paths = CONCERNED.filter((c) => kind.startsWith(c.kind)).flatMap((c) => c.paths);
  if (paths.length === 0) return Promise.resolve([]);
  return mutate((key) => startsWithAny(key, paths));
}

/** The Messages page's reads (threads, a thread's messages, the unread badge) start with this. */
const CONVERSATIONS = '/conversations';

/** Reads again what a new message changes on screen: the threads, the thread's messages (paged
 * lists are keyed `[path, size]`) and the Messages badge. */
export function refreshConversations() {
  return mutate((key) => startsWithAny(key, [CONVERSATIONS]));
}

/** The path of a conversation on the Messages page (as `paths.conversation` builds it). */
const conversationPath = (conversationId: string) => `/messages/${encodeURIComponent(conversationId)}`;

/** Follows the live stream while mounted: each new notification is toasted, the bell's count
 * and list refresh, and so do the lists it concerns. A new message refreshes the Messages page's
 * reads, and is toasted unless it is the person's own or its thread is open. */
export function useLiveNotifications() {
  const navigate = useNavigate();
  const location = useLocation();
  const here = React.useRef(location.pathname);
  React.useEffect(() => {
    here.current = location.pathname;
  }, [location.pathname]);
  React.useEffect(() => {
    const controller = new AbortController();
    void followNotifications(
      {
        onOpen: () => {
          void mutate(UNREAD_COUNT_KEY);
          void mutate(NOTIFICATIONS_KEY);
          // What was said while the stream was closed.
          void refreshConversations();
        },
        onNotification: (n: Notification) => {
          toast(n.title, {
            description: n.body,
            action: { label: 'Open', onClick: () => navigate(n.link) },
          });
          void mutate(UNREAD_COUNT_KEY);
          void mutate(NOTIFICATIONS_KEY);
          void refreshConcerned(n.kind);
        },
        onMessage: ({ conversation_id, message }: LiveMessage) => {
          void refreshConversations();
          const thread = conversationPath(conversation_id);
          if (message.mine || here.current === thread) return;
          toast(`New message from ${message.sender.full_name}`, {
            id: `message-${message.message_id}`,
            description: message.body.length > 140 ? `${message.body.slice(0, 140)}…` : message.body,
            action: { label: 'Open', onClick: () => navigate(thread) },
          });
        },
      },
      controller.signal,
    );
    return () => controller.abort();
  }, [navigate]);
}
