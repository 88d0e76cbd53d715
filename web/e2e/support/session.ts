/** Sign a browser page in without the form: put the token where the app looks for it. */
import type { Page } from '@playwright/test';
import type { Session } from './api';

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
