/** Drive the coach dashboard's dialogs the way a coach would. */
import { expect, type Page } from '@playwright/test';

export interface ProfileInput {
  bio: string;
  specialties: string;
  rate: string;
  years: string;
}

export async function createProfileViaUi(page: Page, input: ProfileInput) {
  await page.getByRole('button', { name: 'Create Profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Profile' });
  await dialog.getByLabel('Bio').fill(input.bio);
  await dialog.getByLabel('Specialties (comma-separated)').fill(input.specialties);
  await dialog.getByLabel('Hourly Rate ($)').fill(input.rate);
  await dialog.getByLabel('Years of Experience').fill(input.years);
  await dialog.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByText('Profile created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
}

export interface LocationInputUi {
  name: string;
  address: string;
  court: string;
  city: string;
  state: string;
  lat?: string;
  lng?: string;
}

export async function addLocationViaUi(page: Page, input: LocationInputUi) {
  await page.getByRole('button', { name: 'Add Location' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Location' });
  await dialog.getByLabel('Name', { exact: true }).fill(input.name);
  await dialog.getByLabel('Address').fill(input.address);
  await dialog.getByLabel('Court Number').fill(input.court);
  await dialog.getByLabel('City').fill(input.city);
  await dialog.getByLabel('State').fill(input.state);
  if (input.lat) await dialog.getByLabel('Latitude (optional)').fill(input.lat);
  if (input.lng) await dialog.getByLabel('Longitude (optional)').fill(input.lng);
  await dialog.getByRole('button', { name: 'Save Location' }).click();
  await expect(page.getByText('Location added successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
}

export interface SlotInputUi {
  kind: 'recurring' | 'one-time';
  /** Monday..Sunday, recurring only (Monday is the default). */
  day?: string;
  /** YYYY-MM-DD, one-time only. */
  date?: string;
  start: string;
  end: string;
  /** The option text "name - court_number". */
  location?: string;
}

export async function addSlotViaUi(page: Page, input: SlotInputUi) {
  await page.getByRole('button', { name: 'Add Availability' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Availability' });
  if (input.kind === 'one-time') {
    await dialog.getByRole('combobox', { name: 'Slot Type' }).click();
    await page.getByRole('option', { name: 'One-time' }).click();
    await dialog.getByLabel('Date').fill(input.date ?? '');
  } else if (input.day && input.day !== 'Monday') {
    await dialog.getByRole('combobox', { name: 'Day of Week' }).click();
    await page.getByRole('option', { name: input.day }).click();
  }
  await dialog.getByLabel('Start Time').fill(input.start);
  await dialog.getByLabel('End Time').fill(input.end);
  if (input.location) {
    await dialog.getByRole('combobox', { name: 'Location (optional)' }).click();
    await page.getByRole('option', { name: input.location }).click();
  }
  await dialog.getByRole('button', { name: 'Save Availability' }).click();
  await expect(page.getByText('Availability added successfully').first()).toBeVisible();
  await expect(dialog).toBeHidden();
}

/** A date `days` from today in the browser's own calendar, as YYYY-MM-DD. */
export async function localDateFromToday(page: Page, days: number) {
  return page.evaluate((offset) => {
    const d = new Date();
    d.setDate(d.getDate() + offset);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  }, days);
}
