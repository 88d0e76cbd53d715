import { expect, test } from '@playwright/test';
import { coachWithWeeklySlot, registerViaApi } from './support/api';
import { fillCardElement } from './support/payments';
import { expectGoodScreen } from './support/screen';
import { signIn } from './support/session';

/**
 * Money on a phone (the phone-360 and phone-390 projects, by touch): the Payment methods card,
 * Stripe's card element in its dialog, a saved card, and the booking dialog's price, card and
 * what will happen fit the screen and read well.
 */
test('a client adds a card and reads a paid booking’s terms on a phone', async ({ page, request }) => {
  const client = await registerViaApi(request, 'client', undefined, { card: false });
  const { coach } = await coachWithWeeklySlot(request, 'Thursday');
  await signIn(page, client);

  await page.goto('/client/dashboard#payment-methods');
  await expect(page.getByText('No cards yet. Add one to book paid sessions.')).toBeVisible();
  await expectGoodScreen(page, 'the Payment methods card, empty');
  await page.getByRole('button', { name: 'Add Card' }).tap();
  const dialog = page.getByRole('dialog', { name: 'Add a card' });
  await fillCardElement(page);
  await expectGoodScreen(page, 'the Add a card dialog');
  await dialog.getByRole('button', { name: 'Save Card' }).tap();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('payment-method')).toContainText('Visa •••• 4242');
  await page.getByTestId('payment-method').scrollIntoViewIfNeeded();
  await expectGoodScreen(page, 'the Payment methods card with a card');

  await page.goto(`/coach/${coach.user.user_id}`);
  await page.getByTestId('slot').first().getByRole('button', { name: 'Book This Slot' }).tap();
  const booking = page.getByRole('dialog', { name: 'Confirm Your Booking' });
  await expect(booking.getByTestId('booking-card')).toHaveText('Card: Visa •••• 4242');
  await booking.getByRole('region', { name: 'Payment' }).scrollIntoViewIfNeeded();
  await expectGoodScreen(page, 'the booking dialog with its payment');
});
