import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { adminUserKey } from './get-user';
import { refreshUsersAndStats } from './refresh';

/** DELETE /api/admin/users/{id} (never an admin: the screen offers no delete for them). */
export async function deleteUser(userId: string) {
  await api.delete(adminUserKey(userId));
  await Promise.all([refreshUsersAndStats(), mutate(adminUserKey(userId), undefined, { revalidate: false })]);
}
