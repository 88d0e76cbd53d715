import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { MIN_PASSWORD_LENGTH } from './create-user';
import { adminUserKey } from './get-user';
import { refreshUsersAndStats } from './refresh';
import type { Schemas } from '@/lib/api-types';
import type { Role, User } from './types';

/** What the edit form holds. */
export interface EditUserForm {
  full_name: string;
  email: string;
  phone: string;
  role: Role;
  password: string;
}

/** Only the fields that changed; `phone: null` clears it. */
export type UserChanges = Omit<Schemas['UpdateUserBody'], 'role'> & { role?: Role };

/**
 * SPEC §5 "Admin edit user": only changed fields, an empty phone as null, and the password only
 * at 6 or more characters (a shorter one is left out; the form shows the hint).
 */
export function userChanges(user: User, form: EditUserForm): UserChanges {
  const changes: UserChanges = {};
  if (form.full_name !== user.full_name) changes.full_name = form.full_name;
  if (form.email !== user.email) changes.email = form.email;
  const phone = form.phone.trim() ? form.phone : null;
  if (phone !== (user.phone || null)) changes.phone = phone;
  if (form.role !== user.role) changes.role = form.role;
  if (form.password.length >= MIN_PASSWORD_LENGTH) changes.password = form.password;
  return changes;
}

/** PUT /api/admin/users/{id} with only the changed fields. */
export async function updateUser(userId: string, changes: UserChanges) {
  const updated = await api.put<User>(adminUserKey(userId), changes);
  await Promise.all([refreshUsersAndStats(), mutate(adminUserKey(userId))]);
  return updated;
}
