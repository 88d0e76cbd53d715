#!/usr/bin/env bash
# The faults that cannot share the machine with other tests, each on a mesh of its own started with
# deploy/up.sh (debug build, its own ports, database, Redis namespace, localstripe and state
# folder). Prints PASS/FAIL lines; exits 1 on a FAIL.
#
#   ./deploy/faults.sh --restart-postgres   PostgreSQL restarted under the mesh: signs up and books,
#                                           restarts it, and checks that within a bounded wait the
#                                           same calls succeed again and every service answers
#                                           ready, with no process restarted (each sqlx pool
#                                           reconnects by itself). It restarts the machine's shared
#                                           PostgreSQL: run it only when no other test uses it
#   ./deploy/faults.sh --payments           payments under faults (issue 33): cards held, then the
#                                           client cancels late (a 50 % fee is captured) while
#                                           localstripe is killed and started again, and while
#                                           booking-svc is killed between the commit and the
#                                           provider's call (and once with the call on its way);
#                                           ends with every payment charged exactly once, counted
#                                           at localstripe and read back from the bookings
#   (both flags may be given; nothing happens without one)
#
# Settings (environment):
#   PG_RESTART_CMD     how to restart PostgreSQL (default: pg_ctlcluster --skip-systemctl-redirect
#                      <newest version> main restart, for a local cluster only)
#   RECOVERY_TIMEOUT   seconds the mesh has to heal after PostgreSQL answers again (default 60)
#   PAYMENTS_TIMEOUT   seconds the payments have to settle after each fault (default 240: a lease
#                      left by a killed booking-svc runs out after 60 s, and the worker's back-off
#                      after failed provider calls reaches 80 s by the fourth)
#   FAULTS_PORT=28080 FAULTS_GATEWAY_PORT=28000 FAULTS_SERVICE_PORT_BASE=25050
#   FAULTS_OPS_PORT_BASE=29100 FAULTS_DB_NAME=courtside_faults FAULTS_STATE_DIR=deploy/.state/faults
#   KEEP_FAULTS_MESH=1 leave the mesh running afterwards; SKIP_CARGO_BUILD=1 use the built binaries
# shellcheck source=deploy/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() { sed -n '2,/^# shellcheck/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

RUN_POSTGRES=0 RUN_PAYMENTS=0
for arg in "$@"; do
  case "$arg" in
    --restart-postgres) RUN_POSTGRES=1 ;;
    --payments) RUN_PAYMENTS=1 ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      usage >&2
      die "unknown argument '$arg'"
      ;;
  esac
done
if ((!RUN_POSTGRES && !RUN_PAYMENTS)); then
  usage >&2
  die "refusing to run without --restart-postgres or --payments: the first restarts PostgreSQL for everyone on this machine"
fi

# This mesh's settings, whatever the caller's environment says about the default mesh.
unset IDENTITY_PORT COACHING_PORT BOOKING_PORT GYM_PORT \
  GATEWAY_OPS_PORT IDENTITY_OPS_PORT COACHING_OPS_PORT BOOKING_OPS_PORT GYM_OPS_PORT LOG_DIR UPLOAD_DIR BIN_DIR
export PROFILE=debug FRESH_DB=1 SKIP_WEB_BUILD=1 \
  PORT="${FAULTS_PORT:-28080}" GATEWAY_PORT="${FAULTS_GATEWAY_PORT:-28000}" \
  SERVICE_PORT_BASE="${FAULTS_SERVICE_PORT_BASE:-25050}" OPS_PORT_BASE="${FAULTS_OPS_PORT_BASE:-29100}" \
  DB_NAME="${FAULTS_DB_NAME:-courtside_faults}" STATE_DIR="${FAULTS_STATE_DIR:-$DEPLOY_DIR/.state/faults}" \
  AUTH_RATE_LIMIT_PER_MINUTE=100000 AUTH_RATE_LIMIT_PER_EMAIL_PER_MINUTE=100000 \
  MAX_PENDING_BOOKINGS_PER_COACH=100000 PAYMENT_INTERVAL_MS=500
# localstripe keeps its store on disk (under STATE_DIR, started over by FRESH_DB=1): it is killed
# and started again below, and what it had charged must still be there.
unset STRIPE_API_BASE STRIPE_SECRET_KEY STRIPE_PUBLISHABLE_KEY STRIPE_WEBHOOK_SECRET STRIPE_JS_URL LOCALSTRIPE_STORE LOCALSTRIPE_PORT
REDIS_NAMESPACE="courtside-faults-$(date +%s)"
export REDIS_NAMESPACE
# Only /api is exercised: nginx serves a placeholder page instead of a web build.
export WEB_DIST="$STATE_DIR/web-placeholder"
RECOVERY_TIMEOUT="${RECOVERY_TIMEOUT:-60}"
load_config
API="http://$BIND_HOST:$GATEWAY_PORT/api"
CALL_TIMEOUT=20

