/**
 * Helpers that talk to the real /api directly (no UI), to arrange a test quickly: register a user,
 * create a coach's profile, location and slots.
 */
import { expect, type APIRequestContext } from '@playwright/test';

export type Role = 'client' | 'coach' | 'gym';

export interface User {
  user_id: string;
  email: string;
  full_name: string;
  phone: string | null;
  role: Role | 'admin';
  created_at: string;
}

export interface Session {
  token: string;
  user: User;
  password: string;
}

/** An email no other test run has used. */
export function uniqueEmail(prefix = 'user') {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 10)}@e2e.test`;
}

/** A short unique suffix for names that searches must find exactly. */
export function uniqueTag() {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export async function registerViaApi(
  request: APIRequestContext,
  role: Role,
  fullName = `E2E ${role} ${uniqueTag()}`,
): Promise<Session> {
  const password = 'e2e-password-123';
  const response = await request.post('/api/auth/register', {
    data: { email: uniqueEmail(role), password, full_name: fullName, phone: null, role },
  });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { token: string; user: User };
  return { ...body, password };
}

function auth(token: string) {
  return { Authorization: `Bearer ${token}` };
}

export async function apiPost<T>(request: APIRequestContext, token: string, path: string, data: unknown) {
  const response = await request.post(`/api${path}`, { data, headers: auth(token) });
  expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBeTruthy();
  return (await response.json()) as T;
}
