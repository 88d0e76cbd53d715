import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';

/** One notification of the signed-in person's inbox. */
export type Notification = Complete<Schemas['Notification']>;

/** The bell's list: the newest 50 (GET /api/notifications pages by 50). */
export const NOTIFICATIONS_KEY = '/notifications';
export const UNREAD_COUNT_KEY = '/notifications/unread-count';

/** GET /api/notifications: the newest page of the inbox, newest first. */
export const getNotifications = () => api.get<Notification[]>(NOTIFICATIONS_KEY);

/** GET /api/notifications/unread-count. */
export const getUnreadCount = () => api.get<{ count: number }>(UNREAD_COUNT_KEY);

/** The inbox the bell's panel lists; read only once the panel opens (`enabled`). */
export function useNotifications(enabled: boolean) {
  return useSWR<Notification[]>(enabled ? NOTIFICATIONS_KEY : null, getNotifications, {
    revalidateOnFocus: false,
  });
}

/** The bell's count. The live stream refreshes it; a slow poll covers a stream that cannot open. */
export function useUnreadCount() {
  return useSWR<{ count: number }>(UNREAD_COUNT_KEY, getUnreadCount, {
    refreshInterval: 120_000,
    shouldRetryOnError: false,
  });
}