PAYMENTS_TIMEOUT="${PAYMENTS_TIMEOUT:-240}"

if ((RUN_POSTGRES)) && [[ -z "${PG_RESTART_CMD:-}" ]]; then
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

# ---------------------------------------------------------------------------------------------
# PostgreSQL restarted under the mesh
# ---------------------------------------------------------------------------------------------

fault_restart_postgres() {
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
}

# ---------------------------------------------------------------------------------------------
# Payments under faults (issue 33)
# ---------------------------------------------------------------------------------------------

# localstripe_get PATH: localstripe's API, as booking-svc calls it (any sk_ key).
localstripe_get() { curl -fsS -m 10 -u "$STRIPE_SECRET_KEY:" "$LOCALSTRIPE_URL$1"; }

# add_card TOKEN: the client saves 4242... as the web app does with localstripe's Stripe.js: a
# SetupIntent from the gateway, confirmed with the card and the publishable key at nginx's /stripe/.
add_card() {
  local seti secret key
  api GET /payments/config
  expect "payments config" 200 || return 1
  key="$(field .publishable_key)"
  api POST /client/payment-methods/setup "$1" '{}'
  expect "card setup" 201 || return 1
  seti="$(field .setup_intent_id)" secret="$(field .client_secret)"
  BODY="$(curl -sS -m "$CALL_TIMEOUT" -H 'Content-Type: application/json' \
    --data "{\"key\":\"$key\",\"use_stripe_sdk\":true,\"client_secret\":\"$secret\",\"payment_method_data\":{\"type\":\"card\",\"card\":{\"number\":\"4242424242424242\",\"exp_month\":12,\"exp_year\":2034,\"cvc\":\"123\"}}}" \
    "$BASE_URL/stripe/v1/setup_intents/$seti/confirm" 2>&1)" || true
  [[ "$(field .status)" == succeeded ]] || {
    LAST_MISS="localstripe's SetupIntent confirm (through nginx's /stripe/) answered: ${BODY:0:200}"
    return 1
  }
  api GET /client/payment-methods "$1"
  expect "card list" 200 || return 1
  [[ "$(jq 'length' <<<"$BODY")" -ge 1 ]] || {
    LAST_MISS="the saved card is not in GET /api/client/payment-methods: ${BODY:0:200}"
    return 1
  }
}

# payments_of IDS...: "id status paid" per booking, from the client's list.
payments_of() {
  api GET "/bookings?limit=100" "$PAY_CLIENT_TOKEN"
  [[ "$STATUS" == 200 ]] || return 1
  local ids
  ids="$(printf '"%s",' "$@")"
  jq -r --argjson ids "[${ids%,}]" \
    '(if type == "object" then (.bookings // .items // .data) else . end)[]
     | select(.booking_id as $b | $ids | index($b)) | "\(.booking_id) \(.payment_status) \(.amount_paid_cents)"' <<<"$BODY"
}

# all_payments WANT_STATUS WANT_PAID IDS...: true when every booking reads that status and amount.
all_payments() {
  local want="$1" paid="$2" rows
  shift 2
  rows="$(payments_of "$@")" || return 1
  [[ "$(grep -c . <<<"$rows")" == "$#" ]] || return 1
  ! grep -qv " $want $paid\$" <<<"$rows"
}

# wait_payments WHAT TIMEOUT STATUS PAID IDS...: PASS when they all get there in time, else FAIL
# naming where each stands.
wait_payments() {
  local what="$1" timeout="$2" want="$3" paid="$4" started=$SECONDS
  shift 4
  if wait_until "$timeout" all_payments "$want" "$paid" "$@"; then
    pass "$what: every booking reads $want with $paid cents paid ($((SECONDS - started)) s)"
  else
    fail "$what: not every booking reads $want with $paid cents paid after $timeout s: $(payments_of "$@" | tr '\n' ';')"
  fi
}

