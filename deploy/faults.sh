#!/usr/bin/env bash
# The fault that cannot share the machine with other tests: PostgreSQL restarted under a running
# mesh. Starts a mesh of its own with deploy/up.sh (debug build, its own ports, database, Redis
# namespace and state folder), signs up and books, restarts PostgreSQL, and checks that within a
# bounded wait the same calls succeed again and every service answers ready, with no process
# restarted (each sqlx pool reconnects by itself). Prints PASS/FAIL lines; exits 1 on a FAIL.
#
#   ./deploy/faults.sh --restart-postgres     run it (nothing happens without the flag: it restarts
#                                             the machine's shared PostgreSQL, so run it only when no
#                                             other test is using the database, e.g. last in test.sh)
#
# Settings (environment):
#   PG_RESTART_CMD     how to restart PostgreSQL (default: pg_ctlcluster --skip-systemctl-redirect
#                      <newest version> main restart, for a local cluster only)
#   RECOVERY_TIMEOUT   seconds the mesh has to heal after PostgreSQL answers again (default 60)
#   FAULTS_PORT=28080 FAULTS_GATEWAY_PORT=28000 FAULTS_SERVICE_PORT_BASE=25050
#   FAULTS_OPS_PORT_BASE=29100 FAULTS_DB_NAME=courtside_faults FAULTS_STATE_DIR=deploy/.state/faults
#   KEEP_FAULTS_MESH=1 leave the mesh running afterwards; SKIP_CARGO_BUILD=1 use the built binaries
# shellcheck source=deploy/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() { sed -n '2,/^# shellcheck/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

case "${1:-}" in
  --restart-postgres) ;;
  -h | --help)
    usage
    exit 0
    ;;
  *)
    usage >&2
    die "refusing to run without --restart-postgres: this restarts PostgreSQL for everyone on this machine"
    ;;
esac

# This mesh's settings, whatever the caller's environment says about the default mesh.
unset IDENTITY_PORT COACHING_PORT BOOKING_PORT GYM_PORT \
  GATEWAY_OPS_PORT IDENTITY_OPS_PORT COACHING_OPS_PORT BOOKING_OPS_PORT GYM_OPS_PORT LOG_DIR UPLOAD_DIR BIN_DIR
export PROFILE=debug FRESH_DB=1 SKIP_WEB_BUILD=1 \
  PORT="${FAULTS_PORT:-28080}" GATEWAY_PORT="${FAULTS_GATEWAY_PORT:-28000}" \
  SERVICE_PORT_BASE="${FAULTS_SERVICE_PORT_BASE:-25050}" OPS_PORT_BASE="${FAULTS_OPS_PORT_BASE:-29100}" \
  DB_NAME="${FAULTS_DB_NAME:-courtside_faults}" STATE_DIR="${FAULTS_STATE_DIR:-$DEPLOY_DIR/.state/faults}" \
  AUTH_RATE_LIMIT_PER_MINUTE=100000 AUTH_RATE_LIMIT_PER_EMAIL_PER_MINUTE=100000 \
  MAX_PENDING_BOOKINGS_PER_COACH=100000
REDIS_NAMESPACE="courtside-faults-$(date +%s)"
export REDIS_NAMESPACE
# Only /api is exercised: nginx serves a placeholder page instead of a web build.
export WEB_DIST="$STATE_DIR/web-placeholder"
RECOVERY_TIMEOUT="${RECOVERY_TIMEOUT:-60}"
load_config
API="http://$BIND_HOST:$GATEWAY_PORT/api"
CALL_TIMEOUT=20

if [[ -z "${PG_RESTART_CMD:-}" ]]; then
  if [[ "$PGHOST" != 127.0.0.1 && "$PGHOST" != localhost ]] || ! pg_cluster_installed; then
    die "PostgreSQL at $PGHOST:$PGPORT is not a local cluster: set PG_RESTART_CMD to restart it"
  fi
fi
command -v jq >/dev/null || apt_install jq

# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------

