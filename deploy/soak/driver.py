"""The soak's clients and its reconciliation (deploy/soak.sh runs both). Python's standard library
only: no package to install on a fresh machine.

  driver.py run API OUT_DIR SECONDS RATE WORKERS
      Arranges coaches (a profile, a location, a policy that books two years ahead, hourly slots
      every day), clients and a gym with a court, then drives a mixed workload through API for
      SECONDS: browse the directory, a profile and slots; book; the coach approves; the client
      cancels; a coach requests a court the gym just opened; sign in again. RATE is requests per
      second over all WORKERS ("auto": half of what the mesh answers flat out, measured for 10 s
      first). Every write carries an Idempotency-Key and is retried with it, as a careful client
      does, on no answer, a 5xx or a 409 with Retry-After, until it is answered or 90 s pass.
      Writes OUT_DIR/attempts.jsonl (every request) and OUT_DIR/writes.jsonl (every write, its
      final answer).

  driver.py report OUT_DIR PSQL_DSN
      Reads those and OUT_DIR/faults.log ("<epoch seconds> <fault>" per line, written by soak.sh)
      and reconciles what clients were told with what the database holds (psql): requests, answers
      by status, 5xx without a detail, lost writes (acknowledged, missing), duplicated writes (two
      rows for one key), writes the database holds whose client gave up, and the longest time
      without a success after each fault. Figures are printed, never asserted.
"""

import json
import os
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from datetime import date, timedelta

PASSWORD = "Courtside-fixture-2026"
SLOT_HOURS = range(8, 14)  # 08:00 to 14:00, six hourly slots a day
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
RETRY_FOR = 90.0
CALL_TIMEOUT = 20.0


class Recorder:
    """Every attempt and every write's outcome, appended as JSON lines."""

    def __init__(self, out):
        self.lock = threading.Lock()
        self.attempts = open(os.path.join(out, "attempts.jsonl"), "w")
        self.writes = open(os.path.join(out, "writes.jsonl"), "w")

    def attempt(self, row):
        with self.lock:
            self.attempts.write(json.dumps(row) + "\n")

    def write(self, row):
        with self.lock:
            self.writes.write(json.dumps(row) + "\n")

    def close(self):
        self.attempts.close()
        self.writes.close()


