#!/usr/bin/env bash
# Runs every Courtside test, stage by stage, stopping at the first stage that fails.
#
#   ./deploy/test.sh                     every stage, in this order:
#     lint          cargo fmt --check, cargo clippy -D warnings
#     static        shellcheck, nginx -t on the template, hadolint, docker-compose.yml and deploy/k8s/ against
#                   their schemas (offline), check_consistency.py (same images, ports, variables;
#                   deploy/README.md documents every variable read) with its own test, and Redocly and
#                   Spectral on the committed OpenAPI document (deploy/openapi.sh lint)
#     rust          cargo nextest run --workspace (or cargo test), against local PostgreSQL and Redis
#                   and localstripes of their own (the venv deploy/.state/localstripe-venv made first)
#     web           npm ci, npm run api:check (types generated from the document), npm run lint,
#                   npm test, npm run build
#     e2e           a second mesh (debug build, its own ports, database and state) driven by
#                   Playwright in Debian's Chromium and by schemathesis as every role; then stopped
#     audit         npm audit (production dependencies) and cargo audit, when their advisory
#                   databases can be reached
#     faults        deploy/faults.sh --restart-postgres --payments: restarts the machine's PostgreSQL
#                   under a mesh of its own and checks it heals, then kills localstripe and
#                   booking-svc under payment work and checks every payment is charged exactly
#                   once; then the short soak (deploy/soak.sh, a
#                   minute, two faults); in the default set only when CI=true, so a
#                   developer's run does not restart a PostgreSQL that colleagues are using
#     compose       docker-compose.yml on a real Docker engine (installs docker.io and docker-compose
#                   and starts dockerd when missing; local stand-ins for the base images when no
#                   registry answers): builds the images (dev profile), starts the mesh with --scale booking-svc=3
#                   on 127.0.0.1:$COMPOSE_PORT (18880), checks localstripe behind nginx's /stripe/,
#                   runs one booking flow through nginx (a card saved first), checks
#                   every booking-svc replica served calls, then takes it down with its volumes;
#                   in the default set only when CI=true
#   ./deploy/test.sh rust web            only these stages (also: TEST_STAGES="rust web")
#   ./deploy/test.sh playwright          e2e with Playwright only (schemathesis: e2e with it only)
#   KEEP_E2E_MESH=1 ./deploy/test.sh e2e leave the e2e mesh running afterwards, to look at it
#   E2E_PORT=28080 E2E_GATEWAY_PORT=28000 E2E_SERVICE_PORT_BASE=25050 E2E_OPS_PORT_BASE=29100
#   E2E_DB_NAME=... E2E_STATE_DIR=...    move the e2e mesh (defaults 18080, 18000, 15050, 19100,
#                                        courtside_e2e, deploy/.state/e2e)
# shellcheck source=deploy/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ALL_STAGES=(lint static rust web e2e audit faults compose)
DEFAULT_STAGES=(lint static rust web e2e audit)
[[ "${CI:-}" == true ]] && DEFAULT_STAGES+=(faults compose)
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
    lint | static | rust | web | audit | faults | compose) wanted[$stage]=1 ;;
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
  scripts+=(.ci/run deploy/docker/web-localstripe.sh)
  step "bash -n ${scripts[*]}; python3 -m py_compile deploy/localstripe/run.py"
  for s in "${scripts[@]}"; do bash -n "$COURTSIDE_ROOT/$s"; done
  python3 -c 'import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])' "$COURTSIDE_ROOT/deploy/localstripe/run.py"
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
  run "$TOOLS_VENV/bin/hadolint" --ignore DL3008 deploy/docker/service.Dockerfile deploy/docker/web.Dockerfile \
    deploy/docker/localstripe.Dockerfile
  run "$TOOLS_VENV/bin/check-jsonschema" --builtin-schema vendor.compose-spec docker-compose.yml deploy/compose.traces.yml
  local manifests=()
  mapfile -t manifests < <(cd "$COURTSIDE_ROOT" && find deploy/k8s -name '*.yaml' ! -name kustomization.yaml | sort)
  run "$TOOLS_VENV/bin/kubernetes-validate" --strict --quiet -k "${K8S_VERSION:-1.33.0}" "${manifests[@]}"
  run "$TOOLS_VENV/bin/python" deploy/check_consistency.py
  run "$TOOLS_VENV/bin/python" deploy/test_check_consistency.py
  run deploy/openapi.sh lint
}

