-- Issue 16: every place has an IANA time zone, and each coach a booking policy.

-- A location's zone. New rows always get one (named by the coach or derived from the bundled
-- gazetteer, platform::places). Rows that existed before are filled in by coaching-svc itself
-- right after it migrates (src/zones.rs): the derivation needs the gazetteer, which SQL has not
-- got. Until then, and for a row an older replica writes during a rolling deploy, a null is
-- derived when read, so no answer ever lacks a zone.
alter table coaching.location add column time_zone text;

-- The zone of a slot without a location. Profiles made before this had none: UTC, which is what
-- every slot's times were read as until now.
alter table coaching.coach_profile add column time_zone text not null default 'UTC';

-- A coach's limits on bookings of their slots, beside the availability. A coach without a row has
-- the defaults (the column defaults here and BookingPolicy::DEFAULT in src/domain/policy.rs).
create table coaching.booking_policy (
    coach_id uuid primary key,
    min_notice_minutes integer not null default 0 check (min_notice_minutes between 0 and 43200),
    max_advance_days integer not null default 365 check (max_advance_days between 1 and 730),
    response_window_minutes integer not null default 2880
        check (response_window_minutes between 1 and 20160),
    cancellation_window_minutes integer not null default 1440
        check (cancellation_window_minutes between 0 and 20160),
    updated_at timestamptz not null default now()
);
