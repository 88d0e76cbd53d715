# shellcheck shell=bash
# The replica series of the bench, sourced by deploy/bench.sh when BENCH_REPLICAS is set (e.g.
# BENCH_REPLICAS=1,2,3), after the mesh is seeded and the clients signed in (issue 24):
# - for each count N: the mesh restarted with BOOKING_REPLICAS=N, then booking creation (wrk,
#   distinct slots, each round its own slice of the bodies) and a single read that booking-svc
#   answers (GET /api/bookings as a client who books nothing in the series, oha), with each replica's CreateBooking/ListBookings
#   calls and CPU seconds sampled before and after;
# - on the last count's mesh (at least 2), the fault step: booking load from Python threads, one replica killed
#   (SIGKILL) half-way, every request's status and detail kept; then lost writes (201s missing from
#   the database) and bookings created whose client was not told 201 are counted; the replica is
#   started again and the time until its first call is measured.
# Figures are printed, never asserted.

replica_counts() { tr ',' ' ' <<<"$BENCH_REPLICAS"; }

# booking_replicas N: "PID@OPS_URL" of each booking-svc replica of a mesh of N.
booking_replicas() {
  local n="$1" k name
  for ((k = 1; k <= n; k++)); do
    name=booking-svc
    ((k > 1)) && name="booking-svc-$k"
    echo "$(pid_of "$name")@http://$BIND_HOST:$(ops_port_of "$name")"
  done
}

replica_round() { # replica_round N SLICE_FILE
  local n="$1" slice="$2" reps TIMEFORMAT='{"user": %U, "sys": %S}'
  log "replicas: $n booking-svc"
  "$BENCH_ROOT/down.sh" >/dev/null 2>&1
  timed_up "replicas-$n" BOOKING_REPLICAS="$n" >/dev/null
  mapfile -t reps < <(BOOKING_REPLICAS="$n" booking_replicas "$n")

  "$PY" "$BENCH_DIR/replicas.py" calls "$RAW/replicas-$n-book.before.json" CreateBooking "${reps[@]}"
  BENCH_BODIES="$slice" BENCH_TOKENS="$RAW/client_tokens.txt" BENCH_OUT="$RAW/replicas-$n-book.json" \
    BENCH_THREADS=2 wrk -t2 -c "$CONC" -d "${DURATION}s" --timeout 5s -s "$BENCH_DIR/post_bookings.lua" \
    "$BASE_URL" >"$RAW/replicas-$n-book.txt" 2>&1 || warn "wrk failed: $(tail -n3 "$RAW/replicas-$n-book.txt")"
  "$PY" "$BENCH_DIR/replicas.py" calls "$RAW/replicas-$n-book.after.json" CreateBooking "${reps[@]}"

  "$PY" "$BENCH_DIR/replicas.py" calls "$RAW/replicas-$n-read.before.json" ListBookings "${reps[@]}"
  oha --no-tui --output-format json -z "${DURATION}s" -c "$CONC" "${GZ[@]}" -H "Authorization: Bearer $READ_TOKEN" \
    "$BASE_URL/api/bookings" >"$RAW/replicas-$n-read.json" 2>"$RAW/replicas-$n-read.err" ||
    warn "oha failed: $(tail -n3 "$RAW/replicas-$n-read.err")"
  "$PY" "$BENCH_DIR/replicas.py" calls "$RAW/replicas-$n-read.after.json" ListBookings "${reps[@]}"
}

replica_fault() { # replica_fault N SLICE_FILE: N >= 2
  local n="$1" slice="$2" victim=booking-svc-2 victim_pid
  log "replicas: fault step, $n booking-svc, $victim killed under booking load"
  victim_pid="$(pid_of "$victim")" || die "no pid for $victim"
  "$PY" "$BENCH_DIR/replicas.py" failover "$RAW/replicas-fault.json" "$BASE_URL" "$slice" \
    "$RAW/client_tokens.txt" "$DURATION" 16 "$((DURATION / 2))" "$victim_pid"
  # Lost writes: answered 201 but not in the database; and the other way round, bookings the
  # database holds from this step's bodies whose client was not answered 201.
  "$PY" - "$RAW/replicas-fault.json" "$DATABASE_URL" <<'EOF'
import json, sys
import psycopg
path, dsn = sys.argv[1:]
f = json.load(open(path))
created = set(f["created"])
bodies = [json.loads(b) for b in f["bodies"]]
with psycopg.connect(dsn) as conn, conn.cursor() as cur:
    cur.execute("select booking_id::text from booking.booking where booking_id = any(%s::uuid[])", (list(created),))
    found = {r[0] for r in cur.fetchall()}
    cur.execute(
        "select count(*) from booking.booking b join unnest(%s::uuid[], %s::uuid[], %s::date[]) as t(slot_id, coach_id, d)"
        " on b.slot_id = t.slot_id and b.coach_id = t.coach_id and b.booking_date = t.d",
        ([b["slot_id"] for b in bodies], [b["coach_id"] for b in bodies], [b["booking_date"] for b in bodies]))
    in_db = cur.fetchone()[0]
f["lost_writes"] = len(created - found)
f["created_unanswered"] = max(0, in_db - len(created))
json.dump(f, open(path, "w"))
EOF
  log "replicas: $victim started again"
  BOOKING_REPLICAS="$n" start_rust_process "$victim"
  BENCH_BODIES="$slice.after" BENCH_TOKENS="$RAW/client_tokens.txt" BENCH_OUT="$RAW/replicas-restart-load.json" \
    BENCH_THREADS=2 wrk -t2 -c "$CONC" -d "$((DURATION / 2 + 7))s" --timeout 5s -s "$BENCH_DIR/post_bookings.lua" \
    "$BASE_URL" >"$RAW/replicas-restart-load.txt" 2>&1 &
  BG_PIDS+=($!)
  "$PY" "$BENCH_DIR/replicas.py" first-call "$RAW/replicas-restart.json" \
    "http://$BIND_HOST:$(ops_port_of "$victim")" CreateBooking "$((DURATION / 2 + 6))"
  wait "${BG_PIDS[-1]}" || true
}

run_replica_series() {
  local counts n i=0 slices last
  # The read is a client who books nothing here, so every round reads the same list.
  READ_TOKEN="$(login "$(fixture 'client_emails[40]')")"
  read -r -a counts <<<"$(replica_counts)"
  for n in "${counts[@]}"; do
    [[ "$n" =~ ^[1-9]$ ]] || die "BENCH_REPLICAS takes counts from 1 to 9, comma-separated (e.g. 1,2,3), not '$BENCH_REPLICAS'"
  done
  last="${counts[-1]}"
  # Each round books its own slice of the bodies, so no round meets another's bookings.
  slices=$((${#counts[@]} + 2))
  split -n "l/$slices" -d -a 2 "$FIXTURES/booking_bodies.jsonl" "$RAW/bodies-"
  for n in "${counts[@]}"; do
    replica_round "$n" "$RAW/bodies-$(printf '%02d' "$i")"
    i=$((i + 1))
  done
  # The fault step runs on the last round's mesh.
  if ((last >= 2)); then
    cp "$RAW/bodies-$(printf '%02d' $((i + 1)))" "$RAW/bodies-$(printf '%02d' "$i").after"
    replica_fault "$last" "$RAW/bodies-$(printf '%02d' "$i")"
  fi
  echo
  "$PY" "$BENCH_DIR/replicas.py" table "$RAW" "${counts[@]}" | tee "$RESULTS/replicas-latest.txt"
}
