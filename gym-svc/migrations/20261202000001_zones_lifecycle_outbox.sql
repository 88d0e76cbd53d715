-- Issue 16: gym locations have an IANA time zone, court requests expire at their start on their
-- own, the gym can cancel an approved reservation, and every reservation transition leaves as an
-- event through a transactional outbox.

-- A location's zone. New rows always get one (named by the gym or derived by the bundled
-- gazetteer, platform::places). Rows that existed before are filled in by gym-svc right after it
-- migrates, and again on every scheduler tick for a row an older replica writes during a rolling
-- deploy (src/zones.rs): the derivation needs the gazetteer, which SQL has not got. A read of a
-- row still without one derives it.
alter table gym.gym_location add column time_zone text;
create index gym_location_without_zone_idx on gym.gym_location (location_id) where time_zone is null;

-- Reservations: expired (a pending request nobody answered before its start) and the gym's cancel
-- of an approved reservation, with its reason.
alter table gym.court_reservation drop constraint court_reservation_status_check;
alter table gym.court_reservation add constraint court_reservation_status_check
    check (status in ('pending', 'approved', 'denied', 'cancelled', 'expired'));
alter table gym.court_reservation add column cancellation_reason text;

-- When a request is due to expire: the start instant of its court time (the location's wall
-- clock date and start time in its zone, computed by platform::instants). Filled in like the
-- zones for requests made before. The due-time index of the scheduler (src/scheduler.rs): only
-- pending requests are in it, so it holds what is still to do, not the history.
alter table gym.court_reservation add column expires_at timestamptz;
create index court_reservation_due_idx on gym.court_reservation (expires_at) where status = 'pending';
create index court_reservation_without_due_idx on gym.court_reservation (reservation_id)
    where expires_at is null;

-- The transactional outbox (platform::outbox): each reservation transition's event, written in
-- the transaction of the transition, relayed to the Redis stream.
create table gym.outbox (
    event_id uuid primary key,
    payload jsonb not null,
    created_at timestamptz not null default now(),
    published_at timestamptz,
    seq bigint generated always as identity
);
create index outbox_unpublished_idx on gym.outbox (seq) where published_at is null;
create index outbox_published_at_idx on gym.outbox (published_at) where published_at is not null;
