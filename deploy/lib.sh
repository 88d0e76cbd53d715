# shellcheck shell=bash
# Shared by up.sh, down.sh and test.sh: configuration from the environment, installing what a fresh
# Debian machine lacks, PostgreSQL and Redis, keys, the nginx config, starting and stopping processes.
# Sourced, never run. Every function is safe to call twice.

set -Eeuo pipefail

COURTSIDE_ROOT="${COURTSIDE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
DEPLOY_DIR="$COURTSIDE_ROOT/deploy"

# The five Rust processes, in start order (the gateway connects lazily, so order is cosmetic).
SERVICES=(identity-svc coaching-svc booking-svc gym-svc)
PROCESSES=("${SERVICES[@]}" gateway)
# Replica k (from 2) of a process listens on its ports plus (k - 1) * REPLICA_PORT_STEP.
REPLICA_PORT_STEP=10

# ---------------------------------------------------------------------------------------------
# Messages
# ---------------------------------------------------------------------------------------------

if [[ -t 1 && -z "${NO_COLOR:-}" ]]; then
  C_BOLD=$'\e[1m' C_RED=$'\e[31m' C_GREEN=$'\e[32m' C_YELLOW=$'\e[33m' C_OFF=$'\e[0m'
else
  C_BOLD='' C_RED='' C_GREEN='' C_YELLOW='' C_OFF=''
fi

log() { printf '%s==>%s %s\n' "$C_BOLD" "$C_OFF" "$*" >&2; }
warn() { printf '%swarning:%s %s\n' "$C_YELLOW" "$C_OFF" "$*" >&2; }
die() {
  printf '%serror:%s %s\n' "$C_RED" "$C_OFF" "$*" >&2
  exit 1
}
ok() { printf '%s✔%s %s\n' "$C_GREEN" "$C_OFF" "$*" >&2; }

# ---------------------------------------------------------------------------------------------
# Configuration: every knob is an environment variable with a default (see deploy/README.md).
# ---------------------------------------------------------------------------------------------

