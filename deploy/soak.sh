#!/usr/bin/env bash
# The soak: a mixed workload through nginx at about half the mesh's capacity for a set time, while a
# fault is injected every minute in turn (a service killed and started again, the gateway killed
# and started again, PostgreSQL restarted, Redis paused for 5 s). Its clients retry failed writes
# with their Idempotency-Keys, as a careful client does. At the end it reconciles what every client
# was told with what the database holds and prints: requests, answers by status, 5xx without a
# detail, lost writes (acknowledged but missing), duplicated writes (two rows for one key), and the
# longest time without a success after each fault. Figures are printed, never asserted (the goal:
# 0 lost, 0 duplicated, 0 5xx without a detail). The clients and the reconciliation are
# deploy/soak/driver.py (Python's standard library only).
#
#   ./deploy/soak.sh                       10 minutes, the six faults in turn, one a minute
#   SOAK_DURATION=60 SOAK_FAULT_EVERY=25 SOAK_FAULTS="booking-svc gateway" ./deploy/soak.sh
#                                          the short version CI's faults stage runs
#
# It starts a mesh of its own with deploy/up.sh (its own ports, database, Redis namespace and state
# folder). The postgres fault restarts the machine's PostgreSQL and the redis fault pauses the
# machine's Redis (CLIENT PAUSE): run those only when nothing else uses them (a quiet machine).
#
# Settings (environment):
#   SOAK_DURATION=600      seconds of workload after the set-up
#   SOAK_FAULT_EVERY=60    seconds between faults; the first comes half that after the start
#   SOAK_FAULTS            the faults in turn, cycled (default "booking-svc gateway coaching-svc
#                          postgres identity-svc redis"; also gym-svc)
#   SOAK_RATE=auto         actions per second over every client; auto: half of what the mesh
#                          answers flat out, measured for 10 s before the run
#   SOAK_CLIENTS=8         clients (each with a coach of their own, sharing one gym)
#   SOAK_PROFILE=debug     the build the mesh runs (release for the long run on a quiet machine)
#   PG_RESTART_CMD         how to restart PostgreSQL (default: pg_ctlcluster on a local cluster)
#   SOAK_PORT=28680 SOAK_GATEWAY_PORT=28600 SOAK_SERVICE_PORT_BASE=25650 SOAK_OPS_PORT_BASE=29700
#   SOAK_DB_NAME=courtside_soak SOAK_STATE_DIR=deploy/.state/soak
#   KEEP_SOAK_MESH=1 leave the mesh running afterwards; SKIP_CARGO_BUILD=1 use the built binaries
# shellcheck source=deploy/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() { sed -n '2,/^# shellcheck/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
case "${1:-}" in
  -h | --help)
    usage
    exit 0
    ;;
  "") ;;
  *)
    usage >&2
    exit 2
    ;;
esac

# This mesh's settings, whatever the caller's environment says about the default mesh.
unset IDENTITY_PORT COACHING_PORT BOOKING_PORT GYM_PORT \
  GATEWAY_OPS_PORT IDENTITY_OPS_PORT COACHING_OPS_PORT BOOKING_OPS_PORT GYM_OPS_PORT LOG_DIR UPLOAD_DIR BIN_DIR
export PROFILE="${SOAK_PROFILE:-debug}" FRESH_DB=1 SKIP_WEB_BUILD=1 \
  PORT="${SOAK_PORT:-28680}" GATEWAY_PORT="${SOAK_GATEWAY_PORT:-28600}" \
  SERVICE_PORT_BASE="${SOAK_SERVICE_PORT_BASE:-25650}" OPS_PORT_BASE="${SOAK_OPS_PORT_BASE:-29700}" \
  DB_NAME="${SOAK_DB_NAME:-courtside_soak}" STATE_DIR="${SOAK_STATE_DIR:-$DEPLOY_DIR/.state/soak}" \
  AUTH_RATE_LIMIT_PER_MINUTE=100000 AUTH_RATE_LIMIT_PER_EMAIL_PER_MINUTE=100000 \
  MAX_PENDING_BOOKINGS_PER_COACH=100000
REDIS_NAMESPACE="courtside-soak-$(date +%s)"
export REDIS_NAMESPACE
# Only /api is exercised: nginx serves a placeholder page instead of a web build.
export WEB_DIST="$STATE_DIR/web-placeholder"
DURATION="${SOAK_DURATION:-600}"
EVERY="${SOAK_FAULT_EVERY:-60}"
read -r -a FAULTS <<<"${SOAK_FAULTS:-booking-svc gateway coaching-svc postgres identity-svc redis}"
RATE="${SOAK_RATE:-auto}"
CLIENTS="${SOAK_CLIENTS:-8}"
load_config
OUT="$STATE_DIR/soak"

for fault in "${FAULTS[@]}"; do
  case "$fault" in
    identity-svc | coaching-svc | booking-svc | gym-svc | gateway | redis) ;;
    postgres)
      if [[ -z "${PG_RESTART_CMD:-}" ]] && { [[ "$PGHOST" != 127.0.0.1 && "$PGHOST" != localhost ]] || ! pg_cluster_installed; }; then
        die "PostgreSQL at $PGHOST:$PGPORT is not a local cluster: set PG_RESTART_CMD to restart it"
      fi
      ;;
    *) die "unknown fault '$fault' (identity-svc, coaching-svc, booking-svc, gym-svc, gateway, postgres, redis)" ;;
  esac
