#!/usr/bin/env bash
# Runs every Courtside test, stage by stage, stopping at the first stage that fails.
#
#   ./deploy/test.sh                     every stage, in this order:
#     lint          cargo fmt --check, cargo clippy -D warnings
#     static        shellcheck, nginx -t on the template, hadolint, docker-compose.yml and deploy/k8s/ against
#                   their schemas (offline), check_consistency.py (same images, ports, variables;
#                   README.md documents every variable read) with its own test, and Redocly and
#                   Spectral on the committed OpenAPI document (deploy/openapi.sh lint)
#     rust          cargo nextest run --workspace (or cargo test), against local PostgreSQL and Redis
#     web           npm ci, npm run api:check (types generated from the document), npm run lint,
#                   npm test, npm run build
#     e2e           a second mesh (debug build, its own ports, database and state) driven by
#                   Playwright in Debian's Chromium and by schemathesis as every role; then stopped
#     audit         npm audit (production dependencies) and cargo audit, when their advisory
#                   databases can be reached
#     faults        deploy/faults.sh --restart-postgres: restarts the machine's PostgreSQL under a
#                   mesh of its own and checks it heals; in the default set only when CI=true, so a
#                   developer's run does not restart a PostgreSQL that colleagues are using
#   ./deploy/test.sh rust web            only these stages (also: TEST_STAGES="rust web")
#   ./deploy/test.sh playwright          e2e with Playwright only (schemathesis: e2e with it only)
#   KEEP_E2E_MESH=1 ./deploy/test.sh e2e leave the e2e mesh running afterwards, to look at it
#   E2E_PORT=28080 E2E_GATEWAY_PORT=28000 E2E_SERVICE_PORT_BASE=25050 E2E_OPS_PORT_BASE=29100
#   E2E_DB_NAME=... E2E_STATE_DIR=...    move the e2e mesh (defaults 18080, 18000, 15050, 19100,
#                                        courtside_e2e, deploy/.state/e2e)
# shellcheck source=deploy/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ALL_STAGES=(lint static rust web e2e audit faults)
DEFAULT_STAGES=(lint static rust web e2e audit)
[[ "${CI:-}" == true ]] && DEFAULT_STAGES+=(faults)
TOOLS_VENV="${TOOLS_VENV:-$DEPLOY_DIR/.state/venv}"
E2E_STATE_DIR="${E2E_STATE_DIR:-$DEPLOY_DIR/.state/e2e}"
CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"

# ---------------------------------------------------------------------------------------------
# Which stages
# ---------------------------------------------------------------------------------------------

requested=("$@")
if ((${#requested[@]} == 0)) && [[ -n "${TEST_STAGES:-}" ]]; then
  read -r -a requested <<<"${TEST_STAGES//,/ }"
fi
((${#requested[@]})) || requested=("${DEFAULT_STAGES[@]}")

RUN_PLAYWRIGHT=0 RUN_SCHEMATHESIS=0
declare -A wanted=()
for stage in "${requested[@]}"; do
  case "$stage" in
    all) for s in "${ALL_STAGES[@]}"; do wanted[$s]=1; done ;;
    e2e) wanted[e2e]=1 RUN_PLAYWRIGHT=1 RUN_SCHEMATHESIS=1 ;;
    playwright) wanted[e2e]=1 RUN_PLAYWRIGHT=1 ;;
    schemathesis) wanted[e2e]=1 RUN_SCHEMATHESIS=1 ;;
    lint | static | rust | web | audit | faults) wanted[$stage]=1 ;;
    -h | --help)
      sed -n '2,/^# shellcheck/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *) die "unknown stage '$stage' (stages: ${ALL_STAGES[*]} playwright schemathesis)" ;;
  esac
done
STAGES=()
for s in "${ALL_STAGES[@]}"; do
  [[ -n "${wanted[$s]:-}" ]] && STAGES+=("$s")
done

# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------

RULE='━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━'
banner() { printf '\n%s%s\n  %s\n%s%s\n' "$C_BOLD" "$RULE" "$*" "$RULE" "$C_OFF"; }
step() { printf '%s--- %s%s\n' "$C_BOLD" "$*" "$C_OFF"; }

