import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';

/** What a reset answers: the account's email, to sign in with. */
export type PasswordReset = Complete<Schemas['PasswordReset']>;

/** POST /api/auth/reset-password: the new password, with the emailed link's token. */
export const resetPassword = (token: string, password: string) =>
  api.post<PasswordReset>('/auth/reset-password', { token, password });