done

restart_postgres() {
  if [[ -n "${PG_RESTART_CMD:-}" ]]; then
    bash -c "$PG_RESTART_CMD"
  else
    as_root pg_ctlcluster --skip-systemctl-redirect "$(newest_pg_version)" main restart
  fi
}

DRIVER_PID=''
cleanup() {
  local status=$?
  [[ -n "$DRIVER_PID" ]] && kill "$DRIVER_PID" 2>/dev/null
  if ! pg_answers; then
    warn "PostgreSQL does not answer; starting it again"
    if [[ -n "${PG_RESTART_CMD:-}" ]]; then bash -c "$PG_RESTART_CMD" || true; else as_root pg_ctlcluster --skip-systemctl-redirect "$(newest_pg_version)" main start || true; fi
  fi
  if [[ "${KEEP_SOAK_MESH:-}" == 1 ]]; then
    log "KEEP_SOAK_MESH=1: the mesh keeps running; stop it with STATE_DIR=$STATE_DIR ./deploy/down.sh"
  else
    "$DEPLOY_DIR/down.sh" >/dev/null 2>&1 || true
  fi
  exit "$status"
}
trap cleanup EXIT

# ready_url NAME: where NAME says it is ready.
ready_url() {
  if [[ "$1" == gateway ]]; then
    echo "http://$BIND_HOST:$(port_of gateway)/healthz"
  else
    echo "http://$BIND_HOST:$(ops_port_of "$1")/readyz"
  fi
}

# kill_and_start NAME: SIGKILL (no drain: calls in flight are cut), then start it again at once.
kill_and_start() {
  local name="$1" pid
  pid="$(pid_of "$name")" || warn "$name was not running"
  [[ -n "${pid:-}" ]] && kill -KILL "$pid" 2>/dev/null
  wait_until 10 bash -c "! kill -0 ${pid:-0} 2>/dev/null" || true
  start_rust_process "$name"
  wait_until 60 http_ok "$(ready_url "$name")" || warn "$name is not ready 60 s after its restart"
}

inject() {
  case "$1" in
    postgres) restart_postgres || warn "the PostgreSQL restart command failed" ;;
    redis)
      read -r rhost rport < <(redis_host_port)
      redis-cli -h "$rhost" -p "$rport" CLIENT PAUSE 5000 ALL >/dev/null || warn "Redis could not be paused"
      ;;
    *) kill_and_start "$1" ;;
  esac
}

mkdir -p "$WEB_DIST" "$OUT"
rm -f "$OUT"/*
echo '<!doctype html><title>Courtside soak</title>' >"$WEB_DIST/index.html"
log "starting the soak mesh (ports $PORT/$GATEWAY_PORT/$((SERVICE_PORT_BASE + 1))-$((SERVICE_PORT_BASE + 4)), database $DB_NAME, state $STATE_DIR)"
"$DEPLOY_DIR/up.sh" >"$STATE_DIR/up.log" 2>&1 || {
  cat "$STATE_DIR/up.log" >&2
  die "deploy/up.sh could not start the soak mesh"
}

log "soak: ${DURATION} s, a fault every ${EVERY} s in turn (${FAULTS[*]}), ${CLIENTS} clients, rate ${RATE}"
python3 "$DEPLOY_DIR/soak/driver.py" run "$BASE_URL/api" "$OUT" "$DURATION" "$RATE" "$CLIENTS" &
DRIVER_PID=$!
# The workload starts after the set-up (and the calibration): faults are timed from then.
while [[ ! -s "$OUT/started" ]]; do
  kill -0 "$DRIVER_PID" 2>/dev/null || die "the soak's clients stopped during the set-up"
  sleep 0.5
done
read -r started _ <"$OUT/started"
i=0
while :; do
  at="$(awk -v s="$started" -v e="$EVERY" -v i="$i" 'BEGIN { printf "%.3f", s + e / 2 + i * e }')"
  awk -v a="$at" -v s="$started" -v d="$DURATION" 'BEGIN { exit !(a < s + d - 5) }' || break
  pause="$(awk -v a="$at" -v now="$(date +%s.%N)" 'BEGIN { p = a - now; printf "%.3f", (p > 0 ? p : 0) }')"
  sleep "$pause"
  fault="${FAULTS[$((i % ${#FAULTS[@]}))]}"
  log "fault $((i + 1)): $fault"
  echo "$(date +%s.%N) $fault" >>"$OUT/faults.log"
  inject "$fault"
  i=$((i + 1))
done
wait "$DRIVER_PID" || die "the soak's clients failed"
DRIVER_PID=''

log "reconciling what the clients were told with what the database holds"
python3 "$DEPLOY_DIR/soak/driver.py" report "$OUT" "$DATABASE_URL" | tee "$OUT/report.txt"
ok "soak done; the figures are in $OUT/report.txt"