# drop_test_databases: each Rust test makes a database of its own (t_<crate>_<uuid>) and leaves it;
# drop them, before the tests (what earlier runs left) and after (what this run made), so they never
# pile up on a shared PostgreSQL. Eight at a time: each drop waits for a checkpoint, and concurrent
# drops share one.
drop_test_databases() {
  step "dropping the databases Rust tests leave (t_*)"
  psql_admin -tAc "select datname from pg_database where datname like 't\_%'" | sed '/^$/d' |
    PGOPTIONS=--client-min-messages=warning xargs -r -P 8 -I '{}' \
      psql -X -q -d postgres -c 'drop database if exists "{}" with (force)' >/dev/null
}

# localstripe_for_tests: the venv of deploy/localstripe/ made, and how the Rust tests' own
# localstripes are started (platform::testing::Localstripe): LOCALSTRIPE_PYTHON runs
# LOCALSTRIPE_SCRIPT with --host and --port; LOCALSTRIPE_RUN, when given, replaces both.
localstripe_for_tests() {
  ensure_localstripe_venv
  export LOCALSTRIPE_PYTHON="$LOCALSTRIPE_VENV/bin/python" LOCALSTRIPE_SCRIPT="$DEPLOY_DIR/localstripe/run.py"
}

stage_rust() {
  ensure_databases_for_tests
  localstripe_for_tests
  drop_test_databases
  local rc=0
  if cargo nextest --version >/dev/null 2>&1; then
    run cargo nextest run --workspace --no-fail-fast || rc=$?
  else
    run cargo test --workspace --no-fail-fast || rc=$?
  fi
  drop_test_databases
  return "$rc"
}

# debug_binaries: the debug build the e2e, faults and soak meshes run, made here once instead of by
# each up.sh. Built with the tests (--tests), the binaries share every compiled crate with the rust
# stage's: cargo unifies the dev-dependencies' features (reqwest's tower and hyper-util ones, the
# test kit's) into any build that includes tests, so a plain `cargo build --bins` after the tests
# would compile most of the workspace a second time. After the rust stage this compiles nothing.
debug_binaries() {
  run cargo build --workspace --bins --tests
  export SKIP_CARGO_BUILD=1
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
    CALENDAR_RATE_LIMIT_PER_MINUTE=100000 CALENDAR_RATE_LIMIT_PER_ADDRESS_PER_MINUTE=100000 \
    MAX_PENDING_BOOKINGS_PER_COACH=100000 \
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
  debug_binaries
  step "deploy/up.sh for the e2e mesh (debug build, its own ports, database, state and Redis namespace)"
  e2e_env "${skip_web[@]}" "$DEPLOY_DIR/up.sh"

  local mesh_env="$E2E_STATE_DIR/mesh.env" BASE_URL ADMIN_EMAIL ADMIN_PASSWORD MAIL_UI_URL='' LOCALSTRIPE_URL=''
  # shellcheck disable=SC1090
  source "$mesh_env"
  # The mesh's localstripe answers behind nginx (/stripe/: the browser's Stripe.js and its API).
  [[ -n "$LOCALSTRIPE_URL" ]] || die "the e2e mesh started no localstripe (STRIPE_API_BASE or STRIPE_SECRET_KEY is set?)"
  [[ "$(http_status "$BASE_URL/stripe/js.stripe.com/v3/")" == 200 ]] ||
    die "nginx does not serve localstripe's Stripe.js at $BASE_URL/stripe/js.stripe.com/v3/"
  if ((RUN_PLAYWRIGHT)); then
    [[ -f "$COURTSIDE_ROOT/web/node_modules/.bin/playwright" ]] || npm_ci_if_needed "$WEB_DIR"
    # The admin, the mail catcher and the payment provider of this mesh, not of whatever mesh.env
    # another up.sh left at the same URL.
    run env BASE_URL="$BASE_URL" ADMIN_EMAIL="$ADMIN_EMAIL" ADMIN_PASSWORD="$ADMIN_PASSWORD" \
      MAIL_UI_URL="$MAIL_UI_URL" LOCALSTRIPE_URL="$LOCALSTRIPE_URL" CHROMIUM_PATH="$CHROMIUM_PATH" \
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
  debug_binaries
  run "$DEPLOY_DIR/faults.sh" --restart-postgres --payments
  # The short soak: a minute of mixed load with booking-svc, then the gateway, killed and started
  # again; its figures (lost, duplicated, 5xx without a detail) are printed, not asserted.
  run env SOAK_DURATION=60 SOAK_FAULT_EVERY=25 SOAK_FAULTS="booking-svc gateway" "$DEPLOY_DIR/soak.sh"
}