class Client:
    def __init__(self, api, recorder, token=None):
        self.api = api
        self.recorder = recorder
        self.token = token

    def send(self, method, path, body=None, key=None, kind="read", record=True):
        """One attempt: (status, parsed body or None, has_detail). Status 0: no answer."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.api + path, data=data, method=method)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", "Bearer " + self.token)
        if key:
            request.add_header("Idempotency-Key", key)
        started = time.time()
        status, text, retry_after, replayed = 0, "", False, False
        try:
            with urllib.request.urlopen(request, timeout=CALL_TIMEOUT) as response:
                status = response.status
                text = response.read().decode("utf-8", "replace")
                replayed = response.headers.get("Idempotent-Replayed") == "true"
        except urllib.error.HTTPError as error:
            status = error.code
            text = error.read().decode("utf-8", "replace")
            retry_after = error.headers.get("Retry-After") is not None
        except Exception:  # noqa: BLE001 - no answer at all: refused, reset, timed out
            status = 0
        try:
            parsed = json.loads(text) if text else None
        except ValueError:
            parsed = None
        detail = isinstance(parsed, dict) and isinstance(parsed.get("detail"), str) and parsed["detail"].strip() != ""
        if record:
            self.recorder.attempt(
                {"t": started, "took": time.time() - started, "kind": kind, "method": method,
                 "status": status, "detail": detail, "replayed": replayed,
                 "text": text[:200] if status >= 500 and not detail else ""}
            )
        return status, parsed, detail, retry_after

    def write(self, method, path, body, kind, context):
        """A write with a fresh key, retried with it until answered (not 5xx, not 409-in-flight)."""
        key = str(uuid.uuid4())
        started = time.time()
        attempts = 0
        while True:
            attempts += 1
            status, parsed, _, retry_after = self.send(method, path, body, key, kind)
            in_flight = status == 409 and retry_after
            if status != 0 and status < 500 and not in_flight:
                break
            if time.time() - started > RETRY_FOR:
                break
            time.sleep(min(5.0, 0.2 * 2 ** min(attempts, 5)) * random.uniform(0.5, 1.0))
        self.recorder.write(
            {"kind": kind, "key": key, "status": status, "attempts": attempts, "context": context,
             "body": parsed if isinstance(parsed, dict) else None}
        )
        return status, parsed


def must(status, parsed, want, what):
    if status not in want:
        raise SystemExit(f"soak set-up: {what} answered {status}: {parsed}")
    return parsed


def register(api, recorder, role, name):
    client = Client(api, recorder)
    email = f"soak-{role}-{uuid.uuid4().hex[:12]}@soak.test"
    status, parsed = client.write(
        "POST", "/auth/register",
        {"email": email, "password": PASSWORD, "full_name": name, "role": role}, "register", {})
    must(status, parsed, (201,), f"register {role}")
    client.token = parsed["token"]
    client.user_id = parsed["user"]["user_id"]
    client.email = email
    return client


def arrange(api, recorder, workers):
    coaches, clients = [], []
    for n in range(workers):
        coach = register(api, recorder, "coach", f"Soak Coach {n}")
        # Free (rate 0): a booking needs no card, so the soak's clients book as they always did
        # (payments under faults are deploy/faults.sh --payments's, issue 33).
        must(*coach.write("POST", "/coach/profile", {"bio": "Coaches through faults.", "specialties": ["Shooting"],
                                                      "hourly_rate": 0.0, "years_experience": 8}, "setup", {}),
             (201,), "coach profile")
        must(*coach.write("PUT", "/coach/policy", {"min_notice_minutes": 0, "max_advance_days": 730,
                                                    "response_window_minutes": 20160,
                                                    "cancellation_window_minutes": 60}, "setup", {}),
             (200,), "coach policy")
        location = must(*coach.write("POST", "/locations", {
            "name": f"Soak Court {n}", "address": "1 Main St", "court_number": "2", "city": "Austin",
            "state": "TX", "latitude": 30.2672, "longitude": -97.7431}, "setup", {}), (201,), "coach location")
        coach.slots = {}
        for day in DAYS:
            for hour in SLOT_HOURS:
                slot = must(*coach.write("POST", "/availability", {
                    "slot_type": "recurring", "day_of_week": day, "start_time": f"{hour:02d}:00",
                    "end_time": f"{hour:02d}:50", "location_id": location["location_id"]}, "setup", {}),
                    (201,), "coach slot")
                coach.slots[(day, hour)] = slot["slot_id"]
        coaches.append(coach)
        clients.append(register(api, recorder, "client", f"Soak Client {n}"))
    gym = register(api, recorder, "gym", "Soak Gym")
    must(*gym.write("POST", "/gym/profile", {"gym_name": "Soak Gym", "description": "Courts", "phone": "555-0100"},
                    "setup", {}), (201,), "gym profile")
    location = must(*gym.write("POST", "/gym/locations", {"name": "Soak Gym North", "address": "1 Court St",
                                                          "city": "Austin", "state": "TX", "latitude": 30.3,
                                                          "longitude": -97.7}, "setup", {}), (201,), "gym location")
    court = must(*gym.write("POST", f"/gym/locations/{location['location_id']}/courts",
                            {"court_name": "Court 1", "court_type": "basketball"}, "setup", {}), (201,), "gym court")
    gym.court_id = court["court_id"]
    gym.lock = threading.Lock()
    gym.next = 0
    return coaches, clients, gym


class Worker:
    """One person's day, paced to its share of the rate: a client and their coach."""

    def __init__(self, n, api, recorder, coach, client, gym, directory_ids):
        self.n = n
        self.coach = coach
        self.client = client
        self.gym = gym
        self.reader = Client(api, recorder, client.token)
        self.directory_ids = directory_ids
        self.next_booking = 0
        self.pending = []  # booking ids the coach may approve
        self.open = []  # booking ids the client may cancel

    def book(self):
        n = self.next_booking
        self.next_booking += 1
        day = date.today() + timedelta(days=14 + n // len(SLOT_HOURS))
        hour = list(SLOT_HOURS)[n % len(SLOT_HOURS)]
        slot = self.coach.slots[(DAYS[day.weekday()], hour)]
        body = {"coach_id": self.coach.user_id, "slot_id": slot, "booking_date": day.isoformat()}
        status, parsed = self.client.write("POST", "/bookings", body, "book",
                                           {"client_id": self.client.user_id, **body})
        if status == 201:
            self.pending.append(parsed["booking_id"])
            self.open.append(parsed["booking_id"])

    def approve(self):
        if not self.pending:
            return self.book()
        booking_id = self.pending.pop(0)
        self.coach.write("PATCH", f"/coach/bookings/{booking_id}/approve", None, "approve",
                         {"booking_id": booking_id})

    def cancel(self):
        if not self.open:
            return self.book()
        booking_id = self.open.pop(random.randrange(len(self.open)))
        if booking_id in self.pending:
            self.pending.remove(booking_id)
        self.client.write("PATCH", f"/bookings/{booking_id}/cancel", {"reason": "Soak test."}, "cancel",
                          {"booking_id": booking_id})

    def court(self):
        with self.gym.lock:
            n = self.gym.next
            self.gym.next += 1
        day = date.today() + timedelta(days=14 + n // 12)
        hour = 8 + n % 12
        status, parsed = self.gym.write("POST", "/gym/court-availability", {
            "court_id": self.gym.court_id, "date": day.isoformat(), "start_time": f"{hour:02d}:00",
            "end_time": f"{hour:02d}:50"}, "court_open", {"n": n})
        if status == 201:
            self.coach.write("POST", "/coach/court-reservations", {"availability_id": parsed["availability_id"]},
                             "court_request", {"availability_id": parsed["availability_id"],
                                               "coach_id": self.coach.user_id})

    def browse(self):
        pick = random.random()
        if pick < 0.4:
            self.reader.send("GET", "/coaches", kind="browse")
        elif pick < 0.7:
            self.reader.send("GET", f"/coach/profile/{random.choice(self.directory_ids)}", kind="browse")
        elif pick < 0.9:
            self.reader.send("GET", f"/availability/coach/{random.choice(self.directory_ids)}", kind="browse")
        else:
            self.reader.send("GET", "/bookings", kind="browse")

    def login(self):
        status, parsed = self.client.write("POST", "/auth/login", {"email": self.client.email, "password": PASSWORD},
                                           "login", {})
        if status == 200:
            self.client.token = parsed["token"]
            self.reader.token = parsed["token"]

    MIX = [(0.45, "browse"), (0.25, "book"), (0.10, "approve"), (0.08, "cancel"), (0.07, "court"), (0.05, "login")]

    def act(self):
        pick, total = random.random(), 0.0
        for share, name in self.MIX:
            total += share
            if pick < total:
                return getattr(self, name)()
        return self.browse()

    def run(self, until, interval):
        due = time.time()
        while time.time() < until:
            self.act()
            if interval:
                due += interval
                pause = due - time.time()
                if pause > 0:
                    time.sleep(pause)
                else:
                    due = time.time()


def calibrate(workers, seconds=10):
    """Requests per second the mesh answers with every worker flat out, for `seconds`."""
    counts = []
    until = time.time() + seconds

    def flat_out(worker):
        n = 0
        while time.time() < until:
            worker.act()
            n += 1
        counts.append(n)

    threads = [threading.Thread(target=flat_out, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / seconds


def run(api, out, seconds, rate, n_workers):
    os.makedirs(out, exist_ok=True)
    recorder = Recorder(out)
    print(f"soak: arranging {n_workers} coaches and clients and a gym", flush=True)
    coaches, clients, gym = arrange(api, recorder, n_workers)
    ids = [c.user_id for c in coaches]
    workers = [Worker(n, api, recorder, coaches[n], clients[n], gym, ids) for n in range(n_workers)]
    if rate == "auto":
        flat = calibrate(workers)
        rate = max(1.0, flat / 2)
        print(f"soak: the mesh answers {flat:.1f} actions/s flat out; driving {rate:.1f}/s", flush=True)
    else:
        rate = float(rate)
    with open(os.path.join(out, "started"), "w") as f:
        f.write(f"{time.time()} {rate}\n")
    until = time.time() + seconds
    interval = n_workers / rate
    threads = [threading.Thread(target=w.run, args=(until, interval)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    recorder.close()
    print("soak: workload done", flush=True)


def psql(dsn, sql):
    # The statement goes on stdin: a long soak's id lists are longer than a command line may be.
    out = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", dsn],
                         input=sql, check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]


def report(out, dsn):
    attempts = [json.loads(line) for line in open(os.path.join(out, "attempts.jsonl"))]
    writes = [json.loads(line) for line in open(os.path.join(out, "writes.jsonl"))]
    started = float(open(os.path.join(out, "started")).read().split()[0])
    faults = []
    path = os.path.join(out, "faults.log")
    if os.path.exists(path):
        for line in open(path):
            at, name = line.split(maxsplit=1)
            faults.append((float(at), name.strip()))
    measured = [a for a in attempts if a["t"] >= started]

    by_status = {}
    for a in measured:
        by_status[a["status"]] = by_status.get(a["status"], 0) + 1
    bare_5xx = [a for a in measured if a["status"] >= 500 and not a["detail"]]
    print(f"requests: {len(measured)} (after the set-up; {len(attempts)} in all)")
    print("answers by status: " + ", ".join(
        f"{'no answer' if s == 0 else s}: {n}" for s, n in sorted(by_status.items())))
    print(f"5xx without a detail: {len(bare_5xx)}")
    for a in bare_5xx[:5]:
        print(f"  {a['method']} {a['kind']} {a['status']}: {a['text']!r}")
    replays = sum(1 for a in measured if a["replayed"])
    print(f"answers replayed for a retry (Idempotent-Replayed): {replays}")

    # Bookings: each acknowledged one is in the database; no key made two; none the database
    # holds for these clients is unknown to them.
    books = [w for w in writes if w["kind"] == "book"]
    acked = {w["body"]["booking_id"]: w for w in books if w["status"] == 201}
    clients = sorted({w["context"]["client_id"] for w in books})
    rows = []
    if clients:
        ids = ",".join(f"'{c}'" for c in clients)
        rows = psql(dsn, f"select booking_id, client_id, coach_id, slot_id, booking_date, coalesce(idempotency_key, ''), "
                         f"status from booking.booking where client_id in ({ids})")
    in_db = {r[0]: r for r in rows}
    lost = [b for b in acked if b not in in_db]
    per_key, per_request = {}, {}
    for r in rows:
        if r[5]:
            per_key[(r[1], r[5])] = per_key.get((r[1], r[5]), 0) + 1
        per_request[(r[1], r[2], r[3], r[4])] = per_request.get((r[1], r[2], r[3], r[4]), 0) + 1
    duplicated = sum(n - 1 for n in per_key.values() if n > 1) + sum(n - 1 for n in per_request.values() if n > 1)
    keys_told = {w["key"] for w in books if w["status"] == 201}
    gave_up = [r for r in rows if r[5] and r[5] not in keys_told]
    conflict_after_loss = [w for w in books if w["status"] == 409 and w["attempts"] > 1]

    # Moves: an acknowledged approve or cancel holds in the database (or a later move superseded it).
    moved = {"approve": ("confirmed", "cancelled", "completed", "no_show"), "cancel": ("cancelled",)}
    lost_moves = 0
    for w in writes:
        if w["kind"] in moved and w["status"] == 200:
            row = in_db.get(w["context"]["booking_id"])
            if row is None or row[6] not in moved[w["kind"]]:
                lost_moves += 1

    # Court requests: one pending request per coach and availability is a rule of the schema;
    # count acknowledged ones missing.
    courts = [w for w in writes if w["kind"] == "court_request" and w["status"] == 201]
    lost_courts = 0
    if courts:
        ids = ",".join(f"'{w['body']['reservation_id']}'" for w in courts)
        found = {r[0] for r in psql(dsn, f"select reservation_id from gym.court_reservation where reservation_id in ({ids})")}
        lost_courts = sum(1 for w in courts if w["body"]["reservation_id"] not in found)
    dup_courts = psql(dsn, "select coalesce(sum(n - 1), 0) from (select count(*) n from gym.court_reservation "
                           "group by availability_id, coach_id having count(*) > 1) d")[0][0]

    writes_measured = len(writes)
    unanswered = [w for w in writes if w["status"] == 0 or w["status"] >= 500]
    print(f"writes: {writes_measured} ({len(books)} bookings, {len(acked)} acknowledged); "
          f"given up after {RETRY_FOR:.0f} s of retries: {len(unanswered)}")
    print(f"lost writes (acknowledged, missing): {len(lost) + lost_moves + lost_courts} "
          f"(bookings {len(lost)}, approvals and cancels {lost_moves}, court requests {lost_courts})")
    print(f"duplicated writes (two rows for one key or one request): {duplicated + int(dup_courts)}")
    print(f"bookings held whose client gave up before an answer: {len(gave_up)}")
    print(f"bookings answered 409 after a retry (their first attempt may have committed): {len(conflict_after_loss)}")

    # The longest time without any success after each fault, until the next fault (or the end).
    successes = sorted(a["t"] + a["took"] for a in measured if 200 <= a["status"] < 500 and a["status"] != 429)
    end = max((a["t"] + a["took"] for a in measured), default=started)
    for i, (at, name) in enumerate(faults):
        window_end = faults[i + 1][0] if i + 1 < len(faults) else end
        points = [at] + [t for t in successes if at <= t <= window_end]
        gaps = [b - a for a, b in zip(points, points[1:])]
        longest = max(gaps, default=window_end - at)
        print(f"fault {i + 1} at +{at - started:.0f} s, {name}: longest time without a success {longest:.2f} s")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "run" and len(sys.argv) == 7:
        run(sys.argv[2].rstrip("/"), sys.argv[3], float(sys.argv[4]), sys.argv[5], int(sys.argv[6]))
    elif command == "report" and len(sys.argv) == 4:
        report(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