# run CMD...: echoes the command, then runs it from the repository root.
run() {
  step "$*"
  (cd "$COURTSIDE_ROOT" && "$@")
}

SKIP_NOTES_FILE="$(mktemp)"
skip_note() { # a check that could not run here: said loudly, and again in the summary
  printf '%sSKIPPED:%s %s\n' "$C_YELLOW" "$C_OFF" "$*"
  printf '%s\n' "$*" >>"$SKIP_NOTES_FILE"
}

# tools_venv: schemathesis, check-jsonschema, kubernetes-validate, hadolint and PyYAML, pinned, in a venv
# under deploy/.state; rebuilt only when deploy/requirements-test.txt changes.
tools_venv() {
  local req="$DEPLOY_DIR/requirements-test.txt" stamp="$TOOLS_VENV/.requirements"
  if [[ -x "$TOOLS_VENV/bin/python" && -f "$stamp" ]] && cmp -s "$req" "$stamp"; then
    return 0
  fi
  command -v python3 >/dev/null || apt_install python3
  python3 -m venv --help >/dev/null 2>&1 || apt_install python3-venv
  step "python3 -m venv $TOOLS_VENV; pip install -r deploy/requirements-test.txt"
  rm -rf "$TOOLS_VENV"
  python3 -m venv "$TOOLS_VENV" || { apt_install python3-venv && python3 -m venv "$TOOLS_VENV"; }
  "$TOOLS_VENV/bin/pip" install --quiet --disable-pip-version-check -r "$req"
  cp "$req" "$stamp"
}

ensure_databases_for_tests() {
  load_config
  ensure_system_packages
  ensure_postgres
  ensure_redis
}

# ---------------------------------------------------------------------------------------------
# Stages
# ---------------------------------------------------------------------------------------------

stage_lint() {
  run cargo fmt --all --check
  run cargo clippy --workspace --all-targets -- -D warnings
}

