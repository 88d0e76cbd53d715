/**
 * What every screen must be, checked where it is shown: free of WCAG 2.1 A/AA violations (axe-core)
 * and, on a phone, no wider than the screen, with every open dialog inside it.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** axe-core's rules for WCAG 2.0 and 2.1, levels A and AA. */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** axe finds no WCAG 2.1 A/AA violation on what `page` shows now; `what` names it in a failure. */
export async function expectAccessible(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  const found = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join('\n  ')}`,
  );
  expect(found, `axe on ${what}`).toEqual([]);
}

/**
 * Nothing pans sideways: the page is exactly as wide as the screen, and every open dialog (sheet
 * or menu) lies wholly inside the screen.
 */
export async function expectFitsScreen(page: Page, what: string) {
  const fit = await page.evaluate(() => ({
    screen: { width: window.innerWidth, height: window.innerHeight },
    scrollWidth: document.documentElement.scrollWidth,
    dialogs: Array.from(document.querySelectorAll('[role="dialog"], [role="alertdialog"]')).map((el) => {
      const r = el.getBoundingClientRect();
      return { name: el.getAttribute('aria-labelledby') ?? el.id, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    }),
  }));
  expect(fit.scrollWidth, `page width of ${what}`).toBe(fit.screen.width);
  for (const d of fit.dialogs) {
    const inside =
      d.left >= 0 && d.top >= 0 && d.right <= fit.screen.width + 0.5 && d.bottom <= fit.screen.height + 0.5;
    expect(inside, `dialog of ${what} at ${JSON.stringify(d)} inside ${JSON.stringify(fit.screen)}`).toBe(true);
  }
}

/** Both checks on a screen or an open dialog, once the page has stopped moving. */
export async function expectGoodScreen(page: Page, what: string) {
  // Dialogs slide in: measure where they come to rest (spinners turn for ever, so they do not count).
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
  await expectFitsScreen(page, what);
  await expectAccessible(page, what);
}