FAILS=0
pass() { printf '%sPASS%s %s\n' "$C_GREEN" "$C_OFF" "$*"; }
fail() {
  printf '%sFAIL%s %s\n' "$C_RED" "$C_OFF" "$*"
  FAILS=$((FAILS + 1))
}
info() { printf 'INFO %s\n' "$*"; }

# ---------------------------------------------------------------------------------------------
# PostgreSQL: restarted on purpose, and never left down by this script.
# ---------------------------------------------------------------------------------------------

restart_postgres() {
  if [[ -n "${PG_RESTART_CMD:-}" ]]; then
    bash -c "$PG_RESTART_CMD"
  else
    as_root pg_ctlcluster --skip-systemctl-redirect "$(newest_pg_version)" main restart
  fi
}

ensure_postgres_back() {
  pg_answers && return 0
  warn "PostgreSQL at $PGHOST:$PGPORT does not answer; starting it again"
  if [[ -n "${PG_RESTART_CMD:-}" ]]; then
    bash -c "$PG_RESTART_CMD" || true
  else
    as_root pg_ctlcluster --skip-systemctl-redirect "$(newest_pg_version)" main start || true
  fi
  wait_until 30 pg_answers || warn "PostgreSQL at $PGHOST:$PGPORT is still down: start it by hand"
}

cleanup() {
  local status=$?
  ensure_postgres_back
  if [[ "${KEEP_FAULTS_MESH:-}" == 1 ]]; then
    log "KEEP_FAULTS_MESH=1: the mesh keeps running; stop it with STATE_DIR=$STATE_DIR ./deploy/down.sh"
  else
    "$DEPLOY_DIR/down.sh" >/dev/null 2>&1 || true
  fi
  rm -f "${BODY_FILE:-}"
  exit "$status"
}
trap cleanup EXIT

# ---------------------------------------------------------------------------------------------
# Talking to the gateway
# ---------------------------------------------------------------------------------------------

BODY_FILE="$(mktemp)"
STATUS='' BODY=''
# api METHOD PATH [TOKEN] [JSON]: sets STATUS (000 when nothing answered) and BODY.
api() {
  local method="$1" path="$2" token="${3:-}" data="${4:-}"
  local args=(-sS -m "$CALL_TIMEOUT" -o "$BODY_FILE" -w '%{http_code}' -X "$method")
  [[ -n "$token" ]] && args+=(-H "Authorization: Bearer $token")
  [[ -n "$data" ]] && args+=(-H 'Content-Type: application/json' --data "$data")
  : >"$BODY_FILE"
  STATUS="$(curl "${args[@]}" "$API$path" 2>/dev/null)" || STATUS=000
  BODY="$(<"$BODY_FILE")"
}

field() { jq -r "$1 // empty" <<<"$BODY" 2>/dev/null || true; }

# expect WHAT STATUS...: true when the last call answered one of the statuses.
expect() {
  local what="$1" want
  shift
  for want in "$@"; do
    [[ "$STATUS" == "$want" ]] && return 0
  done
  LAST_MISS="$what answered $STATUS: ${BODY:0:200}"
  return 1
}

# The n-th Wednesday from two weeks ahead: each fits a recurring Wednesday slot.
wednesday() {
  local day
  day="$(date -u -d '+14 days' +%F)"
  while [[ "$(date -u -d "$day" +%u)" != 3 ]]; do day="$(date -u -d "$day + 1 day" +%F)"; done
  date -u -d "$day + $((7 * $1)) days" +%F
}

SEQ=0
PASSWORD=Courtside-fixture-2026
# register ROLE: sets TOKEN, USER_ID and EMAIL.
register() {
  SEQ=$((SEQ + 1))
  EMAIL="faults-$1-$SEQ-$(date +%s%N)@faults.test"
  api POST /auth/register '' "{\"email\":\"$EMAIL\",\"password\":\"$PASSWORD\",\"full_name\":\"Faulty $1\",\"role\":\"$1\"}"
  expect "register $1" 201 || return 1
  TOKEN="$(field .token)" USER_ID="$(field .user.user_id)"
}