load_config() {
  STATE_DIR="${STATE_DIR:-$DEPLOY_DIR/.state}"
  mkdir -p "$STATE_DIR"
  STATE_DIR="$(cd "$STATE_DIR" && pwd)"
  LOG_DIR="${LOG_DIR:-$STATE_DIR/logs}"
  RUN_DIR="$STATE_DIR/run"
  KEY_DIR="$STATE_DIR/keys"
  UPLOAD_DIR="${UPLOAD_DIR:-$STATE_DIR/uploads}"

  PROFILE="${PROFILE:-release}"
  case "$PROFILE" in
    release | debug) ;;
    *) die "PROFILE must be release or debug, not '$PROFILE'" ;;
  esac
  local target_dir="${CARGO_TARGET_DIR:-$COURTSIDE_ROOT/target}"
  [[ "$target_dir" = /* ]] || target_dir="$COURTSIDE_ROOT/$target_dir"
  BIN_DIR="${BIN_DIR:-$target_dir/$PROFILE}"
  WEB_DIR="$COURTSIDE_ROOT/web"
  WEB_DIST="${WEB_DIST:-$WEB_DIR/dist}"

  BIND_HOST="${BIND_HOST:-127.0.0.1}"
  PORT="${PORT:-8080}"
  GATEWAY_PORT="${GATEWAY_PORT:-8000}"
  SERVICE_PORT_BASE="${SERVICE_PORT_BASE:-50050}"
  OPS_PORT_BASE="${OPS_PORT_BASE:-9100}"
  IDENTITY_PORT="${IDENTITY_PORT:-$((SERVICE_PORT_BASE + 1))}"
  COACHING_PORT="${COACHING_PORT:-$((SERVICE_PORT_BASE + 2))}"
  BOOKING_PORT="${BOOKING_PORT:-$((SERVICE_PORT_BASE + 3))}"
  GYM_PORT="${GYM_PORT:-$((SERVICE_PORT_BASE + 4))}"
  GATEWAY_OPS_PORT="${GATEWAY_OPS_PORT:-$OPS_PORT_BASE}"
  IDENTITY_OPS_PORT="${IDENTITY_OPS_PORT:-$((OPS_PORT_BASE + 1))}"
  COACHING_OPS_PORT="${COACHING_OPS_PORT:-$((OPS_PORT_BASE + 2))}"
  BOOKING_OPS_PORT="${BOOKING_OPS_PORT:-$((OPS_PORT_BASE + 3))}"
  GYM_OPS_PORT="${GYM_OPS_PORT:-$((OPS_PORT_BASE + 4))}"

  PGHOST="${PGHOST:-127.0.0.1}"
  PGPORT="${PGPORT:-5432}"
  PGUSER="${PGUSER:-postgres}"
  export PGHOST PGPORT PGUSER
  DB_NAME="${DB_NAME:-courtside}"
  # The administrator's URL, for the scripts (bench.sh, soak.sh); the services sign in as their
  # own roles (service_database_url).
  # shellcheck disable=SC2034
  if [[ -n "${PGPASSWORD:-}" ]]; then
    export PGPASSWORD
    DATABASE_URL="postgres://$PGUSER:$PGPASSWORD@$PGHOST:$PGPORT/$DB_NAME"
  else
    DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$DB_NAME"
  fi

  # The processes sign in as roles and users of their own (ensure_service_roles,
  # ensure_redis_user), with passwords generated into SECRET_DIR; DATABASE_URL and REDIS_URL are
  # the administrator's, which the scripts use.
  SECRET_DIR="$STATE_DIR/secrets"
  REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
  REDIS_NAMESPACE="${REDIS_NAMESPACE:-courtside}"
  REDIS_USER="courtside-$REDIS_NAMESPACE"
  REDIS_WITH_USER=1
  # 1 while up.sh only prints (--print-env): no secret is made.
  PRINT_ONLY=0
  RUST_LOG="${RUST_LOG:-info}"
  OTEL_EXPORTER_OTLP_ENDPOINT="${OTEL_EXPORTER_OTLP_ENDPOINT:-}"
  AUTH_RATE_LIMIT_PER_MINUTE="${AUTH_RATE_LIMIT_PER_MINUTE:-20}"
  AUTH_RATE_LIMIT_PER_EMAIL_PER_MINUTE="${AUTH_RATE_LIMIT_PER_EMAIL_PER_MINUTE:-10}"
  # Whose X-Forwarded-For is believed: by the gateway, nginx on this machine; by nginx, nothing in
  # front of it but this machine (deploy/README.md: TRUSTED_PROXIES).
  TRUSTED_PROXIES="${TRUSTED_PROXIES:-127.0.0.0/8,::1}"
  NGINX_REAL_IP_FROM="${NGINX_REAL_IP_FROM:-127.0.0.1}"

  ADMIN_EMAIL="${ADMIN_EMAIL:-admin@courtside.local}"
  ADMIN_NAME="${ADMIN_NAME:-Courtside Admin}"
  ADMIN_PASSWORD_FILE="$STATE_DIR/admin_password"
  # ADMIN_PASSWORD: taken from the environment, else from the state folder (see ensure_admin_password).
  ADMIN_PASSWORD="${ADMIN_PASSWORD:-}"

  JWT_PRIVATE_KEY_FILE="$KEY_DIR/jwt_private.pem"
  JWT_PUBLIC_KEY_FILE="$KEY_DIR/jwt_public.pem"

  # How many of each process run (1 to 9 each); every client is given all of them.
  IDENTITY_REPLICAS="${IDENTITY_REPLICAS:-1}" COACHING_REPLICAS="${COACHING_REPLICAS:-1}"
  BOOKING_REPLICAS="${BOOKING_REPLICAS:-1}" GYM_REPLICAS="${GYM_REPLICAS:-1}"
  GATEWAY_REPLICAS="${GATEWAY_REPLICAS:-1}"
  local process count
  INSTANCES=()
  for process in "${PROCESSES[@]}"; do
    count="$(replicas_of "$process")"
    [[ "$count" =~ ^[1-9]$ ]] || die "$(replicas_var "$process") must be a whole number from 1 to 9, not '$count'"
    mapfile -t -O "${#INSTANCES[@]}" INSTANCES < <(instances_of "$process")
  done
  GRPC_RESOLVE_INTERVAL_MS="${GRPC_RESOLVE_INTERVAL_MS:-5000}"

  READY_TIMEOUT="${READY_TIMEOUT:-90}"
  STOP_TIMEOUT="${STOP_TIMEOUT:-15}"
  BASE_URL="http://127.0.0.1:$PORT"
  # Where people reach this mesh: the links the gateway hands out (a calendar feed's address).
  PUBLIC_URL="${PUBLIC_URL:-$BASE_URL}"
  # Email: to SMTP_URL when set; otherwise up.sh starts MailDev (deploy/maildev/) on these ports:
  # 1025 and 1080 for the default mesh, and beside its ops ports for a mesh moved elsewhere (the
  # e2e, faults and bench meshes), so that two meshes on one machine never fight over them.
  local mail_smtp=1025 mail_ui=1080
  if [[ "$OPS_PORT_BASE" != 9100 ]]; then
    mail_smtp=$((OPS_PORT_BASE + 95)) mail_ui=$((OPS_PORT_BASE + 96))
  fi
  MAIL_SMTP_PORT="${MAIL_SMTP_PORT:-$mail_smtp}"
  MAIL_UI_PORT="${MAIL_UI_PORT:-$mail_ui}"
  MAIL_FROM="${MAIL_FROM:-Courtside <no-reply@courtside.local>}"
  if [[ -n "${SMTP_URL:-}" ]]; then
    START_MAILDEV=0
  else
    START_MAILDEV=1
    SMTP_URL="smtp://127.0.0.1:$MAIL_SMTP_PORT"
  fi
  CALENDAR_RATE_LIMIT_PER_MINUTE="${CALENDAR_RATE_LIMIT_PER_MINUTE:-30}"
  CALENDAR_RATE_LIMIT_PER_ADDRESS_PER_MINUTE="${CALENDAR_RATE_LIMIT_PER_ADDRESS_PER_MINUTE:-600}"
  LIVE_STREAMS_PER_USER="${LIVE_STREAMS_PER_USER:-5}"
  UPLOADS_PER_USER_PER_DAY="${UPLOADS_PER_USER_PER_DAY:-20}"
  API_TOKEN_RATE_LIMIT_PER_MINUTE="${API_TOKEN_RATE_LIMIT_PER_MINUTE:-600}"
  MAX_PENDING_BOOKINGS_PER_COACH="${MAX_PENDING_BOOKINGS_PER_COACH:-3}"
  # Webhooks (issue 37): a native mesh is for development and tests, where receivers listen on
  # this machine: it allows http:// and loopback addresses (Compose and Kubernetes do not).
  WEBHOOK_ALLOW_LOOPBACK="${WEBHOOK_ALLOW_LOOPBACK:-true}"
  WEBHOOK_TIMEOUT_MS="${WEBHOOK_TIMEOUT_MS:-5000}"
  WEBHOOK_INTERVAL_MS="${WEBHOOK_INTERVAL_MS:-1000}"
  # Conversations (issue 36): what one person may send.
  MESSAGES_PER_MINUTE="${MESSAGES_PER_MINUTE:-20}"
  NEW_CONVERSATIONS_PER_DAY="${NEW_CONVERSATIONS_PER_DAY:-10}"

  # Payments (issue 33): Stripe's API, or localstripe (deploy/localstripe/) on 127.0.0.1 when
  # neither STRIPE_API_BASE nor STRIPE_SECRET_KEY is given; 8420 for the default mesh, beside the
  # ops ports for a mesh moved elsewhere (like MailDev's).
  local localstripe_port=8420
  [[ "$OPS_PORT_BASE" != 9100 ]] && localstripe_port=$((OPS_PORT_BASE + 97))
  LOCALSTRIPE_PORT="${LOCALSTRIPE_PORT:-$localstripe_port}"
  LOCALSTRIPE_VENV="${LOCALSTRIPE_VENV:-$DEPLOY_DIR/.state/localstripe-venv}"
  LOCALSTRIPE_STORE="${LOCALSTRIPE_STORE:-$STATE_DIR/localstripe/store.pickle}"
  if [[ -z "${STRIPE_API_BASE:-}" && -z "${STRIPE_SECRET_KEY:-}" ]]; then
    START_LOCALSTRIPE=1
    LOCALSTRIPE_URL="http://127.0.0.1:$LOCALSTRIPE_PORT"
    STRIPE_API_BASE="$LOCALSTRIPE_URL"
    # localstripe takes any key that starts with sk_ (or pk_ in the browser).
    STRIPE_SECRET_KEY=sk_test_courtside_localstripe
    STRIPE_PUBLISHABLE_KEY="${STRIPE_PUBLISHABLE_KEY:-pk_test_courtside_localstripe}"
    # Served by nginx's /stripe/ (the browser stays on one origin and the CSP on 'self').
    STRIPE_JS_URL="${STRIPE_JS_URL:-/stripe/js.stripe.com/v3/}"
  elif [[ -n "${STRIPE_API_BASE:-}" && -n "${STRIPE_SECRET_KEY:-}" ]]; then
    START_LOCALSTRIPE=0
    LOCALSTRIPE_URL=''
    STRIPE_PUBLISHABLE_KEY="${STRIPE_PUBLISHABLE_KEY:-}"
    STRIPE_JS_URL="${STRIPE_JS_URL:-https://js.stripe.com/v3/}"
  else
    die "set both STRIPE_API_BASE and STRIPE_SECRET_KEY (Stripe: STRIPE_API_BASE=https://api.stripe.com and a test-mode sk_test_ key), or neither (localstripe)"
  fi
  # STRIPE_WEBHOOK_SECRET: given, or generated into the state folder (stripe_webhook_secret).
  STRIPE_WEBHOOK_SECRET="${STRIPE_WEBHOOK_SECRET:-}"
  PLATFORM_FEE_BPS="${PLATFORM_FEE_BPS:-1000}"
  PAYMENT_INTERVAL_MS="${PAYMENT_INTERVAL_MS:-2000}"
  RECONCILE_INTERVAL_MS="${RECONCILE_INTERVAL_MS:-3600000}"
}

# Replicas: an instance is a process's name (its first replica) or the name with -K (its K-th).
replicas_var() { local v="${1%-svc}"; echo "${v^^}_REPLICAS"; }
replicas_of() { local var; var="$(replicas_var "$1")"; echo "${!var:-1}"; }
# instances_of PROCESS: booking-svc, booking-svc-2, ... as many as it has replicas.
instances_of() {
  local n i
  n="$(replicas_of "$1")"
  echo "$1"
  for ((i = 2; i <= n; i++)); do echo "$1-$i"; done
}
process_of() { if [[ "$1" =~ ^(.+)-([0-9]+)$ ]]; then echo "${BASH_REMATCH[1]}"; else echo "$1"; fi; }
replica_offset() { if [[ "$1" =~ -([0-9]+)$ ]]; then echo $(((BASH_REMATCH[1] - 1) * REPLICA_PORT_STEP)); else echo 0; fi; }
# urls_of PROCESS: the comma-separated gRPC URLs of all its replicas (what a *_URL takes).
urls_of() {
  local urls=() instance
  for instance in $(instances_of "$1"); do urls+=("http://$BIND_HOST:$(port_of "$instance")"); done
  local IFS=,
  echo "${urls[*]}"
}

# port_of INSTANCE -> its main listening port; ops_port_of INSTANCE -> its ops port.
port_of() {
  echo $(($(base_port_of "$(process_of "$1")") + $(replica_offset "$1")))
}

ops_port_of() {
  echo $(($(base_ops_port_of "$(process_of "$1")") + $(replica_offset "$1")))
}

base_port_of() {
  case "$1" in
    identity-svc) echo "$IDENTITY_PORT" ;;
    coaching-svc) echo "$COACHING_PORT" ;;
    booking-svc) echo "$BOOKING_PORT" ;;
    gym-svc) echo "$GYM_PORT" ;;
    gateway) echo "$GATEWAY_PORT" ;;
    nginx) echo "$PORT" ;;
    *) die "unknown process $1" ;;
  esac
}

base_ops_port_of() {
  case "$1" in
    identity-svc) echo "$IDENTITY_OPS_PORT" ;;
    coaching-svc) echo "$COACHING_OPS_PORT" ;;
    booking-svc) echo "$BOOKING_OPS_PORT" ;;
    gym-svc) echo "$GYM_OPS_PORT" ;;
    gateway) echo "$GATEWAY_OPS_PORT" ;;
    *) die "unknown process $1" ;;
  esac
}

# worker_threads INSTANCE: TOKIO_WORKER_THREADS for it, when it has a say. Replicas of one
# process on this machine share its cores, as pods share a node's under their CPU limits: each of
# N replicas gets nproc/N worker threads (at least one), where one process alone keeps tokio's
# default of one per core. TOKIO_WORKER_THREADS in the environment applies to every process.
worker_threads() {
  local replicas cores
  if [[ -n "${TOKIO_WORKER_THREADS:-}" ]]; then
    echo "TOKIO_WORKER_THREADS=$TOKIO_WORKER_THREADS"
    return
  fi
  replicas="$(replicas_of "$(process_of "$1")")"
  ((replicas > 1)) || return 0
  cores="$(nproc)"
  echo "TOKIO_WORKER_THREADS=$((cores / replicas > 1 ? cores / replicas : 1))"
}

# process_env NAME: the exact environment (KEY=VALUE lines) a process is started with. This is the
# process contract; docker-compose.yml and deploy/k8s/ use the same names (check_consistency.py).
process_env() {
  local name="$1"
  echo "RUST_LOG=$RUST_LOG"
  [[ -n "$OTEL_EXPORTER_OTLP_ENDPOINT" ]] && echo "OTEL_EXPORTER_OTLP_ENDPOINT=$OTEL_EXPORTER_OTLP_ENDPOINT"
  echo "JWT_PUBLIC_KEY_FILE=$JWT_PUBLIC_KEY_FILE"
  echo "REDIS_URL=$(process_redis_url)"
  echo "REDIS_NAMESPACE=$REDIS_NAMESPACE"
  echo "LISTEN_ADDR=$BIND_HOST:$(port_of "$name")"
  echo "OPS_ADDR=$BIND_HOST:$(ops_port_of "$name")"
  worker_threads "$name"
  case "$(process_of "$name")" in
    gateway)
      echo "GRPC_RESOLVE_INTERVAL_MS=$GRPC_RESOLVE_INTERVAL_MS"
      echo "IDENTITY_URL=$(urls_of identity-svc)"
      echo "COACHING_URL=$(urls_of coaching-svc)"
      echo "BOOKING_URL=$(urls_of booking-svc)"
      echo "GYM_URL=$(urls_of gym-svc)"
      echo "UPLOAD_DIR=$UPLOAD_DIR"
      echo "AUTH_RATE_LIMIT_PER_MINUTE=$AUTH_RATE_LIMIT_PER_MINUTE"
      echo "AUTH_RATE_LIMIT_PER_EMAIL_PER_MINUTE=$AUTH_RATE_LIMIT_PER_EMAIL_PER_MINUTE"
      echo "TRUSTED_PROXIES=$TRUSTED_PROXIES"
      echo "PUBLIC_URL=$PUBLIC_URL"
      echo "CALENDAR_RATE_LIMIT_PER_MINUTE=$CALENDAR_RATE_LIMIT_PER_MINUTE"
      echo "CALENDAR_RATE_LIMIT_PER_ADDRESS_PER_MINUTE=$CALENDAR_RATE_LIMIT_PER_ADDRESS_PER_MINUTE"
      echo "LIVE_STREAMS_PER_USER=$LIVE_STREAMS_PER_USER"
      echo "UPLOADS_PER_USER_PER_DAY=$UPLOADS_PER_USER_PER_DAY"
      echo "API_TOKEN_RATE_LIMIT_PER_MINUTE=$API_TOKEN_RATE_LIMIT_PER_MINUTE"
      echo "STRIPE_PUBLISHABLE_KEY=$STRIPE_PUBLISHABLE_KEY"
      echo "STRIPE_JS_URL=$STRIPE_JS_URL"
      ;;
    *)
      echo "DATABASE_URL=$(service_database_url "$(process_of "$name")")"
      ;;
  esac
  case "$(process_of "$name")" in
    identity-svc)
      echo "JWT_PRIVATE_KEY_FILE=$JWT_PRIVATE_KEY_FILE"
      echo "ADMIN_EMAIL=$ADMIN_EMAIL"
      echo "ADMIN_PASSWORD=$ADMIN_PASSWORD"
      echo "ADMIN_NAME=$ADMIN_NAME"
      echo "PUBLIC_URL=$PUBLIC_URL"
      echo "SMTP_URL=$SMTP_URL"
      echo "MAIL_FROM=$MAIL_FROM"
      echo "WEBHOOK_ALLOW_LOOPBACK=$WEBHOOK_ALLOW_LOOPBACK"
      echo "WEBHOOK_TIMEOUT_MS=$WEBHOOK_TIMEOUT_MS"
      echo "WEBHOOK_INTERVAL_MS=$WEBHOOK_INTERVAL_MS"
      echo "MESSAGES_PER_MINUTE=$MESSAGES_PER_MINUTE"
      echo "NEW_CONVERSATIONS_PER_DAY=$NEW_CONVERSATIONS_PER_DAY"
      ;;
    booking-svc)
      echo "COACHING_URL=$(urls_of coaching-svc)"
      echo "MAX_PENDING_BOOKINGS_PER_COACH=$MAX_PENDING_BOOKINGS_PER_COACH"
      echo "GRPC_RESOLVE_INTERVAL_MS=$GRPC_RESOLVE_INTERVAL_MS"
      echo "STRIPE_API_BASE=$STRIPE_API_BASE"
      echo "STRIPE_SECRET_KEY=$STRIPE_SECRET_KEY"
      echo "STRIPE_WEBHOOK_SECRET=$(stripe_webhook_secret)"
      echo "PLATFORM_FEE_BPS=$PLATFORM_FEE_BPS"
      echo "PAYMENT_INTERVAL_MS=$PAYMENT_INTERVAL_MS"
      echo "RECONCILE_INTERVAL_MS=$RECONCILE_INTERVAL_MS"
      ;;
  esac
}

# ---------------------------------------------------------------------------------------------
# Installing what is missing (Debian)
# ---------------------------------------------------------------------------------------------

as_root() {
  if [[ $EUID -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    die "need root to run: $* (install sudo or run as root)"
  fi
}

APT_UPDATED=0
# apt_install PKG...: installs the packages dpkg does not know as installed; apt-get update at most once.
apt_install() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  ((${#missing[@]})) || return 0
  command -v apt-get >/dev/null || die "missing packages (${missing[*]}) and no apt-get to install them"
  if ((APT_UPDATED == 0)); then
    log "apt-get update"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    APT_UPDATED=1
  fi
  log "installing ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# ensure_system_packages: what up.sh needs from Debian, installed only when its command is missing.
ensure_system_packages() {
  local pkgs=()
  command -v curl >/dev/null || pkgs+=(curl ca-certificates)
  command -v openssl >/dev/null || pkgs+=(openssl)
  command -v nginx >/dev/null || pkgs+=(nginx)
  command -v pg_isready >/dev/null || pkgs+=(postgresql-client)
  if [[ "$PGHOST" == 127.0.0.1 || "$PGHOST" == localhost ]] && ! pg_cluster_installed; then
    pkgs+=(postgresql)
  fi
  command -v redis-cli >/dev/null || pkgs+=(redis-tools)
  if redis_is_local && ! command -v redis-server >/dev/null; then
    pkgs+=(redis-server)
  fi
  if [[ "${SKIP_BUILD:-}" != 1 ]]; then
    { command -v cc >/dev/null && command -v make >/dev/null; } || pkgs+=(build-essential)
    command -v pkg-config >/dev/null || pkgs+=(pkg-config)
  fi
  ((${#pkgs[@]} == 0)) || apt_install "${pkgs[@]}"
}

# ensure_toolchains: cargo, node and npm come with the machine; say so plainly when they do not.
ensure_toolchains() {
  [[ "${SKIP_BUILD:-}" == 1 || "${SKIP_CARGO_BUILD:-}" == 1 ]] || command -v cargo >/dev/null ||
    die "cargo not found: install Rust with rustup (https://rustup.rs) and put ~/.cargo/bin on PATH"
  if [[ "${SKIP_BUILD:-}" != 1 && "${SKIP_WEB_BUILD:-}" != 1 ]]; then
    command -v node >/dev/null || die "node not found: install Node.js 20 or newer"
    command -v npm >/dev/null || die "npm not found: install npm (comes with Node.js)"
    local major
    major="$(node -p 'process.versions.node.split(".")[0]')"
    ((major >= 20)) || die "Node.js $major is too old: the web app needs 20 or newer"
  fi
}

# ---------------------------------------------------------------------------------------------
# PostgreSQL and Redis
# ---------------------------------------------------------------------------------------------

pg_cluster_installed() { compgen -G "/etc/postgresql/*/main" >/dev/null; }

newest_pg_version() {
  local dirs=(/etc/postgresql/*/main)
  printf '%s\n' "${dirs[@]}" | cut -d/ -f4 | sort -V | tail -n1
}

pg_answers() { pg_isready -q -h "$PGHOST" -p "$PGPORT" -t 2 >/dev/null 2>&1; }

psql_admin() { psql -X -q -v ON_ERROR_STOP=1 -d postgres "$@"; }

wait_until() { # wait_until SECONDS CMD...: polls CMD every 0.2 s
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}

ensure_postgres() {
  if ! pg_answers; then
    [[ "$PGHOST" == 127.0.0.1 || "$PGHOST" == localhost ]] ||
      die "PostgreSQL at $PGHOST:$PGPORT does not answer (and is not local, so it is not started here)"
    pg_cluster_installed || die "no PostgreSQL cluster under /etc/postgresql (install the postgresql package)"
    local version
    version="$(newest_pg_version)"
    log "starting PostgreSQL $version"
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start ||
      die "PostgreSQL $version did not start; see /var/log/postgresql/postgresql-$version-main.log"
    wait_until 30 pg_answers || die "PostgreSQL at $PGHOST:$PGPORT did not answer within 30 s"
  fi
  if ! psql_admin -tAc 'select 1' >/dev/null 2>&1; then
    # A fresh Debian cluster asks for a password over TCP. For a local development cluster we let the
    # postgres role in from the loopback address only, as the machines this project runs on do.
    if [[ "$PGHOST" == 127.0.0.1 && "$PGUSER" == postgres && -z "${PGPASSWORD:-}" ]] && pg_cluster_installed; then
      local hba
      hba="/etc/postgresql/$(newest_pg_version)/main/pg_hba.conf"
      warn "PostgreSQL refused $PGUSER@$PGHOST without a password; allowing it from loopback in $hba"
      as_root sed -i '1i host all postgres 127.0.0.1/32 trust\nhost all postgres ::1/128 trust' "$hba"
      as_root runuser -u postgres -- psql -X -q -c 'select pg_reload_conf()' >/dev/null
      sleep 0.5
    fi
    psql_admin -tAc 'select 1' >/dev/null ||
      die "cannot sign in to PostgreSQL as $PGUSER at $PGHOST:$PGPORT (set PGUSER/PGPASSWORD)"
  fi
}

redis_host_port() { # from REDIS_URL: prints "host port"
  local rest="${REDIS_URL#*://}"
  rest="${rest##*@}"
  rest="${rest%%/*}"
  local host="${rest%%:*}" port=6379
  [[ "$rest" == *:* ]] && port="${rest##*:}"
  echo "$host $port"
}

redis_is_local() {
  local host _port
  read -r host _port < <(redis_host_port)
  [[ "$host" == 127.0.0.1 || "$host" == localhost ]]
}

# redis_answers: PONG to the credentials REDIS_URL carries, if any.
redis_answers() { [[ "$(redis_admin ping 2>/dev/null)" == PONG ]]; }

ensure_redis() {
  redis_answers && return 0
  redis_is_local || die "Redis at $REDIS_URL does not answer (and is not local, so it is not started here)"
  local _host port
  read -r _host port < <(redis_host_port)
  log "starting Redis on 127.0.0.1:$port"
  as_root mkdir -p /var/lib/redis /var/log/redis
  as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$port" --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_until 15 redis_answers || die "Redis on port $port did not answer within 15 s; see /var/log/redis/ci.log"
}

db_exists() { [[ "$(psql_admin -tAc "select 1 from pg_database where datname = '$1'")" == 1 ]]; }

# ensure_database NAME [fresh]: creates it when missing; "fresh" drops it first.
ensure_database() {
  local name="$1" fresh="${2:-}"
  [[ "$name" =~ ^[a-z_][a-z0-9_]*$ ]] || die "DB_NAME must be a plain lower-case identifier, not '$name'"
  if [[ "$fresh" == fresh ]] && db_exists "$name"; then
    log "dropping database $name"
    psql_admin -c "drop database \"$name\" with (force)"
  fi
  if ! db_exists "$name"; then
    log "creating database $name"
    psql_admin -c "create database \"$name\""
  fi
}

# ---------------------------------------------------------------------------------------------
# A PostgreSQL role per service and a Redis user per mesh: each process signs in as its own, with
# a password generated into the state folder like the admin's (deploy/README.md: Inside the cluster).
# ---------------------------------------------------------------------------------------------

# secret_of NAME: the password kept in $SECRET_DIR/NAME, made on first use (hex, so it needs no
# escaping in a URL). When only printing (up.sh --print-env) nothing is made: a placeholder says
# where it would be.
secret_of() {
  local file="$SECRET_DIR/$1"
  if [[ ! -s "$file" ]]; then
    if ((PRINT_ONLY)); then
      echo "<generated-into-$file>"
      return
    fi
    mkdir -p "$SECRET_DIR"
    chmod 700 "$SECRET_DIR"
    (umask 077 && openssl rand -hex 24 >"$file")
  fi
  echo "$(<"$file")"
}

# stripe_webhook_secret: STRIPE_WEBHOOK_SECRET when given, else whsec_<generated>, kept in the state
# folder (localstripe signs its events with it; with Stripe, give the endpoint's own secret).
stripe_webhook_secret() {
  if [[ -n "$STRIPE_WEBHOOK_SECRET" ]]; then
    echo "$STRIPE_WEBHOOK_SECRET"
  else
    echo "whsec_$(secret_of stripe-webhook)"
  fi
}

# schema_of SERVICE -> the schema it owns (identity-svc -> identity).
schema_of() { echo "${1%-svc}"; }

# db_role_of SERVICE -> its role: <DB_NAME>_<schema>_svc (courtside_identity_svc). Roles belong to
# the whole PostgreSQL cluster, and the machine's cluster holds several meshes' databases (the
# default, e2e, faults, bench ...): a role per database and service lets each mesh keep its own
# passwords without changing another's.
db_role_of() { echo "${DB_NAME}_$(schema_of "$1")_svc"; }

# service_database_url SERVICE: the DATABASE_URL the service is started with, signed in as its role.
service_database_url() {
  echo "postgres://$(db_role_of "$1"):$(secret_of "postgres-$1")@$PGHOST:$PGPORT/$DB_NAME"
}

# ensure_service_roles: each service's role, owning its schema (made if missing, handed over if an
# earlier start made it as the administrator) and nothing else, by deploy/docker/postgres-roles.sql,
# which docker-compose.yml runs too.
ensure_service_roles() {
  local service role
  for service in "${SERVICES[@]}"; do
    role="$(db_role_of "$service")"
    ((${#role} <= 63)) || die "the role $role is longer than PostgreSQL's 63 characters: choose a shorter DB_NAME"
    # The password goes in on stdin, not on a command line other users can see.
    { printf '\\set password %s\n' "$(secret_of "postgres-$service")" && cat "$DEPLOY_DIR/docker/postgres-roles.sql"; } |
      PGOPTIONS=--client-min-messages=warning psql -X -q -d "$DB_NAME" -v ON_ERROR_STOP=1 \
        -v role="$role" -v schema="$(schema_of "$service")" -f - >/dev/null ||
      die "could not set up the role $role and its schema in $DB_NAME"
  done
  log "PostgreSQL: roles $(for service in "${SERVICES[@]}"; do printf '%s ' "$(db_role_of "$service")"; done)each own their schema of $DB_NAME"
}

# check_schema_isolation: signed in as its role, each service reads its own schema and is refused
# every other one. up.sh runs it once the services have migrated.
check_schema_isolation() {
  local service other url out
  for service in "${SERVICES[@]}"; do
    url="$(service_database_url "$service")"
    psql -X -q -d "$url" -tAc "select count(*) from $(schema_of "$service")._sqlx_migrations" >/dev/null ||
      die "$(db_role_of "$service") cannot read its own schema $(schema_of "$service")"
    for other in "${SERVICES[@]}"; do
      [[ "$other" == "$service" ]] && continue
      if out="$(psql -X -q -d "$url" -tAc "select count(*) from $(schema_of "$other")._sqlx_migrations" 2>&1)"; then
        die "$(db_role_of "$service") reads the schema $(schema_of "$other") of $other: the roles are not isolated"
      fi
      [[ "$out" == *"permission denied for schema $(schema_of "$other")"* ]] ||
        die "$(db_role_of "$service") reading $(schema_of "$other") failed otherwise than by a refusal: $out"
    done
  done
  ok "each service's role reads its own schema and is refused the other three"
}

redis_admin() { redis-cli --no-auth-warning -u "$REDIS_URL" "$@"; }

# process_redis_url: REDIS_URL with this mesh's user and password instead of any credentials it has.
process_redis_url() {
  if ((!REDIS_WITH_USER)); then
    echo "$REDIS_URL"
    return
  fi
  local rest="${REDIS_URL#*://}"
  echo "${REDIS_URL%%://*}://$REDIS_USER:$(secret_of redis)@${rest##*@}"
}

# ensure_redis_user: the machine's Redis is shared by several meshes and by the tests, so rather
# than a password for everyone (requirepass), this mesh gets an ACL user of its own that reaches
# only its keys and channels (every key the code writes starts with `$REDIS_NAMESPACE:`) and no
# administrative or dangerous command. Redis's default user stays as it was.
ensure_redis_user() {
  [[ "$REDIS_NAMESPACE" =~ ^[A-Za-z0-9._-]+$ ]] ||
    die "REDIS_NAMESPACE may hold letters, digits, '.', '_' and '-' only, not '$REDIS_NAMESPACE'"
  local out
  out="$(printf 'ACL SETUSER %s reset on >%s ~%s:* &%s:* +@all -@admin -@dangerous\n' \
    "$REDIS_USER" "$(secret_of redis)" "$REDIS_NAMESPACE" "$REDIS_NAMESPACE" | redis_admin 2>&1)" || true
  case "$out" in
    OK)
      echo "$REDIS_USER" >"$SECRET_DIR/redis-user"
      log "Redis: the processes sign in as $REDIS_USER (keys and channels $REDIS_NAMESPACE:* only)"
      ;;
    *"unknown command"* | *"unknown subcommand"*)
      warn "Redis at $REDIS_URL has no ACLs (Redis 6 and newer have): the processes use REDIS_URL as it is"
      REDIS_WITH_USER=0
      ;;
    *) die "Redis refused the user $REDIS_USER: $out" ;;
  esac
}

# drop_redis_user: down.sh removes the user up.sh made for this state folder's mesh.
drop_redis_user() {
  local file="$SECRET_DIR/redis-user" user
  [[ -s "$file" ]] || return 0
  user="$(<"$file")"
  redis_admin ACL DELUSER "$user" >/dev/null 2>&1 || warn "could not remove the Redis user $user"
  rm -f "$file"
}

# ---------------------------------------------------------------------------------------------
# Builds
# ---------------------------------------------------------------------------------------------

build_rust() {
  local args=(build --workspace --bins)
  [[ "$PROFILE" == release ]] && args+=(--release)
  log "cargo ${args[*]}"
  (cd "$COURTSIDE_ROOT" && cargo "${args[@]}")
}

# npm_ci_if_needed DIR: npm ci in DIR (web/, deploy/openapi-lint/) when its node_modules is missing
# or older than its package-lock.json.
npm_ci_if_needed() {
  local dir="$1"
  [[ -f "$dir/package-lock.json" ]] || die "${dir#"$COURTSIDE_ROOT"/}/package-lock.json is missing"
  local marker="$dir/node_modules/.package-lock.json"
  if [[ ! -f "$marker" || "$dir/package-lock.json" -nt "$marker" ]]; then
    log "npm ci (${dir#"$COURTSIDE_ROOT"/})"
    (cd "$dir" && npm ci --no-audit --no-fund)
  fi
}

build_web() {
  npm_ci_if_needed "$WEB_DIR"
  log "npm run build (web)"
  (cd "$WEB_DIR" && npm run build)
}

# ---------------------------------------------------------------------------------------------
# Secrets: dev keys and the admin password, made once per state folder and never committed.
# ---------------------------------------------------------------------------------------------

ensure_keys() {
  mkdir -p "$KEY_DIR"
  chmod 700 "$KEY_DIR"
  if [[ ! -s "$JWT_PRIVATE_KEY_FILE" ]]; then
    log "generating an Ed25519 signing key in $KEY_DIR"
    (umask 077 && openssl genpkey -algorithm ed25519 -out "$JWT_PRIVATE_KEY_FILE")
    rm -f "$JWT_PUBLIC_KEY_FILE"
  fi
  if [[ ! -s "$JWT_PUBLIC_KEY_FILE" ]]; then
    openssl pkey -in "$JWT_PRIVATE_KEY_FILE" -pubout -out "$JWT_PUBLIC_KEY_FILE"
  fi
}

ensure_admin_password() {
  if [[ -z "$ADMIN_PASSWORD" ]]; then
    if [[ ! -s "$ADMIN_PASSWORD_FILE" ]]; then
      (umask 077 && openssl rand -base64 24 | tr -dc 'A-Za-z0-9' | head -c 20 >"$ADMIN_PASSWORD_FILE")
    fi
    ADMIN_PASSWORD="$(<"$ADMIN_PASSWORD_FILE")"
  fi
}

# ---------------------------------------------------------------------------------------------
# nginx
# ---------------------------------------------------------------------------------------------

# render_template FILE VAR...: prints FILE with ${VAR} replaced for the named variables only, so
# nginx's own $variables stay (the same rule as the nginx image's envsubst templates).
render_template() {
  local file="$1" text var value
  shift
  text="$(<"$file")"
  for var in "$@"; do
    value="${!var}"
    text="${text//"\${$var}"/$value}"
  done
  printf '%s\n' "$text"
}

NGINX_TEMPLATE_VARS=(NGINX_LISTEN GATEWAY_UPSTREAM WEB_ROOT UPLOAD_DIR NGINX_SNIPPET_DIR NGINX_REAL_IP_FROM STRIPE_JS_URL)

write_nginx_config() {
  local dir="$STATE_DIR/nginx"
  mkdir -p "$dir/tmp" "$LOG_DIR" "$RUN_DIR" "$UPLOAD_DIR"
  # shellcheck disable=SC2034 # read by render_template through ${!var}
  NGINX_LISTEN="$BIND_HOST:$PORT" NGINX_SNIPPET_DIR="$dir"
  # One upstream server per gateway replica: the template's `server ${GATEWAY_UPSTREAM};` line
  # becomes `server a; server b; ...`.
  local gateways=() instance
  for instance in $(instances_of gateway); do gateways+=("$BIND_HOST:$(port_of "$instance")"); done
  GATEWAY_UPSTREAM="${gateways[0]}"
  for instance in "${gateways[@]:1}"; do GATEWAY_UPSTREAM+="; server $instance"; done
  WEB_ROOT="$WEB_DIST"
  cp "$DEPLOY_DIR/nginx/security-headers.conf" "$dir/security-headers.conf"
  render_template "$DEPLOY_DIR/nginx/courtside.conf.template" "${NGINX_TEMPLATE_VARS[@]}" >"$dir/courtside.conf"
  # /stripe/ (localstripe's API and Stripe.js mock) exists only while this mesh runs a localstripe:
  # the template includes whatever optional/*.conf holds.
  mkdir -p "$dir/optional"
  rm -f "$dir/optional/"*.conf
  if ((START_LOCALSTRIPE)); then
    # shellcheck disable=SC2034 # read by render_template through ${!var}
    LOCALSTRIPE_UPSTREAM="127.0.0.1:$LOCALSTRIPE_PORT"
    render_template "$DEPLOY_DIR/nginx/localstripe.conf.template" LOCALSTRIPE_UPSTREAM NGINX_SNIPPET_DIR \
      >"$dir/optional/localstripe.conf"
  fi

  local user_line=''
  if [[ $EUID -eq 0 ]]; then
    # Workers drop to www-data when it can read the build and the uploads; a checkout under a
    # private home folder falls back to root workers (a development machine only).
    local nginx_user="${NGINX_USER:-www-data}"
    if id "$nginx_user" >/dev/null 2>&1 &&
      runuser -u "$nginx_user" -- test -r "$WEB_ROOT/index.html" 2>/dev/null &&
      runuser -u "$nginx_user" -- test -x "$UPLOAD_DIR" 2>/dev/null; then
      user_line="user $nginx_user;"
    else
      [[ -n "${NGINX_USER:-}" ]] || warn "nginx workers run as root: www-data cannot read $WEB_ROOT or $UPLOAD_DIR"
      user_line="user root;"
    fi
  fi
  local mime_types=/etc/nginx/mime.types
  [[ -f "$mime_types" ]] || die "$mime_types not found (is nginx installed?)"
  cat >"$STATE_DIR/nginx.conf" <<EOF
# Generated by deploy/up.sh from deploy/nginx/courtside.conf.template: edit the template, not this.
$user_line
worker_processes auto;
daemon off;
pid $RUN_DIR/nginx.master.pid;
error_log $LOG_DIR/nginx-error.log warn;

events {
    worker_connections 1024;
}

http {
    include $mime_types;
    default_type application/octet-stream;
    # Buffered: one write per 64 KB or per second rather than one per request.
    access_log $LOG_DIR/nginx-access.log combined buffer=64k flush=1s;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65;
    client_body_temp_path $dir/tmp/client_body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;

    include $dir/courtside.conf;
}
EOF
}

nginx_cmd() { echo nginx -e "$LOG_DIR/nginx-error.log" -c "$STATE_DIR/nginx.conf" -p "$STATE_DIR/"; }

nginx_test_config() {
  local out
  # shellcheck disable=SC2046
  out="$($(nginx_cmd) -t 2>&1)" || die "nginx rejected the generated config:"$'\n'"$out"
}

# ---------------------------------------------------------------------------------------------
# Processes: one pid file and one log per process, in this state folder only.
# ---------------------------------------------------------------------------------------------

# lock_state_dir: holds $STATE_DIR/.lock until this script exits; waits up to LOCK_TIMEOUT seconds
# (default 1800: a release build may be running) for another up.sh or down.sh of the same folder.
lock_state_dir() {
  exec {STATE_LOCK_FD}>"$STATE_DIR/.lock"
  if ! flock -n "$STATE_LOCK_FD"; then
    log "another up.sh or down.sh is working on $STATE_DIR; waiting for it"
    flock -w "${LOCK_TIMEOUT:-1800}" "$STATE_LOCK_FD" ||
      die "another up.sh or down.sh still holds $STATE_DIR/.lock; use another STATE_DIR (and ports) to run a second mesh"
  fi
}

pid_file() { echo "$RUN_DIR/$1.pid"; }
log_file() { echo "$LOG_DIR/$1.log"; }

# pid_of NAME: prints the pid when NAME runs from this state folder (guarding against a reused pid).
pid_of() {
  local file pid cmdline
  file="$(pid_file "$1")"
  [[ -s "$file" ]] || return 1
  pid="$(<"$file")"
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
  cmdline="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
  case "$1" in
    nginx) [[ "$cmdline" == *nginx* && "$cmdline" == *"$STATE_DIR"* ]] || return 1 ;;
    *) [[ "$cmdline" == *"$(process_of "$1")"* ]] || return 1 ;;
  esac
  echo "$pid"
}

port_in_use() { (exec 3<>"/dev/tcp/$BIND_HOST/$1") 2>/dev/null; }

# start_process NAME CMD...: runs CMD detached (own session), stdout and stderr to NAME's log.
start_process() {
  local name="$1" log pidf
  shift
  log="$(log_file "$name")"
  pidf="$(pid_file "$name")"
  mkdir -p "$LOG_DIR" "$RUN_DIR"
  [[ -f "$log" ]] && mv -f "$log" "$log.prev"
  rm -f "$pidf"
  # The inner shell writes its own pid, then execs: the pid file names the process itself.
  # shellcheck disable=SC2016 # expanded by the inner shell
  # The state folder's lock stays with this script: a process that kept it would block down.sh.
  if [[ -n "${STATE_LOCK_FD:-}" ]]; then
    setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pidf" "$@" </dev/null >>"$log" 2>&1 {STATE_LOCK_FD}>&- &
  else
    setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pidf" "$@" </dev/null >>"$log" 2>&1 &
  fi
  wait_until 5 test -s "$pidf" || die "$name did not start (see $log)"
}

start_rust_process() {
  local name="$1" bin envs
  bin="$BIN_DIR/$(process_of "$1")"
  [[ -x "$bin" ]] || die "$bin not found: build first (or unset SKIP_BUILD)"
  mapfile -t envs < <(process_env "$name")
  start_process "$name" env -i PATH="$PATH" HOME="${HOME:-/root}" LANG=C.UTF-8 \
    ${RUST_BACKTRACE:+RUST_BACKTRACE="$RUST_BACKTRACE"} "${envs[@]}" "$bin"
}

# stop_all: stops nginx, then the gateways, then the services of this state folder, every replica
# it started (however many the configuration names now).
stop_all() {
  local name pid pids=() names=() found=() process file
  for process in gateway "${SERVICES[@]}"; do
    for file in "$RUN_DIR/$process.pid" "$RUN_DIR/$process"-[0-9].pid; do
      [[ -e "$file" ]] && { name="${file##*/}" && found+=("${name%.pid}"); }
    done
  done
  for name in nginx maildev localstripe "${found[@]}"; do
    if pid="$(pid_of "$name")"; then
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid")
      names+=("$name")
    fi
    rm -f "$(pid_file "$name")"
  done
  ((${#pids[@]})) || return 0
  log "stopping ${names[*]}"
  local deadline=$((SECONDS + STOP_TIMEOUT)) alive
  while :; do
    alive=()
    for pid in "${pids[@]}"; do
      kill -0 "$pid" 2>/dev/null && alive+=("$pid")
    done
    ((${#alive[@]})) || break
    if ((SECONDS >= deadline)); then
      warn "still running after ${STOP_TIMEOUT}s, killing: ${alive[*]}"
      kill -KILL "${alive[@]}" 2>/dev/null || true
      break
    fi
    sleep 0.2
  done
}

json_escape() { # a string as the inside of a JSON string
  local s="${1//\\/\\\\}"
  s="${s//\"/\\\"}"
  printf '%s' "$s"
}

http_ok() { curl -fsS -o /dev/null -m 2 "$1" 2>/dev/null; }

# http_status URL: prints the status code (000 when nothing answered).
http_status() { curl -sS -o /dev/null -m 5 -w '%{http_code}' "$1" 2>/dev/null || true; }

fail_with_log() { # fail_with_log NAME MESSAGE
  local log
  log="$(log_file "$1")"
  printf '%serror:%s %s\n--- last 40 lines of %s ---\n' "$C_RED" "$C_OFF" "$2" "$log" >&2
  tail -n 40 "$log" >&2 2>/dev/null || echo "(no log)" >&2
  printf -- '---\n' >&2
  exit 1
}

# wait_ready: every replica's ops /readyz, each gateway's /readyz, then nginx serving the app and
# proxying /api. Fails fast when a process exits, naming it and showing its log; on a timeout it
# names the first process (services first, nginx last) that is still not ready.
wait_ready() {
  local deadline=$((SECONDS + READY_TIMEOUT)) i
  local procs=() urls=() ready=() name
  for name in "${INSTANCES[@]}"; do
    procs+=("$name") urls+=("http://$BIND_HOST:$(ops_port_of "$name")/readyz")
  done
  for name in $(instances_of gateway); do
    procs+=("$name") urls+=("http://$BIND_HOST:$(port_of "$name")/readyz")
  done
  procs+=(nginx) urls+=("$BASE_URL/")
  while :; do
    local pending=()
    for i in "${!procs[@]}"; do
      [[ -n "${ready[$i]:-}" ]] && continue
      pid_of "${procs[$i]}" >/dev/null || fail_with_log "${procs[$i]}" "${procs[$i]} exited before it was ready"
      if http_ok "${urls[$i]}"; then
        ready[i]=1
      else
        pending+=("$i")
      fi
    done
    ((${#pending[@]})) || break
    if ((SECONDS >= deadline)); then
      local first="${pending[0]}"
      fail_with_log "${procs[$first]}" "${procs[$first]} not ready after ${READY_TIMEOUT}s (${urls[$first]} does not answer 2xx)"
    fi
    sleep 0.25
  done
  # nginx reaches the gateway: any answer but a proxy error.
  local status
  status="$(http_status "$BASE_URL/api/openapi.json")"
  case "$status" in
    502 | 503 | 504 | 000) fail_with_log nginx "nginx answers $status for /api/openapi.json: it cannot reach the gateway" ;;
  esac
}

# ---------------------------------------------------------------------------------------------
# The development mail catcher
# ---------------------------------------------------------------------------------------------

# start_maildev: MailDev (pinned in deploy/maildev/) catching every email on MAIL_SMTP_PORT, with
# its web UI and REST API on MAIL_UI_PORT, both on 127.0.0.1; only when SMTP_URL was not given.
start_maildev() {
  ((START_MAILDEV)) || return 0
  npm_ci_if_needed "$DEPLOY_DIR/maildev"
  local port
  for port in "$MAIL_SMTP_PORT" "$MAIL_UI_PORT"; do
    port_in_use "$port" && die "port $port (for MailDev) is taken by another program: set MAIL_SMTP_PORT and MAIL_UI_PORT, or SMTP_URL"
  done
  start_process maildev node "$DEPLOY_DIR/maildev/node_modules/maildev/bin/maildev" \
    --ip 127.0.0.1 --smtp "$MAIL_SMTP_PORT" --web "$MAIL_UI_PORT"
  wait_until 30 http_ok "http://127.0.0.1:$MAIL_UI_PORT/" || fail_with_log maildev "MailDev did not start"
}

# ---------------------------------------------------------------------------------------------
# The development payment provider: localstripe (issue 33)
# ---------------------------------------------------------------------------------------------

# ensure_localstripe_venv: deploy/.state/localstripe-venv (LOCALSTRIPE_VENV) from the pinned
# deploy/localstripe/requirements.txt, made again only when that file changes; one for every mesh
# and test on this checkout (the Rust tests' platform::testing::Localstripe runs it too).
ensure_localstripe_venv() {
  local req="$DEPLOY_DIR/localstripe/requirements.txt" stamp="$LOCALSTRIPE_VENV/.requirements"
  if [[ -x "$LOCALSTRIPE_VENV/bin/python" && -f "$stamp" ]] && cmp -s "$req" "$stamp"; then
    return 0
  fi
  mkdir -p "$(dirname "$LOCALSTRIPE_VENV")"
  local lock_fd
  exec {lock_fd}>"$LOCALSTRIPE_VENV.lock"
  flock -w 600 "$lock_fd" || die "another script is making $LOCALSTRIPE_VENV since 10 minutes"
  if ! [[ -x "$LOCALSTRIPE_VENV/bin/python" && -f "$stamp" ]] || ! cmp -s "$req" "$stamp"; then
    command -v python3 >/dev/null || apt_install python3
    python3 -m venv --help >/dev/null 2>&1 || apt_install python3-venv
    log "python3 -m venv $LOCALSTRIPE_VENV; pip install -r deploy/localstripe/requirements.txt"
    rm -rf "$LOCALSTRIPE_VENV"
    python3 -m venv "$LOCALSTRIPE_VENV" || { apt_install python3-venv && python3 -m venv "$LOCALSTRIPE_VENV"; }
    "$LOCALSTRIPE_VENV/bin/pip" install --quiet --disable-pip-version-check -r "$req" ||
      { rm -rf "$LOCALSTRIPE_VENV" && die "could not install localstripe from deploy/localstripe/requirements.txt"; }
    cp "$req" "$stamp"
  fi
  exec {lock_fd}>&-
}

# start_localstripe: this mesh's localstripe (unless STRIPE_API_BASE and STRIPE_SECRET_KEY name
# another provider) on 127.0.0.1:LOCALSTRIPE_PORT, its store kept in LOCALSTRIPE_STORE across
# restarts (FRESH_DB=1 starts it over with the database), sending its events to the gateway.
start_localstripe() {
  ((START_LOCALSTRIPE)) || return 0
  ensure_localstripe_venv
  port_in_use "$LOCALSTRIPE_PORT" &&
    die "port $LOCALSTRIPE_PORT (for localstripe) is taken by another program: set LOCALSTRIPE_PORT, or STRIPE_API_BASE and STRIPE_SECRET_KEY"
  local store=()
  if [[ "$LOCALSTRIPE_STORE" != none ]]; then
    [[ "${FRESH_DB:-}" == 1 ]] && rm -f "$LOCALSTRIPE_STORE"
    store=(--store "$LOCALSTRIPE_STORE")
  fi
  # The webhook (every event, signed with STRIPE_WEBHOOK_SECRET, to the gateway through nginx) is
  # registered by run.py at each start: localstripe keeps webhook endpoints in memory only. The
  # secret goes in the environment, not on a command line every user can read.
  start_process localstripe env STRIPE_WEBHOOK_SECRET="$(stripe_webhook_secret)" \
    "$LOCALSTRIPE_VENV/bin/python" "$DEPLOY_DIR/localstripe/run.py" \
    --host 127.0.0.1 --port "$LOCALSTRIPE_PORT" --webhook-url "$BASE_URL/api/payments/webhook" "${store[@]}"
  wait_until 30 http_ok "$LOCALSTRIPE_URL/js.stripe.com/v3/" || fail_with_log localstripe "localstripe did not start"
}
