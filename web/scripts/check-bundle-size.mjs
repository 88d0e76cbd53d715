// Fails when the JavaScript the landing page loads up front (the entry script and the chunks it
// preloads, as dist/index.html lists them) exceeds the budget, gzipped. Run after `vite build`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 150;
const dist = new URL('../dist/', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);

let total = 0;
for (const file of files) {
  const kb = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;
  total += kb;
  console.log(`${file.padEnd(40)} ${kb.toFixed(1)} KB gzip`);
}
console.log(`landing page JavaScript: ${total.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB)`);
if (total > BUDGET_KB) {
  console.error('Over budget: move the new dependency behind a lazy route or drop it.');
  process.exit(1);
}