# One round of what people do, touching every service's database: sign in (identity), sign up
# (identity), book a new date (booking, which reads the slot from coaching), list bookings
# (booking), the directory (coaching) and gym locations (gym). True when all of it worked.
BOOKED=0
round() {
  api POST /auth/login '' "{\"email\":\"$CLIENT_EMAIL\",\"password\":\"$PASSWORD\"}"
  expect "login" 200 || return 1
  CLIENT_TOKEN="$(field .token)"
  register client || return 1
  local date
  date="$(wednesday "$BOOKED")"
  api POST /bookings "$CLIENT_TOKEN" \
    "{\"coach_id\":\"$COACH_ID\",\"slot_id\":\"$SLOT_ID\",\"booking_date\":\"$date\"}"
  if [[ "$STATUS" == 409 ]]; then
    # An earlier attempt was stored although its answer was lost: it counts, the next date is new.
    BOOKED=$((BOOKED + 1))
    LAST_MISS="book $date answered 409: an earlier attempt was stored although it did not answer 201"
    return 1
  fi
  expect "book $date" 201 || return 1
  BOOKED=$((BOOKED + 1))
  api GET /bookings "$CLIENT_TOKEN"
  expect "list bookings" 200 || return 1
  [[ "$(jq 'length' <<<"$BODY")" == "$BOOKED" ]] || {
    LAST_MISS="list bookings shows $(jq 'length' <<<"$BODY") bookings, not $BOOKED"
    return 1
  }
  api GET /coaches
  expect "coach directory" 200 || return 1
  api GET /gym/locations "$CLIENT_TOKEN"
  expect "gym locations" 200 || return 1
}

pids() { # every process's pid, one line
  local name out=()
  for name in "${PROCESSES[@]}"; do out+=("$name=$(pid_of "$name" || echo none)"); done
  echo "${out[*]}"
}

# probe: in the background while PostgreSQL restarts, a signed-in read every 0.2 s, each answer's
# status and seconds appended to PROBE_LOG, until PROBE_STOP exists.
probe() {
  while [[ ! -e "$PROBE_STOP" ]]; do
    curl -sS -m "$CALL_TIMEOUT" -o /dev/null -w '%{http_code} %{time_total}\n' \
      -H "Authorization: Bearer $CLIENT_TOKEN" "$API/bookings" >>"$PROBE_LOG" 2>/dev/null || true
    sleep 0.2
  done
}

all_ready() {
  local name
  for name in "${PROCESSES[@]}"; do
    http_ok "http://$BIND_HOST:$(ops_port_of "$name")/readyz" || return 1
  done
}

# ---------------------------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------------------------

mkdir -p "$WEB_DIST"
echo '<!doctype html><title>Courtside faults</title>' >"$WEB_DIST/index.html"
log "starting the faults mesh (ports $PORT/$GATEWAY_PORT/$((SERVICE_PORT_BASE + 1))-$((SERVICE_PORT_BASE + 4)), database $DB_NAME, state $STATE_DIR)"
"$DEPLOY_DIR/up.sh" >"$STATE_DIR/up.log" 2>&1 || {
  cat "$STATE_DIR/up.log" >&2
  die "deploy/up.sh could not start the faults mesh"
}

# Arrange: a coach with a recurring Wednesday slot, a client, and a first round of calls. The coach
# is free (rate 0): each round's new client books without a card (payments have --payments).
register coach || die "$LAST_MISS"
COACH_TOKEN="$TOKEN" COACH_ID="$USER_ID"
api POST /coach/profile "$COACH_TOKEN" '{"bio":"Coaches through faults.","specialties":["Shooting"],"hourly_rate":0.0,"years_experience":8}'
expect "coach profile" 201 || die "$LAST_MISS"
api POST /locations "$COACH_TOKEN" '{"name":"Austin Rec Center","address":"1 Main St","court_number":"2","city":"Austin","state":"TX","latitude":30.2672,"longitude":-97.7431}'
expect "coach location" 201 || die "$LAST_MISS"
LOCATION_ID="$(field .location_id)"
api POST /availability "$COACH_TOKEN" "{\"slot_type\":\"recurring\",\"day_of_week\":\"Wednesday\",\"start_time\":\"17:00\",\"end_time\":\"18:00\",\"location_id\":\"$LOCATION_ID\"}"
expect "coach slot" 201 || die "$LAST_MISS"
SLOT_ID="$(field .slot_id)"
register client || die "$LAST_MISS"
CLIENT_EMAIL="$EMAIL"
if round; then
  pass "before the restart: sign in, sign up, book, list bookings, directory and gym locations work"