stage_static() {
  command -v shellcheck >/dev/null || apt_install shellcheck
  command -v nginx >/dev/null || apt_install nginx
  local scripts=()
  mapfile -t scripts < <(cd "$COURTSIDE_ROOT" && ls deploy/*.sh)
  scripts+=(.ci/run)
  step "bash -n ${scripts[*]}"
  for s in "${scripts[@]}"; do bash -n "$COURTSIDE_ROOT/$s"; done
  run shellcheck -x "${scripts[@]}"

  # The nginx template, rendered as up.sh renders it, must pass nginx -t.
  step "nginx -t on deploy/nginx/courtside.conf.template"
  local tmp
  tmp="$(mktemp -d)"
  (
    # shellcheck disable=SC2030 # a throw-away config, on purpose only in this subshell
    STATE_DIR="$tmp" WEB_DIST="$tmp/dist" PORT=1 GATEWAY_PORT=2 NGINX_USER=root
    load_config
    mkdir -p "$WEB_DIST"
    echo ok >"$WEB_DIST/index.html"
    write_nginx_config
    nginx_test_config
  )
  rm -rf "$tmp"

  tools_venv
  # DL3008 (pin apt package versions) is left out: Debian's security updates would break the pins.
  run "$TOOLS_VENV/bin/hadolint" --ignore DL3008 deploy/docker/service.Dockerfile deploy/docker/web.Dockerfile
  run "$TOOLS_VENV/bin/check-jsonschema" --builtin-schema vendor.compose-spec docker-compose.yml deploy/compose.traces.yml
  local manifests=()
  mapfile -t manifests < <(cd "$COURTSIDE_ROOT" && find deploy/k8s -name '*.yaml' ! -name kustomization.yaml | sort)
  run "$TOOLS_VENV/bin/kubernetes-validate" --strict --quiet -k "${K8S_VERSION:-1.33.0}" "${manifests[@]}"
  run "$TOOLS_VENV/bin/python" deploy/check_consistency.py
  run "$TOOLS_VENV/bin/python" deploy/test_check_consistency.py
  run deploy/openapi.sh lint
}

# drop_test_databases: each Rust test makes a database of its own (t_<crate>_<uuid>) and leaves it;
# drop what earlier runs left, so they never pile up on a shared PostgreSQL.
drop_test_databases() {
  local name
  step "dropping databases earlier test runs left (t_*)"
  psql_admin -tAc "select datname from pg_database where datname like 't\_%'" | while read -r name; do
    if [[ -n "$name" ]]; then PGOPTIONS=--client-min-messages=warning psql_admin -qc "drop database if exists \"$name\" with (force)" >/dev/null; fi
  done
}

stage_rust() {
  ensure_databases_for_tests
  drop_test_databases
  if cargo nextest --version >/dev/null 2>&1; then
    run cargo nextest run --workspace --no-fail-fast
  else
    run cargo test --workspace --no-fail-fast
  fi
}

stage_web() {
  [[ -f "$COURTSIDE_ROOT/web/package.json" ]] || die "web/package.json is missing"
  run bash -c 'cd web && npm ci --no-audit --no-fund'
  run bash -c 'cd web && npm run api:check'
  run bash -c 'cd web && npm run lint'
  run bash -c 'cd web && npm test'
  run bash -c 'cd web && npm run build'
}

e2e_env() { # the second mesh's settings, beside a running default one (E2E_* move it again)
  env PROFILE=debug PORT="${E2E_PORT:-18080}" GATEWAY_PORT="${E2E_GATEWAY_PORT:-18000}" \
    SERVICE_PORT_BASE="${E2E_SERVICE_PORT_BASE:-15050}" OPS_PORT_BASE="${E2E_OPS_PORT_BASE:-19100}" \
    DB_NAME="${E2E_DB_NAME:-courtside_e2e}" FRESH_DB=1 STATE_DIR="$E2E_STATE_DIR" \
    REDIS_NAMESPACE="courtside-e2e-$(date +%s)" \
    AUTH_RATE_LIMIT_PER_MINUTE=100000 AUTH_RATE_LIMIT_PER_EMAIL_PER_MINUTE=100000 \
    RUST_LOG="${E2E_RUST_LOG:-info}" "$@"
}

stop_e2e_mesh() {
  if [[ "${KEEP_E2E_MESH:-}" == 1 ]]; then
    log "KEEP_E2E_MESH=1: the e2e mesh keeps running; stop it with STATE_DIR=$E2E_STATE_DIR ./deploy/down.sh"
  else
    STATE_DIR="$E2E_STATE_DIR" "$DEPLOY_DIR/down.sh" || true
  fi
}

stage_e2e() {
  ensure_databases_for_tests
  if ((RUN_PLAYWRIGHT)) && [[ ! -x "$CHROMIUM_PATH" ]]; then
    apt_install chromium chromium-driver
  fi
  local skip_web=()
  # The web stage of this run already built web/dist.
  [[ -n "${wanted[web]:-}" ]] && skip_web=(SKIP_WEB_BUILD=1)
  # This stage runs in its own subshell: its EXIT trap stops the mesh whatever happens next.
  trap stop_e2e_mesh EXIT
  step "deploy/up.sh for the e2e mesh (debug build, its own ports, database, state and Redis namespace)"
  e2e_env "${skip_web[@]}" "$DEPLOY_DIR/up.sh"

  local mesh_env="$E2E_STATE_DIR/mesh.env" BASE_URL ADMIN_EMAIL ADMIN_PASSWORD
  # shellcheck disable=SC1090
  source "$mesh_env"
  if ((RUN_PLAYWRIGHT)); then
    [[ -f "$COURTSIDE_ROOT/web/node_modules/.bin/playwright" ]] || npm_ci_if_needed "$WEB_DIR"
    # The admin of this mesh, not of whatever mesh.env another up.sh left at the same URL.
    run env BASE_URL="$BASE_URL" ADMIN_EMAIL="$ADMIN_EMAIL" ADMIN_PASSWORD="$ADMIN_PASSWORD" CHROMIUM_PATH="$CHROMIUM_PATH" \
      bash -c 'cd web && npx playwright test'
  fi
  if ((RUN_SCHEMATHESIS)); then
    tools_venv
    run env BASE_URL="$BASE_URL" ADMIN_EMAIL="$ADMIN_EMAIL" ADMIN_PASSWORD="$ADMIN_PASSWORD" \
      ST_REPORT_DIR="$E2E_STATE_DIR/schemathesis" "$TOOLS_VENV/bin/python" deploy/schemathesis/run.py
  fi
}

stage_audit() {
  step "npm audit --omit=dev --audit-level=high (web)"
  local out rc=0
  out="$(cd "$COURTSIDE_ROOT/web" && npm audit --omit=dev --audit-level=high --json 2>/dev/null)" || rc=$?
  if ((rc == 0)); then
    echo "no known high or critical vulnerability in the web app's production dependencies"
  elif node -e 'const r = JSON.parse(require("fs").readFileSync(0, "utf8")); process.exit(r.metadata && r.vulnerabilities ? 0 : 1)' <<<"$out" 2>/dev/null; then
    (cd "$COURTSIDE_ROOT/web" && npm audit --omit=dev --audit-level=high) || true
    die "npm audit found high or critical vulnerabilities"
  else
    skip_note "npm audit: the registry's advisory endpoint cannot be reached from here ($(node -e 'try { const r = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(r.message || r.error?.summary || "no answer") } catch { console.log("no answer") }' <<<"$out"))"
  fi

  step "cargo audit (RustSec advisory database)"
  local db="${RUSTSEC_DB:-$HOME/.cargo/advisory-db}" fetch=1
  if [[ -d "$db/crates" ]]; then
    fetch=0
  elif ! timeout 20 git ls-remote --exit-code https://github.com/rustsec/advisory-db.git HEAD >/dev/null 2>&1; then
    skip_note "cargo audit: the RustSec advisory database (github.com/rustsec/advisory-db) cannot be fetched from here and none is at $db (set RUSTSEC_DB to a checkout)"
    return 0
  fi
  if ! cargo audit --version >/dev/null 2>&1; then
    run cargo install --locked cargo-audit
  fi
  if ((fetch)); then
    run cargo audit --deny warnings
  else
    run cargo audit --no-fetch --db "$db" --deny warnings
  fi
}

stage_faults() {
  ensure_databases_for_tests
  run "$DEPLOY_DIR/faults.sh" --restart-postgres
}

# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------

declare -A RESULT=() ELAPSED=()
total_start=$SECONDS
failed_stage=''
trap 'rm -f "$SKIP_NOTES_FILE"' EXIT

for i in "${!STAGES[@]}"; do
  stage="${STAGES[$i]}"
  banner "[$((i + 1))/${#STAGES[@]}] $stage"
  started=$SECONDS
  notes_before=$(wc -l <"$SKIP_NOTES_FILE")
  # A subshell with errexit, not an `if`: inside an if-condition bash would ignore set -e. The e2e
  # stage stops its mesh from the subshell's EXIT trap, also when it fails.
  set +e
  (
    set -e
    "stage_$stage"
  )
  rc=$?
  set -e
  ELAPSED[$stage]=$((SECONDS - started))
  if ((rc != 0)); then
    RESULT[$stage]=FAILED
    failed_stage=$stage
    printf '\n%s✘ stage %s FAILED after %ss%s\n' "$C_RED" "$stage" "${ELAPSED[$stage]}" "$C_OFF"
    break
  fi
  if (($(wc -l <"$SKIP_NOTES_FILE") > notes_before)); then
    RESULT[$stage]="passed, some checks skipped"
  else
    RESULT[$stage]=passed
  fi
  printf '%s✔ stage %s passed in %ss%s\n' "$C_GREEN" "$stage" "${ELAPSED[$stage]}" "$C_OFF"
done

banner "summary ($((SECONDS - total_start))s)"
passed=0 failed=0 skipped=0
for stage in "${STAGES[@]}"; do
  if [[ -n "${RESULT[$stage]:-}" ]]; then
    printf '  %-8s %-28s %5ss\n' "$stage" "${RESULT[$stage]}" "${ELAPSED[$stage]}"
    if [[ "${RESULT[$stage]}" == FAILED ]]; then failed=$((failed + 1)); else passed=$((passed + 1)); fi
  else
    printf '  %-8s %s\n' "$stage" "not run (an earlier stage failed)"
    skipped=$((skipped + 1))
  fi
done
while IFS= read -r note; do
  printf '  %sskipped check:%s %s\n' "$C_YELLOW" "$C_OFF" "$note"
done <"$SKIP_NOTES_FILE"
echo
echo "stages: $passed passed, $failed failed, $skipped skipped"
[[ -z "$failed_stage" ]]
