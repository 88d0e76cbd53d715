#!/usr/bin/env bash
# Lighthouse on Courtside's public pages (issue 26), against a running mesh: the four category
# scores of /, /login and /expert-coaches with the mobile preset, and the cumulative layout shift
# of every public page with the mobile and the desktop preset. Printed, never asserted: the exit
# status says whether Lighthouse ran, not whether a target was met. Slow (a minute or more per
# page on two cores), so it is not part of CI.
#
#   ./deploy/up.sh && ./deploy/bench/lighthouse.sh
#
# BASE_URL (the mesh; default: the BASE_URL of deploy/.state/mesh.env, else http://127.0.0.1:8080)
# CHROMIUM_PATH (/usr/bin/chromium). The pinned lighthouse npm package is installed on first use in
# deploy/.state/lighthouse, where each run's JSON reports are kept too.
set -euo pipefail

DEPLOY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# 12.8: runs on the machine's Node 20 (13 wants Node 22); the version issue 26 measured with.
LIGHTHOUSE_VERSION=12.8.2
TOOL_DIR="$DEPLOY_DIR/.state/lighthouse"
REPORT_DIR="$TOOL_DIR/reports"
PUBLIC_PAGES=(/ /login /expert-coaches)
SCORED_PAGES=(/ /login /expert-coaches)

if [[ -z "${BASE_URL:-}" && -f "$DEPLOY_DIR/.state/mesh.env" ]]; then
  BASE_URL="$(sed -n 's/^BASE_URL=//p' "$DEPLOY_DIR/.state/mesh.env")"
fi
BASE_URL="${BASE_URL:-http://127.0.0.1:8080}"
BASE_URL="${BASE_URL%/}"
export CHROME_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
[[ -x "$CHROME_PATH" ]] || { echo "no Chromium at $CHROME_PATH (apt-get install chromium, or set CHROMIUM_PATH)" >&2; exit 1; }
curl -fsS -o /dev/null "$BASE_URL/healthz" || { echo "no Courtside answers at $BASE_URL (start one with ./deploy/up.sh)" >&2; exit 1; }

LIGHTHOUSE="$TOOL_DIR/node_modules/.bin/lighthouse"
if [[ ! -x "$LIGHTHOUSE" ]] || [[ "$("$LIGHTHOUSE" --version)" != "$LIGHTHOUSE_VERSION" ]]; then
  echo "==> installing lighthouse@$LIGHTHOUSE_VERSION in $TOOL_DIR"
  mkdir -p "$TOOL_DIR"
  [[ -f "$TOOL_DIR/package.json" ]] || echo '{"private": true}' >"$TOOL_DIR/package.json"
  npm install --prefix "$TOOL_DIR" --no-audit --no-fund --save-exact "lighthouse@$LIGHTHOUSE_VERSION" >/dev/null
fi
mkdir -p "$REPORT_DIR"

# run PRESET PAGE CATEGORIES: one Lighthouse run, its JSON report written to REPORT_DIR.
run() {
  local preset="$1" page="$2" categories="$3" name
  name="$preset$(tr '/' '_' <<<"$page").json"
  local args=(--quiet --output=json --output-path="$REPORT_DIR/$name" --only-categories="$categories"
    --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run")
  [[ "$preset" == desktop ]] && args+=(--preset=desktop)
  "$LIGHTHOUSE" "$BASE_URL$page" "${args[@]}" || { echo "lighthouse failed on $preset $page" >&2; return 1; }
  echo "$REPORT_DIR/$name"
}

reports=()
echo "==> Lighthouse $LIGHTHOUSE_VERSION against $BASE_URL"
for page in "${SCORED_PAGES[@]}"; do
  reports+=("$(run mobile "$page" performance,accessibility,best-practices,seo)")
done
for page in "${PUBLIC_PAGES[@]}"; do
  reports+=("$(run desktop "$page" performance)")
done

node - "${reports[@]}" <<'EOF'
const fs = require('fs');
const score = (c) => (c && c.score !== null ? Math.round(c.score * 100) : '-');
const rows = process.argv.slice(2).map((file) => {
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  const c = r.categories;
  return {
    preset: r.configSettings.formFactor,
    page: new URL(r.finalDisplayedUrl).pathname,
    performance: score(c.performance),
    accessibility: score(c.accessibility),
    'best-practices': score(c['best-practices']),
    seo: score(c.seo),
    CLS: r.audits['cumulative-layout-shift'].numericValue.toFixed(3),
    LCP_ms: Math.round(r.audits['largest-contentful-paint'].numericValue),
  };
});
console.log('\nTargets (issue 26): every category >= 95 on mobile; CLS <= 0.02 on every public page.');
console.table(rows);
EOF
