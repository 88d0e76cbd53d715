#!/usr/bin/env bash
# Stops exactly what deploy/up.sh started from the same STATE_DIR (default deploy/.state): nginx,
# the gateway, the four services, MailDev and localstripe, by their pid files, and removes the
# mesh's Redis user. PostgreSQL, Redis, the database, the services' roles and localstripe's store
# (its customers, cards and payments, for the next up.sh) stay.
# shellcheck source=deploy/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

load_config
lock_state_dir
stop_all
drop_redis_user
ok "stopped the mesh of $STATE_DIR"
