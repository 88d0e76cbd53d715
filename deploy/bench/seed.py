#!/usr/bin/env python3
"""Seeds the bench database straight into each service's schema, with COPY, in a few seconds.

    seed.py --dsn postgres://... --password-hash '$argon2id$...' --password PW --out DIR [--scale N]

Writes (deterministic for one --seed, one --scale and one day), at --scale 1 (every count but the
per-coach and per-gym ones times N at --scale N: 10 gives 10,000 coaches, 100,000 clients,
2,000 gyms, 500,000 bookings, the heavy coach 5,000 of them):
  identity.app_user      1 admin is made by identity-svc; here 1,000 coaches, 10,000 clients and
                         200 gyms, all with the one precomputed argon2id hash of --password;
                         identity.client_profile for half of the clients
  coaching.*             a profile (with coaching's copy of the name), 2 locations (real US
                         cities from proto/platform/data/us_places.csv, jittered a mile or two),
                         5 weekly slots (5 different weekdays) per coach, and the review figures
                         booking's events would have left (coaching.coach_rating)
  booking.booking        50,000 bookings: one coach with 500 (5 slots x 100 weeks; x N weeks at
                         --scale N), the others 49 or 50 (5 slots x 10 weeks), each (coach, slot,
                         date) at most once, so the unique and the no-overlap constraints hold for
                         any status mix; booking.review: a review of about half the completed ones
  gym.*                  200 gyms, one location each, 5 courts each, 30 days x 3 times of availability
and into --out: fixtures.json (ids, emails and query points for the scenarios) and
booking_bodies.jsonl (one POST /api/bookings body per line: distinct future slot/date pairs that
no seeded booking uses, shuffled across the paid coaches) and booking_bodies_free.jsonl (the same
for the free coaches: every sixth coach has an hourly rate of 0, so booking them involves no
payment; the bench's "payments off" beside "payments on", issue 33).

The tables must be empty (the bench recreates the database): the seeder refuses otherwise.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import math
import random
import sys
import time
import uuid
from pathlib import Path
from zoneinfo import ZoneInfo

import psycopg

ROOT = Path(__file__).resolve().parents[2]
PLACES_CSV = ROOT / "proto" / "platform" / "data" / "us_places.csv"

# At --scale 1; main() multiplies them.
N_COACHES = 1_000
N_CLIENTS = 10_000
N_GYMS = 200
N_BOOKINGS = 50_000
HEAVY_BOOKINGS = 500  # one coach's list for GET /api/bookings
LOCATIONS_PER_COACH = 2
SLOTS_PER_COACH = 5
COURTS_PER_GYM = 5
AVAILABILITY_DAYS = 30
AVAILABILITY_TIMES = [(dt.time(8), dt.time(10)), (dt.time(13), dt.time(15)), (dt.time(18), dt.time(20))]
# Weeks (relative to this week's Monday) the bench's POSTs use: far past every seeded booking.
POST_WEEKS = range(20, 32)
FREE_COACH_EVERY = 6
RACE_WEEK = 40

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
FIRST = """James Mary Michael Patricia Robert Jennifer John Linda David Elizabeth William Barbara
Richard Susan Joseph Jessica Thomas Sarah Christopher Karen Charles Lisa Daniel Nancy Matthew Betty
Anthony Sandra Mark Margaret Donald Ashley Steven Kimberly Andrew Emily Paul Donna Joshua Michelle
Kenneth Carol Kevin Amanda Brian Melissa Timothy Deborah Ronald Stephanie Jason Rebecca George Sharon
Edward Laura Jeffrey Cynthia Ryan Dorothy Jacob Amy Gary Kathleen Nicholas Angela Eric Shirley
Jonathan Brenda Stephen Emma Larry Anna Justin Pamela Scott Nicole Brandon Samantha Benjamin
Katherine Samuel Christine Gregory Debra Alexander Rachel Patrick Carolyn Frank Janet Raymond Maria
Jack Olivia Dennis Heather Jerry Helen Tyler Catherine Aaron Diane""".split()
LAST = """Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez
Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez
Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green
Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz
Parker Cruz Edwards Collins Reyes Stewart Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan
Cooper Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood
James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long Ross
Foster""".split()
STREETS = """Main Oak Pine Maple Cedar Elm Washington Lake Hill Park Walnut Spring Ridge Church Willow
Jackson Franklin Lincoln Jefferson Madison Adams Sunset Highland River Center""".split()
REVIEW_COMMENTS = [
    "Great session, clear drills and lots of reps.",
    "Patient coach, my shooting form is already better.",
    "Good workout, started a few minutes late.",
    "Exactly what my daughter needed before tryouts.",
    "Knows the game, explains the why behind every drill.",
    "Fine, but the court was crowded.",
]
SPECIALTIES = [
    "basketball", "volleyball", "shooting", "ball handling", "defense", "footwork", "setting",
    "serving", "passing", "blocking", "conditioning", "post moves", "youth development",
    "beach volleyball", "game IQ",
]
GRADES = ["6th", "7th", "8th", "9th", "10th", "11th", "12th", "college", "adult"]


def fail(message: str) -> None:
    print(f"seed.py: error: {message}", file=sys.stderr)
    sys.exit(1)


class Ids:
    """UUIDs from the seeded generator: the same data set on every run of one seed."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def __call__(self) -> uuid.UUID:
        return uuid.UUID(int=self.rng.getrandbits(128), version=4)