COMPOSE_PORT="${COMPOSE_PORT:-18880}"
COMPOSE_PROJECT="${COMPOSE_PROJECT:-courtside-test}"
COMPOSE_STATE_DIR="${COMPOSE_STATE_DIR:-$DEPLOY_DIR/.state/compose}"
# The images docker-compose.yml and deploy/docker/*.Dockerfile are built from.
BASE_IMAGES=(debian:bookworm-slim rust:1.95-slim-bookworm node:20-bookworm-slim postgres:16 redis:7
  nginxinc/nginx-unprivileged:1.27-alpine otel/opentelemetry-collector-contrib:0.114.0 jaegertracing/all-in-one:1.62.0)

# compose ARGS...: Compose 1.29 (Debian's docker-compose) or v2, on the test's own project.
compose() {
  (cd "$COURTSIDE_ROOT" && PORT="$COMPOSE_PORT" PUBLISH_ADDRESS=127.0.0.1 GRPC_RESOLVE_INTERVAL_MS=1000 \
    "${COMPOSE_CMD[@]}" -p "$COMPOSE_PROJECT" "$@")
}

ensure_docker() {
  # Debian's CLI has BuildKit built in; another docker first on PATH may lack buildx.
  export PATH="/usr/bin:$PATH" DOCKER_BUILDKIT=1 COMPOSE_DOCKER_CLI_BUILD=1
  [[ -x /usr/bin/docker && -x /usr/sbin/dockerd ]] || apt_install docker.io
  if command -v docker-compose >/dev/null; then
    COMPOSE_CMD=(docker-compose)
  elif docker compose version >/dev/null 2>&1; then
    COMPOSE_CMD=(docker compose)
  else
    apt_install docker-compose
    COMPOSE_CMD=(docker-compose)
  fi
  if ! docker info >/dev/null 2>&1; then
    mkdir -p "$COMPOSE_STATE_DIR"
    step "dockerd (not running; its log in $COMPOSE_STATE_DIR/dockerd.log)"
    as_root bash -c "setsid dockerd >'$COMPOSE_STATE_DIR/dockerd.log' 2>&1 </dev/null &"
    wait_until 60 docker info || die "dockerd did not start (see $COMPOSE_STATE_DIR/dockerd.log)"
  fi
  local missing=() image
  for image in "${BASE_IMAGES[@]}"; do
    docker image inspect "$image" >/dev/null 2>&1 || missing+=("$image")
  done
  ((${#missing[@]})) || return 0
  if timeout 60 docker pull -q "${missing[0]}" >/dev/null 2>&1; then
    return 0 # a registry answers: the build pulls the real images
  fi
  local standins="$COURTSIDE_ROOT/../shared/docker-standins/build.sh"
  [[ -x "$standins" ]] || die "no container registry answers and $standins (local stand-ins for ${missing[*]}) is not there"
  run "$standins"
}

# api METHOD PATH [TOKEN] [JSON]: one call through nginx; prints the body, fails on a non-2xx.
api() {
  local args=(-sS -m 30 -X "$1" -H 'Content-Type: application/json' -w '\n%{http_code}')
  [[ -n "${3:-}" ]] && args+=(-H "Authorization: Bearer $3")
  [[ -n "${4:-}" ]] && args+=(--data "$4")
  local out status
  out="$(curl "${args[@]}" "http://127.0.0.1:$COMPOSE_PORT/api$2")"
  status="${out##*$'\n'}"
  out="${out%$'\n'*}"
  [[ "$status" == 2* ]] || die "$1 $2 answered $status: $out"
  printf '%s' "$out"
}

field() { python3 -c 'import json, sys; v = json.load(sys.stdin); [v := v[k] for k in sys.argv[1:]]; print(v)' "$@"; }

# add_card TOKEN NUMBER: the client saves a card as the web app does with localstripe's Stripe.js:
# a SetupIntent from the gateway, confirmed with the card at /stripe/v1/ with the publishable key,
# then the card is in the client's list.
add_card() {
  local setup seti secret status cards
  setup="$(api POST /client/payment-methods/setup "$1")"
  seti="$(field setup_intent_id <<<"$setup")"
  secret="$(field client_secret <<<"$setup")"
  status="$(curl -sS -m 30 -H 'Content-Type: application/json' \
    --data "{\"key\":\"$(api GET /payments/config | field publishable_key)\",\"use_stripe_sdk\":true,\"client_secret\":\"$secret\",\"payment_method_data\":{\"type\":\"card\",\"card\":{\"number\":\"$2\",\"exp_month\":12,\"exp_year\":2034,\"cvc\":\"123\"}}}" \
    "http://127.0.0.1:$COMPOSE_PORT/stripe/v1/setup_intents/$seti/confirm" | field status)"
  [[ "$status" == succeeded ]] || die "localstripe left the SetupIntent $seti $status"
  cards="$(api GET /client/payment-methods "$1" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')"
  ((cards >= 1)) || die "the client's card does not appear in GET /api/client/payment-methods"
}

stage_compose() {
  command -v python3 >/dev/null || apt_install python3
  ensure_docker
  trap 'compose down -v --remove-orphans >/dev/null 2>&1 || true' EXIT
  # A dev-profile build: this stage checks the mesh (images, health checks, scaling, nginx), and
  # release's optimised compile would take three times as long.
  step "${COMPOSE_CMD[*]} build, dev profile (the engine's build cache makes a warm build take seconds)"
  compose build --build-arg CARGO_PROFILE=dev
  step "${COMPOSE_CMD[*]} up -d --scale booking-svc=3, published on 127.0.0.1:$COMPOSE_PORT only"
  compose up -d --scale booking-svc=3
  wait_until 300 curl -fsS -o /dev/null -m 5 "http://127.0.0.1:$COMPOSE_PORT/api/openapi.json" ||
    { compose ps; compose logs --tail 30; die "the compose mesh did not answer on 127.0.0.1:$COMPOSE_PORT within 300 s"; }
  compose logs keygen | grep -q 'first admin' || die "keygen did not print the first admin's generated password"
  local replicas
  mapfile -t replicas < <(compose ps -q booking-svc)
  ((${#replicas[@]} == 3)) || die "expected 3 booking-svc containers, found ${#replicas[@]}"
  # The gateway re-resolves booking-svc every second here; give it a round to see all three.
  sleep 3

  step "localstripe behind nginx: its Stripe.js mock at /stripe/js.stripe.com/v3/ and its API at /stripe/v1/"
  local stripe_js
  stripe_js="$(curl -fsS -m 10 "http://127.0.0.1:$COMPOSE_PORT/stripe/js.stripe.com/v3/")" ||
    die "nginx does not serve localstripe's Stripe.js at /stripe/js.stripe.com/v3/"
  [[ "$stripe_js" == *LOCALSTRIPE_BASE_API* ]] || die "/stripe/js.stripe.com/v3/ is not localstripe's Stripe.js mock"
  [[ "$(curl -sS -o /dev/null -m 10 -w '%{http_code}' -u sk_test_courtside_localstripe: \
    "http://127.0.0.1:$COMPOSE_PORT/stripe/v1/payment_intents")" == 200 ]] ||
    die "localstripe's API does not answer at /stripe/v1/ through nginx"

  step "one booking flow through nginx: coach and client register, profile, location, slot, the client saves a card (through /stripe/), 30 bookings (each approved: a client holds at most 3 pending with a coach), the coach sees them"
  local suffix coach coach_id client slot location n date booking
  suffix="$(date +%s%N)"
  coach="$(api POST /auth/register '' "{\"email\":\"coach-$suffix@compose.test\",\"password\":\"Courtside-fixture-2026\",\"full_name\":\"Compose Coach\",\"role\":\"coach\"}")"
  coach_id="$(field user user_id <<<"$coach")"
  coach="$(field token <<<"$coach")"
  client="$(api POST /auth/register '' "{\"email\":\"client-$suffix@compose.test\",\"password\":\"Courtside-fixture-2026\",\"full_name\":\"Compose Client\",\"role\":\"client\"}" | field token)"
  api POST /coach/profile "$coach" '{"bio":"Coaches in containers.","specialties":["Shooting"],"hourly_rate":60.0,"years_experience":8}' >/dev/null
  location="$(api POST /locations "$coach" '{"name":"Compose Court","address":"1 Main St","court_number":"2","city":"Austin","state":"TX","latitude":30.2672,"longitude":-97.7431}' | field location_id)"
  slot="$(api POST /availability "$coach" "{\"slot_type\":\"recurring\",\"day_of_week\":\"Wednesday\",\"start_time\":\"17:00\",\"end_time\":\"18:00\",\"location_id\":\"$location\"}" | field slot_id)"
  # The coach's rate is $60 an hour: each booking needs a saved card (issue 33), added as the
  # browser adds it, by confirming a SetupIntent at localstripe through nginx's /stripe/.
  add_card "$client" 4242424242424242
  for n in $(seq 0 29); do
    date="$(date -d "next wednesday + $((14 + 7 * n)) days" +%F)"
    booking="$(api POST /bookings "$client" "{\"coach_id\":\"$coach_id\",\"slot_id\":\"$slot\",\"booking_date\":\"$date\"}" | field booking_id)"
    api PATCH "/coach/bookings/$booking/approve" "$coach" >/dev/null
  done
  local seen
  seen="$(api GET /bookings "$coach" | python3 -c 'import json, sys; v = json.load(sys.stdin); v = v.get("bookings", v) if isinstance(v, dict) else v; print(len(v))')"
  ((seen == 30)) || die "the coach sees $seen bookings, not 30"

  step "a session two days ahead is held on the card: payment_status authorized, and localstripe holds it (requires_capture)"
  local soon_slot soon status=''
  soon_slot="$(api POST /availability "$coach" "{\"slot_type\":\"recurring\",\"day_of_week\":\"$(TZ=America/Chicago date -d '+2 days' +%A)\",\"start_time\":\"19:00\",\"end_time\":\"20:00\",\"location_id\":\"$location\"}" | field slot_id)"
  soon="$(api POST /bookings "$client" "{\"coach_id\":\"$coach_id\",\"slot_id\":\"$soon_slot\",\"booking_date\":\"$(TZ=America/Chicago date -d '+2 days' +%F)\"}" | field booking_id)"
  api PATCH "/coach/bookings/$soon/approve" "$coach" >/dev/null
  # shellcheck disable=SC2016 # a Python program
  local status_of='import json, sys; v = json.load(sys.stdin); v = v.get("bookings", v) if isinstance(v, dict) else v; print(next(b["payment_status"] for b in v if b["booking_id"] == sys.argv[1]))'
  for _ in $(seq 1 60); do
    status="$(api GET "/bookings?limit=100" "$client" | python3 -c "$status_of" "$soon")"
    [[ "$status" == authorized ]] && break
    sleep 1
  done
  [[ "$status" == authorized ]] || die "the booking two days ahead reads payment_status $status, not authorized, after 60 s"
  curl -fsS -m 10 -u sk_test_courtside_localstripe: "http://127.0.0.1:$COMPOSE_PORT/stripe/v1/payment_intents?limit=1000" |
    python3 -c 'import json, sys; held = [p for p in json.load(sys.stdin)["data"] if p["metadata"].get("booking_id") == sys.argv[1] and p["status"] == "requires_capture"]; sys.exit(0 if len(held) == 1 else 1)' "$soon" ||
    die "localstripe does not hold exactly one payment for the booking $soon"

  step "every booking-svc replica served calls"
  local id calls shares=()
  for id in "${replicas[@]}"; do
    calls="$(docker exec "$id" curl -fsS http://127.0.0.1:9103/metrics |
      awk '/^grpc_requests_total\{.*CreateBooking/ { s += $NF } END { print s + 0 }')"
    shares+=("${id:0:12}=$calls")
    ((calls > 0)) || die "booking-svc replica ${id:0:12} served no CreateBooking call (${shares[*]})"
  done
  echo "CreateBooking calls per booking-svc replica: ${shares[*]}"
  step "${COMPOSE_CMD[*]} down -v"
  compose down -v --remove-orphans
  trap - EXIT
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
