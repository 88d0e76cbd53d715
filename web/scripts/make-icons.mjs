// Renders the home-screen icons (web/public/icons/*.png) from their SVGs with Chromium, the
// browser the e2e suite drives: `node scripts/make-icons.mjs` after changing an SVG.
import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const icons = fileURLToPath(new URL('../public/icons/', import.meta.url));
const renders = [
  ['icon.svg', 'icon-192.png', 192],
  ['icon.svg', 'icon-512.png', 512],
  ['icon-maskable.svg', 'icon-maskable-192.png', 192],
  ['icon-maskable.svg', 'icon-maskable-512.png', 512],
  // iOS rounds the corners itself: the full-bleed square.
  ['icon-maskable.svg', 'apple-touch-icon.png', 180],
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage();
for (const [svg, png, size] of renders) {
  await page.setViewportSize({ width: size, height: size });
  const markup = readFileSync(icons + svg, 'utf8').replace('<svg ', `<svg width="${size}" height="${size}" `);
  await page.setContent(`<body style="margin:0;background:transparent">${markup}</body>`);
  await page.screenshot({ path: icons + png, omitBackground: true });
  console.log(`${png} ${size}x${size}`);
}
await browser.close();
