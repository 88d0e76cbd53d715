import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests against the running mesh (nginx + gateway + services) at BASE_URL, driving
 * Debian's Chromium: Playwright never downloads a browser of its own here.
 */
const baseURL = process.env.BASE_URL ?? 'http://127.0.0.1:8080';
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A touch phone in Chromium's mobile emulation, `width`×`height` CSS px. */
function phone(width: number, height: number, deviceScaleFactor: number) {
  return {
    ...devices['Pixel 7'],
    viewport: { width, height },
    screen: { width, height },
    deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
    channel: undefined,
  };
}

// The phone projects run the journeys of phone.spec.ts by touch; the desktop project the rest.
const PHONE_SPECS = /phone\.spec\.ts$/;

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  // Two cores, shared: one browser at a time keeps the mesh and the machine responsive.
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined }, testIgnore: PHONE_SPECS },
    { name: 'phone-360', use: phone(360, 740, 2), testMatch: PHONE_SPECS },
    { name: 'phone-390', use: phone(390, 844, 3), testMatch: PHONE_SPECS },
  ],
});
