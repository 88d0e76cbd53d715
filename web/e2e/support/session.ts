/** Sign a browser page in without the form: put the token where the app looks for it. */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { Session, User } from './api';
import { adminCredentialsFor } from './credentials';

export async function signIn(page: Page, session: Session) {
  // localStorage belongs to the origin, so open it first, then store the token.
  await page.goto('/');
  await page.evaluate((token) => localStorage.setItem('token', token), session.token);
}

export async function signOut(page: Page) {
  await page.evaluate(() => localStorage.removeItem('token'));
}

export const DASHBOARD_OF = {
  admin: '/admin/dashboard',
  coach: '/coach/dashboard',
  client: '/client/dashboard',
  gym: '/gym/dashboard',
} as const;

/**
 * The admin of the mesh under test (support/credentials.ts), signed in over the API; the page is
 * then signed in as them too.
 */
export async function signInAsAdmin(page: Page, request: APIRequestContext, baseURL: string | undefined) {
  const credentials = adminCredentialsFor(baseURL ?? '');
  if (!credentials) throw new Error('no admin credentials: set ADMIN_EMAIL and ADMIN_PASSWORD, or run through deploy/test.sh');
  const login = await request.post('/api/auth/login', { data: credentials });
  expect(login.status(), await login.text()).toBe(200);
  const admin: Session = { ...((await login.json()) as { token: string; user: User }), password: credentials.password };
  await signIn(page, admin);
  return admin;
}