else
  fail "before the restart: $LAST_MISS"
  exit 1
fi
PIDS_BEFORE="$(pids)"

# Act: restart PostgreSQL under the running mesh, with reads going on meanwhile.
PROBE_LOG="$STATE_DIR/probe.log" PROBE_STOP="$STATE_DIR/probe.stop"
rm -f "$PROBE_LOG" "$PROBE_STOP"
probe &
probe_pid=$!
log "restarting PostgreSQL at $PGHOST:$PGPORT"
restart_started=$SECONDS
if restart_postgres; then
  pass "PostgreSQL restarted ($((SECONDS - restart_started)) s)"
else
  fail "the PostgreSQL restart command failed"
fi
if wait_until 60 pg_answers; then
  pass "PostgreSQL answers again"
else
  fail "PostgreSQL did not answer within 60 s of its restart"
  exit 1
fi
touch "$PROBE_STOP"
wait "$probe_pid" || true
if [[ -s "$PROBE_LOG" ]]; then
  info "during the restart GET /bookings answered (count status): $(cut -d' ' -f1 "$PROBE_LOG" | sort | uniq -c | tr -s ' \n' ' ')"
  slowest="$(sort -k2 -g "$PROBE_LOG" | tail -n1 | cut -d' ' -f2)"
  unanswered="$(grep -c '^000 ' "$PROBE_LOG" || true)"
  others="$(grep -v -c -E '^(200|503) ' "$PROBE_LOG" || true)"
  if ((unanswered == 0)) && awk -v s="$slowest" 'BEGIN { exit !(s < 16) }'; then
    pass "during the restart every read was answered, the slowest in $slowest s (the gateway's last resort is 15 s)"
  else
    fail "during the restart $unanswered read(s) got no answer; the slowest took $slowest s"
  fi
  if ((others > 0)); then
    info "during the restart $others read(s) answered neither 200 nor 503 (see $PROBE_LOG)"
  fi
fi

# Assert: within RECOVERY_TIMEOUT the same calls work again, without restarting anything.
healed_started=$SECONDS deadline=$((SECONDS + RECOVERY_TIMEOUT)) attempts=0 healed=0
declare -A misses=()
while :; do
  if round; then
    healed=1
    break
  fi
  attempts=$((attempts + 1))
  misses["$LAST_MISS"]=1
  ((SECONDS < deadline)) || break
  sleep 0.5
done
for miss in "${!misses[@]}"; do info "while healing: $miss"; done
if ((healed)); then
  pass "after the restart: the same calls work again ($((SECONDS - healed_started)) s, $attempts failed rounds first)"
else
  fail "after the restart: not healed within ${RECOVERY_TIMEOUT} s; last: $LAST_MISS (logs in $LOG_DIR)"
fi
if wait_until 10 all_ready; then
  pass "every process answers ready (its /readyz checks the database)"
else
  for name in "${PROCESSES[@]}"; do
    url="http://$BIND_HOST:$(ops_port_of "$name")/readyz"
    http_ok "$url" || fail "$name is not ready: $(curl -sS -m 5 "$url" 2>&1 | head -c 300)"
  done
fi
PIDS_AFTER="$(pids)"
if [[ "$PIDS_AFTER" == "$PIDS_BEFORE" ]]; then
  pass "no process restarted ($PIDS_AFTER)"
else
  fail "processes changed: before $PIDS_BEFORE, after $PIDS_AFTER"
fi

if ((FAILS)); then
  printf '%sfaults: %s check(s) failed%s\n' "$C_RED" "$FAILS" "$C_OFF"
  exit 1
fi
ok "faults: PostgreSQL restart survived"
