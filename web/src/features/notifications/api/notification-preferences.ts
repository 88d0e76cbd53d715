import useSWR, { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';

/** Which notifications the signed-in person also gets by email. */
export type NotificationPreferences = Complete<Schemas['NotificationPreferences']>;

export const PREFERENCES_KEY = '/notifications/preferences';

/** GET /api/notifications/preferences, read once the panel shows them (`enabled`). */
export function useNotificationPreferences(enabled: boolean) {
  return useSWR<NotificationPreferences>(enabled ? PREFERENCES_KEY : null, () =>
    api.get<NotificationPreferences>(PREFERENCES_KEY),
  );
}

/** PUT /api/notifications/preferences, shown at once (rolled back if it fails). */
export async function saveNotificationPreferences(preferences: NotificationPreferences) {
  await mutate<NotificationPreferences>(
    PREFERENCES_KEY,
    () => api.put<NotificationPreferences>(PREFERENCES_KEY, preferences),
    { optimisticData: preferences, rollbackOnError: true, revalidate: false },
  );
}
