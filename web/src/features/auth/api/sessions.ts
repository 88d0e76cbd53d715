import useSWR, { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Schemas } from '@/lib/api-types';

/** A signed-in device: one sign-in's session, the current one marked. */
export type DeviceSession = Schemas['DeviceSession'];

/** GET /api/auth/sessions: the signed-in user's sessions, newest first. */
export const SESSIONS_KEY = '/auth/sessions';

export const getSessions = () => api.get<DeviceSession[]>(SESSIONS_KEY);

/** The signed-in devices; `null` key (nothing read) until `open`. */
export function useSessions(open: boolean) {
  return useSWR<DeviceSession[]>(open ? SESSIONS_KEY : null, getSessions);
}

/** DELETE /api/auth/sessions/{id}: that device is signed out at once. */
export async function endSession(sessionId: string) {
  await api.delete(`/auth/sessions/${encodeURIComponent(sessionId)}`);
  await mutate(SESSIONS_KEY);
}

/** POST /api/auth/logout-all: every other device is signed out at once; answers how many. */
export async function logoutOtherDevices() {
  const { ended } = await api.post<Schemas['Ended']>('/auth/logout-all');
  await mutate(SESSIONS_KEY);
  return ended;
}