# charged_once PRICE FEE IDS...: at localstripe, each booking has exactly one captured charge of
# FEE (the charge's amount less the part a partial capture gave back) and no intent still holding
# money or captured besides it; a second hold or a second capture would be a FAIL.
charged_once() {
  local price="$1" fee="$2" intents charges
  shift 2
  intents="$(localstripe_get '/v1/payment_intents?limit=10000')" || { fail "localstripe does not list its payment intents"; return; }
  charges="$(localstripe_get '/v1/charges?limit=10000')" || { fail "localstripe does not list its charges"; return; }
  local ids report
  ids="$(printf '"%s",' "$@")"
  report="$(jq -r -n --argjson ids "[${ids%,}]" --argjson intents "$intents" --argjson charges "$charges" \
    --argjson price "$price" --argjson fee "$fee" '
    $ids[] as $b
    | [$intents.data[] | select(.metadata.booking_id == $b)] as $pis
    | [$pis[].id] as $pi_ids
    | [$charges.data[] | select(.payment_intent as $p | $pi_ids | index($p)) | select(.captured)] as $captured
    | {
        booking: $b,
        holding: [$pis[] | select(.status == "requires_capture")] | length,
        succeeded: [$pis[] | select(.status == "succeeded")] | length,
        captured: $captured | length,
        net: ([$captured[] | .amount - .amount_refunded] | add // 0),
        amounts: ([$captured[] | .amount] | unique)
      }
    | select(.holding != 0 or .succeeded != 1 or .captured != 1 or .net != $fee or .amounts != [$price])
    | "\(.booking): \(.succeeded) captured intents, \(.holding) still holding, \(.captured) captured charges, \(.net) cents kept"')"
  if [[ -z "$report" ]]; then
    pass "at localstripe, each of the $# bookings was charged exactly once: one captured charge of $price cents keeping $fee, no other hold"
  else
    fail "at localstripe: $(tr '\n' ';' <<<"$report")"
  fi
}

fault_payments() {
  local price=6000 fee=3000
  [[ -n "$LOCALSTRIPE_URL" ]] || die "the faults mesh runs no localstripe"
  # Arrange: a $60/h coach whose every cancellation is late (a 14-day window, 50 % fee); 10 hour
  # slots over the next five days in the location's zone (so each is held at once: within 6 days
  # of its start); a client with a card; 10 bookings, approved, each held.
  register coach || die "$LAST_MISS"
  local coach_token="$TOKEN" coach_id="$USER_ID"
  api POST /coach/profile "$coach_token" '{"bio":"Coaches for money.","specialties":["Shooting"],"hourly_rate":60.0,"years_experience":8}'
  expect "coach profile" 201 || die "$LAST_MISS"
  api PUT /coach/policy "$coach_token" '{"min_notice_minutes":0,"max_advance_days":730,"response_window_minutes":20160,"cancellation_window_minutes":20160,"late_cancellation_fee_percent":50,"no_show_fee_percent":100}'
  expect "coach policy" 200 || die "$LAST_MISS"
  api POST /locations "$coach_token" '{"name":"Austin Rec Center","address":"1 Main St","court_number":"2","city":"Austin","state":"TX","latitude":30.2672,"longitude":-97.7431}'
  expect "coach location" 201 || die "$LAST_MISS"
  local location_id day hour weekday date bodies=()
  location_id="$(field .location_id)"
  for day in 1 2 3 4 5; do
    weekday="$(TZ=America/Chicago date -d "+$day days" +%A)"
    date="$(TZ=America/Chicago date -d "+$day days" +%F)"
    for hour in 9 11; do
      api POST /availability "$coach_token" "{\"slot_type\":\"recurring\",\"day_of_week\":\"$weekday\",\"start_time\":\"$(printf %02d "$hour"):00\",\"end_time\":\"$(printf %02d $((hour + 1))):00\",\"location_id\":\"$location_id\"}"
      expect "slot $weekday $hour:00" 201 || die "$LAST_MISS"
      bodies+=("{\"coach_id\":\"$coach_id\",\"slot_id\":\"$(field .slot_id)\",\"booking_date\":\"$date\"}")
    done
  done
  register client || die "$LAST_MISS"
  PAY_CLIENT_TOKEN="$TOKEN"
  add_card "$PAY_CLIENT_TOKEN" || die "saving a card: $LAST_MISS"
  local ids=() body
  for body in "${bodies[@]}"; do
    api POST /bookings "$PAY_CLIENT_TOKEN" "$body"
    expect "book $body" 201 || die "$LAST_MISS"
    ids+=("$(field .booking_id)")
    api PATCH "/coach/bookings/${ids[-1]}/approve" "$coach_token"
    expect "approve ${ids[-1]}" 200 || die "$LAST_MISS"
  done
  payments_of "${ids[0]}" >/dev/null || die "GET /api/bookings answered $STATUS"
  [[ "$(jq -r --arg b "${ids[0]}" '(if type == "object" then (.bookings // .items // .data) else . end)[]
    | select(.booking_id == $b) | .price_cents' <<<"$BODY")" == "$price" ]] ||
    fail "an hour at \$60/h is not priced $price cents: ${BODY:0:300}"
  wait_payments "held" 60 authorized 0 "${ids[@]}"

  # Fault 1: localstripe killed, the first five cancelled late meanwhile (the cancellations never
  # wait on the provider), started again 10 s later with its store: the worker's captures, refused
  # while it was down, go through once it is back.
  local first=("${ids[@]:0:5}") second=("${ids[@]:5:3}") third=("${ids[@]:8:2}") id pid
  pid="$(pid_of localstripe)" || die "localstripe is not running"
  kill -KILL "$pid"
  log "localstripe killed; the client cancels ${#first[@]} bookings late"
  for id in "${first[@]}"; do
    api PATCH "/bookings/$id/cancel" "$PAY_CLIENT_TOKEN" '{"reason":"late, with the provider down"}'
    expect "cancel $id with localstripe down" 200 || fail "$LAST_MISS"
  done
  sleep 10
  if all_payments authorized 0 "${first[@]}"; then
    pass "localstripe down for 10 s: the cancelled bookings still read authorized, nothing lost or failed"
  else
    fail "localstripe down: the bookings moved on without it: $(payments_of "${first[@]}" | tr '\n' ';')"
  fi
  (FRESH_DB='' start_localstripe) || die "localstripe did not start again"
  wait_payments "localstripe back" "$PAYMENTS_TIMEOUT" partially_paid "$fee" "${first[@]}"

  # Fault 2: booking-svc killed twice over. Three cancelled while localstripe is frozen (SIGSTOP):
  # the worker's captures are sent and wait unanswered; two more cancelled right before booking-svc
  # is killed (their outcome committed, the provider not called yet). Then localstripe thaws and
  # applies the captures the dead booking-svc sent, and booking-svc starts again: its leases run
  # out after 60 s, the captures are retried, and localstripe's "already captured" is read as done.
  pid="$(pid_of localstripe)" || die "localstripe is not running"
  kill -STOP "$pid"
  log "localstripe frozen; the client cancels ${#second[@]} bookings late"
  for id in "${second[@]}"; do
    api PATCH "/bookings/$id/cancel" "$PAY_CLIENT_TOKEN" '{"reason":"late, with the provider frozen"}'
    expect "cancel $id with localstripe frozen" 200 || fail "$LAST_MISS"
  done
  sleep 3
  for id in "${third[@]}"; do
    api PATCH "/bookings/$id/cancel" "$PAY_CLIENT_TOKEN" '{"reason":"late, right before a crash"}'
    expect "cancel $id" 200 || fail "$LAST_MISS"
  done
  local booking_pid
  booking_pid="$(pid_of booking-svc)" || die "booking-svc is not running"
  kill -KILL "$booking_pid"
  wait_until 10 bash -c "! kill -0 $booking_pid 2>/dev/null" || true
  log "booking-svc killed; localstripe thaws, booking-svc starts again"
  kill -CONT "$pid"
  start_rust_process booking-svc
  wait_until 60 http_ok "http://$BIND_HOST:$BOOKING_OPS_PORT/readyz" || fail "booking-svc not ready again within 60 s"
  wait_payments "booking-svc killed and started again" "$PAYMENTS_TIMEOUT" partially_paid "$fee" "${second[@]}" "${third[@]}"

  # Assert, at the provider: every payment charged exactly once.
  charged_once "$price" "$fee" "${ids[@]}"
  api GET "/coach/earnings?month=$(date -u +%Y-%m)" "$coach_token"
  if [[ "$STATUS" == 200 ]]; then
    info "the coach's earnings this month: $(jq -c '{held_cents, paid_cents, fees_cents, net_cents}' <<<"$BODY")"
    if [[ "$(field .paid_cents)" == $((fee * ${#ids[@]})) ]]; then
      pass "the coach's earnings agree: $((fee * ${#ids[@]})) cents paid"
    else
      fail "the coach's earnings read $(field .paid_cents) cents paid, not $((fee * ${#ids[@]}))"
    fi
  else
    fail "GET /api/coach/earnings answered $STATUS: ${BODY:0:200}"
  fi
}

# ---------------------------------------------------------------------------------------------

((RUN_POSTGRES)) && fault_restart_postgres
((RUN_PAYMENTS)) && fault_payments

if ((FAILS)); then
  printf '%sfaults: %s check(s) failed%s\n' "$C_RED" "$FAILS" "$C_OFF"
  exit 1
fi
what=()
((RUN_POSTGRES)) && what+=("PostgreSQL restart survived")
((RUN_PAYMENTS)) && what+=("every payment charged exactly once under faults")
ok "faults: $(IFS=';' && echo "${what[*]}")"
