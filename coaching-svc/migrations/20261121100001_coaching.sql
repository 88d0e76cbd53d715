-- coaching: coach profiles, coach locations, availability slots. Every name is schema-qualified
-- (never `set search_path`: it breaks sqlx's migration bookkeeping when schemas share a database).
-- coach_id is identity's user id; no foreign key crosses schemas.

create table coaching.coach_profile (
    coach_id uuid primary key,
    bio text not null default '',
    specialties text[] not null default '{}',
    -- A range check also refuses NaN and infinity, which PostgreSQL orders above every number.
    hourly_rate double precision not null check (hourly_rate between 0 and 10000),
    years_experience integer not null check (years_experience between 0 and 100),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);
create index coach_profile_created_at_idx on coaching.coach_profile (created_at, coach_id);

create table coaching.location (
    location_id uuid primary key,
    coach_id uuid not null,
    name text not null,
    address text not null default '',
    court_number text not null default '',
    city text not null,
    state text not null,
    latitude double precision check (latitude between -90 and 90),
    longitude double precision check (longitude between -180 and 180),
    created_at timestamptz not null default now(),
    constraint location_coordinates_paired check ((latitude is null) = (longitude is null)),
    -- The target of slot's (location_id, coach_id) key: a slot's place is its own coach's.
    constraint location_owner_key unique (location_id, coach_id)
);
create index location_coach_idx on coaching.location (coach_id, created_at);
-- Nearby search: a bounding-box range on latitude (then longitude) before the exact distance.
create index location_lat_lng_idx on coaching.location (latitude, longitude) where latitude is not null;
-- City search is case-insensitive.
create index location_city_idx on coaching.location (lower(city));
create index location_state_idx on coaching.location (lower(state));

create table coaching.slot (
    slot_id uuid primary key,
    coach_id uuid not null,
    slot_type text not null check (slot_type in ('recurring', 'one-time')),
    day_of_week text check (
        day_of_week in ('Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday')
    ),
    specific_date date,
    start_time time not null,
    end_time time not null,
    location_id uuid,
    created_at timestamptz not null default now(),
    constraint slot_ends_after_start check (end_time > start_time),
    constraint slot_recurring_has_day check (
        slot_type <> 'recurring' or (day_of_week is not null and specific_date is null)
    ),
    constraint slot_one_time_has_date check (
        slot_type <> 'one-time' or (specific_date is not null and day_of_week is null)
    ),
    constraint slot_location_is_own foreign key (location_id, coach_id)
        references coaching.location (location_id, coach_id)
);
create index slot_coach_idx on coaching.slot (coach_id);

-- The directory's version (the gateway's ETag for GET /coaches): bumped by a trigger on every
-- statement that changes a profile or a location, in the same transaction, so a reader sees a
-- version that matches the rows it read.
create table coaching.directory_version (
    singleton boolean primary key default true check (singleton),
    version bigint not null
);
insert into coaching.directory_version (singleton, version) values (true, 1);

create function coaching.bump_directory_version() returns trigger
language plpgsql as $$
begin
    update coaching.directory_version set version = version + 1 where singleton;
    return null;
end;
$$;

create trigger coach_profile_bumps_directory_version
    after insert or update or delete or truncate on coaching.coach_profile
    for each statement execute function coaching.bump_directory_version();
create trigger location_bumps_directory_version
    after insert or update or delete or truncate on coaching.location
    for each statement execute function coaching.bump_directory_version();

-- Events from other contexts already applied, recorded in the same transaction as their effect.
create table coaching.processed_event (
    event_id uuid primary key,
    processed_at timestamptz not null default now()
);
