import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { NOTIFICATIONS_KEY, UNREAD_COUNT_KEY, type Notification } from './get-notifications';

const now = () => new Date().toISOString();

/** POST /api/notifications/{id}/read, shown read at once (rolled back if it fails). */
export async function markNotificationRead(notificationId: string) {
  await mutate<Notification[]>(
    NOTIFICATIONS_KEY,
    async (list) => {
      await api.post<void>(`/notifications/${encodeURIComponent(notificationId)}/read`);
      return list;
    },
    {
      optimisticData: (list) =>
        (list ?? []).map((n) => (n.notification_id === notificationId && !n.read_at ? { ...n, read_at: now() } : n)),
      rollbackOnError: true,
      populateCache: false,
      revalidate: true,
    },
  );
  await mutate(UNREAD_COUNT_KEY);
}

/** POST /api/notifications/read-all, shown read at once (rolled back if it fails). */
export async function markAllNotificationsRead() {
  await mutate<Notification[]>(
    NOTIFICATIONS_KEY,
    async (list) => {
      await api.post<void>('/notifications/read-all');
      return list;
    },
    {
      optimisticData: (list) => (list ?? []).map((n) => (n.read_at ? n : { ...n, read_at: now() })),
      rollbackOnError: true,
      populateCache: false,
      revalidate: true,
    },
  );
  await mutate(UNREAD_COUNT_KEY, { count: 0 }, { revalidate: true });
}
