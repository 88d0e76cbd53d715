import { api } from '@/lib/api-client';
import { refreshUsersAndStats } from './refresh';
import type { Complete, Schemas } from '@/lib/api-types';
import { MIN_PASSWORD_LENGTH, SHORT_PASSWORD } from '@/lib/password';
import type { Role, User } from './types';

/** What the create form sends: every field, a role always chosen. */
export type CreateUserInput = Complete<Omit<Schemas['CreateUserBody'], 'role'>> & { role: Role };

export { MIN_PASSWORD_LENGTH };

/** SPEC §5 "Admin create user": the message to show, or null when the input may be sent. */
export function createUserProblem(input: CreateUserInput): string | null {
  if (!input.email.trim() || !input.password || !input.full_name.trim()) {
    return 'Email, password, and full name are required';
  }
  if (input.password.length < MIN_PASSWORD_LENGTH) return SHORT_PASSWORD;
  return null;
}

/** POST /api/admin/users. */
export async function createUser(input: CreateUserInput) {
  const created = await api.post<User>('/admin/users', input);
  await refreshUsersAndStats();
  return created;
}
