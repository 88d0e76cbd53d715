#!/usr/bin/env bash
# The OpenAPI document the gateway serves at /api/openapi.json, as committed in gateway/openapi.json.
#
#   ./deploy/openapi.sh          refresh: renders the document from the gateway's code into
#                                gateway/openapi.json (the gateway's snapshot test, with
#                                OPENAPI_SNAPSHOT=write) and regenerates web/src/lib/api-schema.d.ts
#                                from it (openapi-typescript); commit both. Run it after changing
#                                anything the document shows (a route, a DTO, a doc comment).
#   ./deploy/openapi.sh lint     Redocly CLI (recommended ruleset) and Spectral (spectral:oas) on
#                                gateway/openapi.json, offline, pinned in deploy/openapi-lint/; fails
#                                on any error or warning (the static stage of test.sh runs it)
# shellcheck source=deploy/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DOCUMENT="$COURTSIDE_ROOT/gateway/openapi.json"
LINT_DIR="$DEPLOY_DIR/openapi-lint"
WEB_DIR="$COURTSIDE_ROOT/web"

refresh() {
  log "rendering the document the gateway serves into gateway/openapi.json"
  (cd "$COURTSIDE_ROOT" && env OPENAPI_SNAPSHOT=write cargo test --quiet -p gateway --test openapi_snapshot)
  npm_ci_if_needed "$WEB_DIR"
  log "generating web/src/lib/api-schema.d.ts from it"
  (cd "$WEB_DIR" && npm run --silent api:types)
  ok "gateway/openapi.json and web/src/lib/api-schema.d.ts are up to date; commit them together"
}

# Redocly's exit code counts only errors; its JSON report also counts warnings, which fail too.
redocly_lint() {
  local report rc=0 errors
  errors="$(mktemp)"
  report="$(cd "$LINT_DIR" && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
    node_modules/.bin/redocly lint --config redocly.yaml --format json --max-problems 1000 "$DOCUMENT" 2>"$errors")" || rc=$?
  # Its stderr is only banners (Node.js version notices) unless it gives no report at all.
  [[ -n "$report" ]] || cat "$errors" >&2
  rm -f "$errors"
  # shellcheck disable=SC2016 # JavaScript, not shell
  node -e '
    let report;
    try { report = JSON.parse(require("fs").readFileSync(0, "utf8")); } catch {
      console.error(`redocly lint gave no report (exit code ${process.argv[1]})`);
      process.exit(2);
    }
    for (const p of report.problems) {
      const at = p.location?.[0];
      console.log(`${at?.start?.line ?? "?"}: ${p.severity} ${p.ruleId} ${at?.pointer ?? ""}: ${p.message}`);
    }
    const { errors, warnings } = report.totals;
    console.log(`redocly (recommended): ${errors} errors, ${warnings} warnings`);
    process.exit(errors + warnings > 0 ? 1 : 0);
  ' "$rc" <<<"$report"
}

spectral_lint() {
  (cd "$LINT_DIR" && node_modules/.bin/spectral lint --ruleset .spectral.yaml --fail-severity warn "$DOCUMENT")
}

lint() {
  [[ -f "$DOCUMENT" ]] || die "gateway/openapi.json is missing: run ./deploy/openapi.sh to render it"
  npm_ci_if_needed "$LINT_DIR"
  local failed=()
  log "redocly lint (recommended) gateway/openapi.json"
  redocly_lint || failed+=(redocly)
  log "spectral lint (spectral:oas) gateway/openapi.json"
  spectral_lint || failed+=(spectral)
  ((${#failed[@]} == 0)) || die "the OpenAPI document has problems (${failed[*]}): fix them in gateway/src, then run ./deploy/openapi.sh"
  ok "gateway/openapi.json: 0 errors and 0 warnings from Redocly and Spectral"
}

case "${1:-refresh}" in
  refresh) refresh ;;
  lint) lint ;;
  -h | --help) sed -n '2,/^# shellcheck/p' "$0" | sed '$d; s/^# \{0,1\}//' ;;
  *) die "unknown command '$1' (commands: refresh, lint)" ;;
esac
