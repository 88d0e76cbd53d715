// The bench's Chromium step (issue 20): how long after navigation a person sees the first rows of
// the admin dashboard (the users table) and of /expert-coaches (the coach cards), on the bench's
// data set, in Debian's Chromium through the bench's nginx. Each page is opened three times in a
// new browser context (nothing cached, as a new visitor), the admin signed in beforehand (the
// token in localStorage, as the app keeps it) so sign-in is not counted. Printed and written as
// JSON, never asserted.
//
//   node deploy/bench/first_rows.mjs BASE_URL ADMIN_TOKEN OUT.json
//
// Playwright comes from web/node_modules (the web build's npm ci); CHROMIUM_PATH (/usr/bin/chromium).
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', '..', 'web', 'package.json'));
const { chromium } = require('@playwright/test');

const [base, adminToken, out] = process.argv.slice(2);
if (!base || !adminToken || !out) {
  console.error('usage: node deploy/bench/first_rows.mjs BASE_URL ADMIN_TOKEN OUT.json');
  process.exit(2);
}
const RUNS = 3;

const PAGES = [
  {
    key: 'admin_dashboard',
    path: '/admin/dashboard',
    token: adminToken,
    // A user's row: one with its Edit button (the loading and empty rows have none).
    first: 'table[aria-label="Users"] tbody tr button[aria-label^="Edit "]',
    rows: 'table[aria-label="Users"] tbody tr',
  },
  {
    key: 'expert_coaches',
    path: '/expert-coaches',
    token: null,
    first: '[data-testid="coach-card"]',
    rows: '[data-testid="coach-card"]',
  },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const results = {};
try {
  for (const page of PAGES) {
    const runs = [];
    for (let run = 0; run < RUNS; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      if (page.token) {
        await context.addInitScript((token) => window.localStorage.setItem('token', token), page.token);
      }
      const tab = await context.newPage();
      await tab.goto(base + page.path, { waitUntil: 'commit' });
      // Milliseconds from the navigation's start (performance.now()'s origin) to the first frame
      // with a row in it, taken in the page.
      const handle = await tab.waitForFunction(
        (selector) => (document.querySelector(selector) ? performance.now() : null),
        page.first,
        { polling: 'raf', timeout: 60_000 },
      );
      const firstRowMs = await handle.jsonValue();
      const rowsInDom = await tab.locator(page.rows).count();
      runs.push({ first_row_ms: Math.round(firstRowMs), rows_in_dom: rowsInDom });
      await context.close();
    }
    const sorted = runs.map((r) => r.first_row_ms).sort((a, b) => a - b);
    results[page.key] = { path: page.path, runs, median_first_row_ms: sorted[Math.floor(sorted.length / 2)] };
    console.log(
      `${page.path}: first row ${results[page.key].median_first_row_ms} ms after navigation (median of ${RUNS}; ` +
        `runs ${sorted.join(', ')} ms), ${runs.at(-1).rows_in_dom} rows in the DOM`,
    );
  }
} finally {
  await browser.close();
}
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