def load_places(rng: random.Random) -> list[tuple[str, str, float, float, int, str]]:
    """The 150 most populous US places (name, state, lat, lng, population, time zone)."""
    if not PLACES_CSV.is_file():
        fail(f"{PLACES_CSV} is missing (the gazetteer platform::places ships)")
    with PLACES_CSV.open(newline="", encoding="utf-8") as f:
        rows = [
            (r["name"], r["state"], float(r["latitude"]), float(r["longitude"]), int(r["population"]),
             r["time_zone"])
            for r in csv.DictReader(f)
        ]
    rows.sort(key=lambda r: -r[4])
    return rows[:150]


def weighted_place(rng: random.Random, places, weights):
    return rng.choices(places, weights=weights, k=1)[0]


def jitter(rng: random.Random, lat: float, lng: float) -> tuple[float, float]:
    """A point a mile or two from the city centre."""
    return round(lat + rng.uniform(-0.03, 0.03), 6), round(lng + rng.uniform(-0.03, 0.03), 6)


def name(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def phone(rng: random.Random) -> str | None:
    return None if rng.random() < 0.2 else f"555-{rng.randrange(100, 1000)}-{rng.randrange(1000, 10000)}"


def past_ts(rng: random.Random, now: dt.datetime, max_days: int = 730) -> dt.datetime:
    return now - dt.timedelta(seconds=rng.randrange(3600, max_days * 86400))


def occurrence(monday: dt.date, week: int, weekday: int) -> dt.date:
    return monday + dt.timedelta(weeks=week, days=weekday)


def is_free(index: int) -> bool:
    """Every sixth coach but the heavy one (index 0) coaches for free (hourly rate 0: no payment,
    no card): the bench's booking creation with payments off (issue 33), beside the paid coaches'."""
    return index > 0 and index % FREE_COACH_EVERY == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dsn", required=True)
    parser.add_argument("--password-hash", required=True, help="a PHC argon2id hash of --password")
    parser.add_argument("--password", required=True, help="the password every seeded user signs in with")
    parser.add_argument("--out", required=True, type=Path, help="folder for fixtures.json and booking_bodies.jsonl")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--scale", type=int, default=1, choices=range(1, 101), metavar="N",
                        help="times the 1x data set (1 to 100): coaches, clients, gyms, bookings and the "
                             "heavy coach's bookings")
    args = parser.parse_args()
    global N_COACHES, N_CLIENTS, N_GYMS, N_BOOKINGS, HEAVY_BOOKINGS
    N_COACHES, N_CLIENTS, N_GYMS = N_COACHES * args.scale, N_CLIENTS * args.scale, N_GYMS * args.scale
    N_BOOKINGS, HEAVY_BOOKINGS = N_BOOKINGS * args.scale, HEAVY_BOOKINGS * args.scale
    if not args.password_hash.startswith("$argon2id$v=19$m=12288,t=3,p=1$"):
        fail("--password-hash must be an argon2id hash at the OWASP parameters (m=12288,t=3,p=1)")

    started = time.monotonic()
    rng = random.Random(args.seed)
    new_id = Ids(rng)
    now = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    today = now.date()
    monday = today - dt.timedelta(days=today.weekday())
    places = load_places(rng)
    weights = [math.sqrt(p[4]) for p in places]
    pw = args.password_hash

    # ---- identity ------------------------------------------------------------------------------
    users = []  # (user_id, email, hash, full_name, phone, role, created_at)
    coaches, clients, gyms = [], [], []
    coach_names: dict[uuid.UUID, str] = {}
    for i in range(N_COACHES):
        uid = new_id()
        coaches.append(uid)
        coach_names[uid] = name(rng)
        users.append((uid, f"coach{i:04d}@bench.example.com", pw, coach_names[uid], phone(rng), "coach", past_ts(rng, now)))
    for i in range(N_CLIENTS):
        uid = new_id()
        clients.append(uid)
        users.append((uid, f"client{i:05d}@bench.example.com", pw, name(rng), phone(rng), "client", past_ts(rng, now)))
    for i in range(N_GYMS):
        uid = new_id()
        gyms.append(uid)
        users.append((uid, f"gym{i:03d}@bench.example.com", pw, name(rng), phone(rng), "gym", past_ts(rng, now)))
    client_profiles = [
        (
            uid,
            rng.randrange(10, 40),
            rng.choice(GRADES),
            rng.choice(["basketball", "volleyball"]),
            rng.choice(["beginner", "intermediate", "advanced"]),
            None,
        )
        for uid in clients[: N_CLIENTS // 2]
    ]

    # ---- coaching ------------------------------------------------------------------------------
    profiles, locations, slots = [], [], []
    slots_of: dict[uuid.UUID, list[tuple]] = {}
    city_count: dict[tuple[str, str], int] = {}
    for index, coach in enumerate(coaches):
        created = past_ts(rng, now, 700)
        sport = rng.choice(["Basketball", "Volleyball"])
        specs = rng.sample(SPECIALTIES, rng.randrange(1, 4))
        years = rng.randrange(1, 26)
        rate = float(rng.randrange(40, 151))  # drawn for every coach: the rest of the data stays as it was
        profiles.append((
            coach,
            f"{sport} coach with {years} years on the court. I focus on {', '.join(specs)}.",
            specs,
            0.0 if is_free(index) else rate,
            years,
            created,
            created,
            coach_names[coach],  # coaching's copy of the name (issue 19: q and sort=name)
        ))
        home = weighted_place(rng, places, weights)
        own = []
        for k in range(LOCATIONS_PER_COACH):
            # The second location is in the same city half the time, else in another big city.
            city, state, lat, lng, _, zone = home if k == 0 or rng.random() < 0.5 else weighted_place(rng, places, weights)
            la, lo = jitter(rng, lat, lng)
            loc_id = new_id()
            own.append((loc_id, f"{city} {rng.choice(['Rec Center', 'High School Gym', 'Community Court', 'Sports Dome', 'YMCA'])}", zone))
            city_count[(city, state)] = city_count.get((city, state), 0) + 1
            locations.append((
                loc_id, coach, own[-1][1], f"{rng.randrange(10, 9999)} {rng.choice(STREETS)} St",
                f"Court {rng.randrange(1, 6)}", city, state, la, lo, zone, created + dt.timedelta(minutes=k + 1),
            ))
        mine = []
        for k, weekday in enumerate(sorted(rng.sample(range(7), SLOTS_PER_COACH))):
            start = dt.time(rng.randrange(7, 20), rng.choice([0, 30]))
            minutes = rng.choice([60, 60, 90])
            end = (dt.datetime.combine(today, start) + dt.timedelta(minutes=minutes)).time()  # by 21:00
            loc_id, loc_name, loc_zone = own[k % LOCATIONS_PER_COACH]
            slot = (new_id(), coach, "recurring", WEEKDAYS[weekday], None, start, end, loc_id,
                    created + dt.timedelta(minutes=10 + k))
            slots.append(slot)
            mine.append((slot[0], weekday, start, end, loc_name, loc_zone))
        slots_of[coach] = mine

    # ---- booking -------------------------------------------------------------------------------
    heavy = coaches[0]
    bookings = []

    def book(coach, slot_id, weekday, start, end, loc_name, zone, week):
        date = occurrence(monday, week, weekday)
        past = date < today
        r = rng.random()
        if past:
            status = "confirmed" if r < 0.6 else "cancelled" if r < 0.75 else "denied" if r < 0.85 else "pending"
        else:
            status = "pending" if r < 0.5 else "confirmed" if r < 0.9 else "cancelled"
        created = dt.datetime.combine(date, dt.time(0), dt.timezone.utc) - dt.timedelta(days=rng.randrange(1, 30))
        created = min(created, now)
        # The place's wall clock to UTC as booking-svc computes it (zoneinfo's fold=0 is the same
        # rule for gaps and repeats); the default policy's 48-hour response window.
        place = ZoneInfo(zone)
        starts_at = dt.datetime.combine(date, start, place).astimezone(dt.timezone.utc)
        ends_at = dt.datetime.combine(date, end, place).astimezone(dt.timezone.utc)
        expires_at = min(created + dt.timedelta(hours=48), starts_at)
        # As the scheduler would have left them: no seeded booking is still due to move.
        if status == "pending" and expires_at <= now:
            status = "expired"
        if status == "confirmed" and ends_at <= now:
            status = "completed"
        bookings.append((
            new_id(), rng.choice(clients), coach, slot_id, date, start, end, loc_name, status,
            "paid" if status == "completed" else "pending", created, created, zone, starts_at, ends_at,
            expires_at,
        ))

    heavy_weeks = HEAVY_BOOKINGS // SLOTS_PER_COACH
    for slot_id, weekday, start, end, loc_name, zone in slots_of[heavy]:
        for week in range(10 - heavy_weeks, 10):  # 100 weeks x 5 slots = 500 at --scale 1
            book(heavy, slot_id, weekday, start, end, loc_name, zone, week)
    rest = N_BOOKINGS - len(bookings)
    others = coaches[1:]
    per, extra = divmod(rest, len(others))  # 49 each, the first `extra` coaches 50
    for n, coach in enumerate(others):
        want = per + (1 if n < extra else 0)
        pairs = [(s, w) for w in range(-8, 2) for s in slots_of[coach]]  # 5 slots x 10 weeks
        for (slot_id, weekday, start, end, loc_name, zone), week in pairs[:want]:
            book(coach, slot_id, weekday, start, end, loc_name, zone, week)
    assert len(bookings) == N_BOOKINGS, len(bookings)

    # Reviews (issue 19): the client of a completed session reviews it half the time, mostly
    # warmly; each coach's figures are written as booking-svc's events would leave coaching's copy.
    # A generator of its own, so the rest of the data set is the one it was before reviews.
    review_rng = random.Random(args.seed + 1)
    reviews, figures = [], {}
    for b in bookings:
        if b[8] != "completed" or review_rng.random() >= 0.5:
            continue
        booking_id, client, coach, ends_at = b[0], b[1], b[2], b[14]
        stars = review_rng.choices([1, 2, 3, 4, 5], weights=[1, 1, 3, 8, 12])[0]
        written = min(ends_at + dt.timedelta(hours=review_rng.randrange(1, 72)), now)
        comment = review_rng.choice(REVIEW_COMMENTS) if review_rng.random() < 0.7 else None
        reviews.append((new_id(), booking_id, coach, client, stars, comment, written, written))
        count, total, by_star = figures.setdefault(coach, [0, 0, [0] * 5])
        figures[coach][0], figures[coach][1] = count + 1, total + stars
        by_star[stars - 1] += 1
    coach_ratings = [(coach, count, total, by_star, count) for coach, (count, total, by_star) in figures.items()]
    review_revisions = [(coach, count) for coach, (count, _, _) in figures.items()]

    # ---- gym -----------------------------------------------------------------------------------
    gym_profiles, gym_locations, courts, availability = [], [], [], []
    for gym in gyms:
        city, state, lat, lng, _, zone = weighted_place(rng, places, weights)
        created = past_ts(rng, now, 700)
        gym_name = f"{city} {rng.choice(['Hoops Center', 'Athletic Club', 'Sports Complex', 'Fieldhouse', 'Arena'])}"
        gym_profiles.append((gym, gym_name, f"Indoor courts in {city}, {state}.", phone(rng) or "", created, created))
        loc_id = new_id()
        la, lo = jitter(rng, lat, lng)
        gym_locations.append((loc_id, gym, f"{gym_name} Main", f"{rng.randrange(10, 9999)} {rng.choice(STREETS)} Ave",
                              city, state, la, lo, zone, created))
        for c in range(COURTS_PER_GYM):
            court_id = new_id()
            courts.append((court_id, loc_id, f"Court {c + 1}",
                           rng.choice(["basketball", "basketball", "volleyball", "multi-purpose"]),
                           created + dt.timedelta(minutes=c)))
            for day in range(AVAILABILITY_DAYS):
                date = today + dt.timedelta(days=day)
                for start, end in AVAILABILITY_TIMES:
                    availability.append((new_id(), court_id, date, start, end, False, False, created))

    # ---- the scenarios' inputs -----------------------------------------------------------------
    bodies, free_bodies = [], []
    for index, coach in enumerate(coaches):
        if index == 0:
            continue  # the heavy coach's slots are taken for 100 weeks
        for slot_id, weekday, *_ in slots_of[coach]:
            for week in POST_WEEKS:
                (free_bodies if is_free(index) else bodies).append(
                    {"coach_id": str(coach), "slot_id": str(slot_id),
                     "booking_date": occurrence(monday, week, weekday).isoformat()})
    rng.shuffle(bodies)
    del bodies[120_000:]  # more than a run posts; about 50,000 at --scale 1 anyway
    rng.shuffle(free_bodies)
    del free_bodies[120_000:]  # about 10,000 at --scale 1
    race_slot = slots_of[others[-1]][0]
    # The nearby search's point: the city with the most coach locations at --scale 1. At --scale N
    # the city whose count is closest to 1/N of the most: about as many coaches found as at 1x, so
    # the two runs compare what a search costs for its answer, not for an answer N times longer.
    most = max(city_count.values())
    (nearby_city, nearby_state), nearby_locations = min(
        city_count.items(), key=lambda kv: (abs(kv[1] - most / args.scale), kv[0]))
    nearby_point = next(p for p in places if (p[0], p[1]) == (nearby_city, nearby_state))

    # ---- write ---------------------------------------------------------------------------------
    tables = [
        ("identity.app_user", "user_id, email, password_hash, full_name, phone, role, created_at", users),
        ("identity.client_profile", "user_id, age, grade, sport, skill_level, profile_picture_url", client_profiles),
        ("coaching.coach_profile", "coach_id, bio, specialties, hourly_rate, years_experience, created_at, updated_at, coach_name", profiles),
        ("coaching.coach_rating", "coach_id, rating_count, rating_sum, stars, revision", coach_ratings),
        ("coaching.location", "location_id, coach_id, name, address, court_number, city, state, latitude, longitude, time_zone, created_at", locations),
        ("coaching.slot", "slot_id, coach_id, slot_type, day_of_week, specific_date, start_time, end_time, location_id, created_at", slots),
        ("booking.booking", "booking_id, client_id, coach_id, slot_id, booking_date, start_time, end_time, location_name, status, payment_status, created_at, updated_at, time_zone, starts_at, ends_at, expires_at", bookings),
        ("booking.review", "review_id, booking_id, coach_id, client_id, rating, comment, created_at, updated_at", reviews),
        ("booking.coach_review_revision", "coach_id, revision", review_revisions),
        ("gym.gym_profile", "gym_id, gym_name, description, phone, created_at, updated_at", gym_profiles),
        ("gym.gym_location", "location_id, gym_id, name, address, city, state, latitude, longitude, time_zone, created_at", gym_locations),
        ("gym.court", "court_id, location_id, court_name, court_type, created_at", courts),
        ("gym.court_availability", "availability_id, court_id, date, start_time, end_time, is_reserved, withdrawn, created_at", availability),
    ]
    built = time.monotonic()
    try:
        conn = psycopg.connect(args.dsn, autocommit=False)
    except psycopg.Error as e:
        fail(f"cannot connect to {args.dsn}: {e}")
    with conn:
        with conn.cursor() as cur:
            for schema_table in ("identity.app_user", "coaching.slot", "coaching.coach_rating", "booking.booking",
                                 "booking.review", "gym.court_availability"):
                cur.execute(f"select to_regclass('{schema_table}') is not null")
                if not cur.fetchone()[0]:
                    fail(f"{schema_table} does not exist: start the mesh first (each service migrates its schema)")
            cur.execute("select count(*) from identity.app_user where role <> 'admin'")
            if cur.fetchone()[0]:
                fail("identity.app_user already holds users: seed a fresh database (the bench recreates it)")
            for table, columns, rows in tables:
                t0 = time.monotonic()
                with cur.copy(f"copy {table} ({columns}) from stdin") as copy:
                    for row in rows:
                        copy.write_row(row)
                print(f"  {table:<26} {len(rows):>7} rows  {time.monotonic() - t0:5.2f} s")
        conn.commit()
        # As after any bulk load (and as autovacuum would within a minute): statistics for every
        # table of the four schemas, the small ones the seeder did not write included.
        with conn.cursor() as cur:
            cur.execute("select format('%I.%I', schemaname, tablename) from pg_tables"
                        " where schemaname in ('identity', 'coaching', 'booking', 'gym')")
            for (table,) in cur.fetchall():
                cur.execute(f"analyze {table}")
        conn.commit()
    conn.close()

    args.out.mkdir(parents=True, exist_ok=True)
    for file_name, lines in (("booking_bodies.jsonl", bodies), ("booking_bodies_free.jsonl", free_bodies)):
        with (args.out / file_name).open("w") as f:
            for body in lines:
                f.write(json.dumps(body, separators=(",", ":")) + "\n")
    fixtures = {
        "scale": args.scale,
        "password": args.password,
        "counts": {t: len(rows) for t, _, rows in tables},
        "heavy_coach": {"user_id": str(heavy), "email": "coach0000@bench.example.com",
                        "bookings": HEAVY_BOOKINGS},
        "coach_ids": [str(c) for c in coaches[1:101]],
        "client_emails": [f"client{i:05d}@bench.example.com" for i in range(0, N_CLIENTS, N_CLIENTS // 64)][:64],
        # Words the admin's search finds among many users (a common last name) and among few.
        "search": {"common": "smith", "rare": f"client{N_CLIENTS - 7:05d}"},
        "gym_location_ids": [str(row[0]) for row in gym_locations[:50]],
        "nearby": {"city": nearby_city, "state": nearby_state, "lat": nearby_point[2], "lng": nearby_point[3],
                   "radius": 25, "coach_locations_in_city": nearby_locations},
        "race": {"coach_id": str(others[-1]), "slot_id": str(race_slot[0]),
                 "booking_date": occurrence(monday, RACE_WEEK, race_slot[1]).isoformat()},
        "booking_bodies": len(bodies),
        "booking_bodies_free": len(free_bodies),
    }
    (args.out / "fixtures.json").write_text(json.dumps(fixtures, indent=2) + "\n")
    total = time.monotonic() - started
    print(f"seeded {sum(len(r) for _, _, r in tables):,} rows in {total:.1f} s "
          f"(generating {built - started:.1f} s, COPY + ANALYZE {total - (built - started):.1f} s)")


if __name__ == "__main__":
    main()
