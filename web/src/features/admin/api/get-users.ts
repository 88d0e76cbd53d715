import useSWR from 'swr';
import { toast } from 'sonner';
import { api } from '@/lib/api-client';
import type { User } from './types';

/** GET /api/admin/users: every user (filtered on the client, SPEC §5). */
export const ADMIN_USERS_KEY = '/admin/users';

export const getUsers = () => api.get<User[]>(ADMIN_USERS_KEY);

export function useUsers() {
  return useSWR<User[]>(ADMIN_USERS_KEY, getUsers, {
    // One toast per failure, however often SWR retries (SPEC §8).
    onError: () => toast.error('Failed to load users', { id: 'admin-users-error' }),
  });
}
