#!/usr/bin/env bash
# Stops exactly what deploy/up.sh started from the same STATE_DIR (default deploy/.state): nginx,
# the gateway and the four services, by their pid files, and removes the mesh's Redis user.
# PostgreSQL, Redis, the database and the services' roles stay.
# shellcheck source=deploy/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

load_config
lock_state_dir
stop_all
drop_redis_user
ok "stopped the mesh of $STATE_DIR"
