import * as React from 'react';
import { toast } from 'sonner';
import { mutate } from 'swr';
import { useNavigate } from 'react-router-dom';
import { NOTIFICATIONS_KEY, UNREAD_COUNT_KEY, type Notification } from './get-notifications';
import { followNotifications } from './notification-stream';

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

/** Follows the live stream while mounted: each new notification is toasted, the bell's count
 * and list refresh, and so do the lists it concerns. */
export function useLiveNotifications() {
  const navigate = useNavigate();
  React.useEffect(() => {
    const controller = new AbortController();
    void followNotifications(
      {
        onOpen: () => {
          void mutate(UNREAD_COUNT_KEY);
          void mutate(NOTIFICATIONS_KEY);
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
      },
      controller.signal,
    );
    return () => controller.abort();
  }, [navigate]);
}
