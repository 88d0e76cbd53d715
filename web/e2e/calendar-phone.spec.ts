import { expect, test } from '@playwright/test';
import { registerViaApi } from './support/api';
import { expectGoodScreen } from './support/screen';
import { signIn } from './support/session';

/**
 * "Subscribe to my calendar" on a phone (the phone-360 and phone-390 projects): the dialog with
 * the link and its reset confirmation fit the screen, read well, and work by tapping.
 */
test('a coach opens their calendar link and its reset confirmation on a phone', async ({ page, request }) => {
  const coach = await registerViaApi(request, 'coach');
  await signIn(page, coach);
  await page.goto('/coach/dashboard');

  await page.getByRole('button', { name: 'Subscribe to my calendar' }).tap();
  const dialog = page.getByRole('dialog', { name: 'Subscribe to my calendar' });
  await expect(dialog.getByRole('textbox', { name: 'Calendar link' })).toHaveValue(/\.ics$/);
  await expect(dialog.getByRole('button', { name: 'Copy Link' })).toBeVisible();
  await expectGoodScreen(page, "the coach's calendar link on a phone");

  await dialog.getByRole('button', { name: 'Reset Link' }).tap();
  const confirm = page.getByRole('dialog', { name: 'Reset your calendar link?' });
  await expect(confirm.getByRole('button', { name: 'Keep Current Link' })).toBeVisible();
  await expectGoodScreen(page, 'the reset confirmation on a phone');
  await confirm.getByRole('button', { name: 'Keep Current Link' }).tap();
  await expect(dialog.getByRole('button', { name: 'Copy Link' })).toBeVisible();
});
