#!/usr/bin/env bash
# Starts the whole Courtside mesh on this machine, without Docker: PostgreSQL and Redis (started if
# they are not answering), the four services, the gateway and nginx with the web build, and, for
# development, MailDev and localstripe (unless SMTP_URL, STRIPE_API_BASE and STRIPE_SECRET_KEY say
# where the real ones are).
#
#   ./deploy/up.sh               install what is missing, build (release), start, wait, print the URL
#   ./deploy/up.sh --print-env   print each process's environment and exit (changes nothing)
#
# Safe to run twice: it first stops what it started before from the same STATE_DIR.
# Every setting is an environment variable; deploy/README.md has the table. The common ones:
#   PORT=8080 GATEWAY_PORT=8000 SERVICE_PORT_BASE=50050 OPS_PORT_BASE=9100 DB_NAME=courtside
#   STATE_DIR=deploy/.state PROFILE=release|debug REDIS_NAMESPACE=courtside SKIP_BUILD=1 FRESH_DB=1
#   BOOKING_REPLICAS=3 (likewise IDENTITY_, COACHING_, GYM_, GATEWAY_REPLICAS; 1 to 9, default 1):
#   replica K listens on the first one's ports + (K-1)*10, and every client is given all of them
# shellcheck source=deploy/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

load_config

if [[ "${1:-}" == --print-env ]]; then
  # Dry: no keys, no password file; placeholders show where they would be.
  ADMIN_PASSWORD="${ADMIN_PASSWORD:-<generated into $ADMIN_PASSWORD_FILE>}"
  PRINT_ONLY=1
  for name in "${INSTANCES[@]}"; do
    echo "[$name]"
    process_env "$name"
    echo
  done
  exit 0
elif [[ $# -gt 0 ]]; then
  die "usage: $0 [--print-env]"
fi

# One up.sh or down.sh at a time per state folder: a second one waits, then gives up clearly.
lock_state_dir

# 1. What the machine needs.
ensure_toolchains
ensure_system_packages
ensure_postgres
ensure_redis

# 2. Builds, while a mesh started before (if any) keeps serving.
if [[ "${SKIP_BUILD:-}" != 1 && "${SKIP_CARGO_BUILD:-}" != 1 ]]; then
  build_rust
fi
if [[ "${SKIP_BUILD:-}" != 1 && "${SKIP_WEB_BUILD:-}" != 1 ]]; then
  build_web
fi
for name in "${PROCESSES[@]}"; do
  [[ -x "$BIN_DIR/$name" ]] || die "$BIN_DIR/$name is missing: run without SKIP_BUILD (PROFILE=$PROFILE)"
done
[[ -f "$WEB_DIST/index.html" ]] || die "$WEB_DIST/index.html is missing: run without SKIP_BUILD"

# 3. Whatever this state folder started before goes, so the ports are ours to take.
stop_all
for name in nginx "${INSTANCES[@]}"; do
  port="$(port_of "$name")"
  if port_in_use "$port"; then
    die "port $port (for $name) is taken by another program: stop it, or choose other ports (PORT, GATEWAY_PORT, SERVICE_PORT_BASE)"
  fi
  if [[ "$name" != nginx ]] && port_in_use "$(ops_port_of "$name")"; then
    die "port $(ops_port_of "$name") (ops port of $name) is taken by another program: set OPS_PORT_BASE"
  fi
done

# 4. Database, the services' roles and Redis user, secrets, nginx config.
if [[ "${FRESH_DB:-}" == 1 ]]; then
  ensure_database "$DB_NAME" fresh
else
  ensure_database "$DB_NAME"
fi
ensure_service_roles
ensure_redis_user
ensure_keys
ensure_admin_password
write_nginx_config
nginx_test_config

if ((!START_LOCALSTRIPE)) && [[ -z "$STRIPE_WEBHOOK_SECRET" ]]; then
  warn "STRIPE_WEBHOOK_SECRET is not set: webhook events from $STRIPE_API_BASE will be refused (the payment worker and the reconciliation still bring every payment in line)"
fi
if ((!START_LOCALSTRIPE)) && [[ -z "$STRIPE_PUBLISHABLE_KEY" ]]; then
  warn "STRIPE_PUBLISHABLE_KEY is not set: the browser cannot add cards"
fi

# 5. Start everything, then wait for every readiness check.
log "starting the services, the gateway and nginx (logs in $LOG_DIR)"
# A mesh that did not come up is stopped again; its logs stay.
trap 'status=$?; if ((status != 0)); then stop_all; fi' EXIT
start_maildev
start_localstripe
for name in "${INSTANCES[@]}"; do
  start_rust_process "$name"
done
# The access log starts over with each start too, the last run's kept beside it as the other
# logs are: nothing rotates it while the mesh runs, and a bench run writes a few hundred MB.
[[ -f "$LOG_DIR/nginx-access.log" ]] && mv -f "$LOG_DIR/nginx-access.log" "$LOG_DIR/nginx-access.log.prev"
# shellcheck disable=SC2046
start_process nginx $(nginx_cmd)
wait_ready
check_schema_isolation
trap - EXIT

# What test.sh and other tools read to find this mesh.
(
  umask 077
  {
    for var in BASE_URL PORT GATEWAY_PORT DB_NAME PROFILE LOG_DIR STATE_DIR UPLOAD_DIR ADMIN_EMAIL ADMIN_PASSWORD; do
      printf '%s=%q\n' "$var" "${!var}"
    done
    # The mail catcher's REST API, when this mesh started one: the browser tests read emails there.
    if ((START_MAILDEV)); then
      printf 'MAIL_UI_URL=%q\n' "http://127.0.0.1:$MAIL_UI_PORT"
    fi
    # The payment provider's API and the key this mesh calls it with (localstripe's, when it
    # started one: the tests count charges there).
    for var in STRIPE_API_BASE STRIPE_SECRET_KEY LOCALSTRIPE_URL LOCALSTRIPE_PORT; do
      printf '%s=%q\n' "$var" "${!var}"
    done
  } >"$STATE_DIR/mesh.env"
)

# The admin is created only when the database has none: say so if this password is not theirs.
login_status="$(curl -sS -o /dev/null -m 10 -w '%{http_code}' -H 'Content-Type: application/json' \
  --data "{\"email\":\"$(json_escape "$ADMIN_EMAIL")\",\"password\":\"$(json_escape "$ADMIN_PASSWORD")\"}" \
  "$BASE_URL/api/auth/login" 2>/dev/null || true)"
if [[ "$login_status" != 200 ]]; then
  warn "signing in as $ADMIN_EMAIL answered $login_status: the database $DB_NAME may hold an admin made with an earlier password (FRESH_DB=1 starts over)"
fi

stop_hint=''
[[ "$STATE_DIR" == "$DEPLOY_DIR/.state" ]] || stop_hint="STATE_DIR=$STATE_DIR "
ok "Courtside is up ($PROFILE build, database $DB_NAME)"
cat <<EOF

  Open       $BASE_URL
  Admin      $ADMIN_EMAIL / $ADMIN_PASSWORD
  Logs       $LOG_DIR
$( ((START_MAILDEV)) && printf '  Mail       http://127.0.0.1:%s\n' "$MAIL_UI_PORT")
$(if ((START_LOCALSTRIPE)); then
  printf '  Payments   localstripe %s (cards: 4242 4242 4242 4242 pays; 4000 0000 0000 0341 is saved, then declined)\n' "$LOCALSTRIPE_URL"
else
  printf '  Payments   %s\n' "$STRIPE_API_BASE"
fi)
  Stop with  $stop_hint./deploy/down.sh

EOF
