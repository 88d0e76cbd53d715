import useSWR from 'swr';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import type { UserDetail } from './types';

/** GET /api/admin/users/{id}: one user with their totals and, for a client, the profile. */
export const adminUserKey = (userId: string) => `/admin/users/${encodeURIComponent(userId)}`;

export const getUser = (userId: string) => api.get<UserDetail>(adminUserKey(userId));

export function useUserDetail(userId: string | null) {
  return useSWR<UserDetail>(userId ? adminUserKey(userId) : null, () => getUser(userId as string), {
    onError: () => toast.error('Failed to load user details', { id: 'admin-user-error' }),
  });
}
