/** Money in the browser (issue 33): a card added through Stripe's card element, which on the
 * test mesh is localstripe's Stripe.js mock (served at /stripe/js.stripe.com/v3/ by nginx). */
import { expect, type Page } from '@playwright/test';

/** localstripe's test cards: one that saves and charges, one it refuses to save. */
export const GOOD_CARD = '4242424242424242';
export const DECLINED_CARD = '4000000000000002';

/**
 * On the client's dashboard: "Add Card", the card's number, expiry (12/34), CVC and ZIP typed
 * into the card element (localstripe's mock renders five plain inputs named by placeholder), then
 * "Save Card".
 */
export async function addCardViaUi(page: Page, number = GOOD_CARD) {
  await page.getByRole('button', { name: 'Add Card' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a card' });
  await fillCardElement(page, number);
  await dialog.getByRole('button', { name: 'Save Card' }).click();
  return dialog;
}

/** Types a card into the card element on screen. */
export async function fillCardElement(page: Page, number = GOOD_CARD) {
  const element = page.getByTestId('card-element');
  await expect(element.getByPlaceholder('number')).toBeVisible();
  await element.getByPlaceholder('number').fill(number);
  await element.getByPlaceholder('exp_month').fill('12');
  await element.getByPlaceholder('exp_year').fill('34');
  await element.getByPlaceholder('cvc').fill('123');
  await element.getByPlaceholder('postal_code').fill('78701');
}
