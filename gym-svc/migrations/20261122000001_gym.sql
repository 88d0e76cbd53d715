-- gym-svc's schema: gym profiles, gym locations, courts, court availability and coaches' court
-- reservations. Gym and coach ids are identity's user ids; no foreign key leaves this schema.

-- btree_gist lets one exclusion constraint combine `court_id with =` and a range overlap.
create extension if not exists btree_gist;

create table gym.gym_profile (
    gym_id uuid primary key,
    gym_name text not null check (char_length(gym_name) between 1 and 100),
    description text not null default '',
    phone text not null default '',
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);

create table gym.gym_location (
    location_id uuid primary key,
    gym_id uuid not null,
    name text not null check (char_length(name) between 1 and 100),
    address text not null,
    city text not null,
    state text not null,
    latitude double precision check (latitude between -90 and 90),
    longitude double precision check (longitude between -180 and 180),
    -- Set when the gym's account is deleted or leaves the gym role: its locations leave the
    -- directory while past reservations keep their names.
    delisted boolean not null default false,
    created_at timestamptz not null default now()
);
create index gym_location_gym_idx on gym.gym_location (gym_id, created_at);

create table gym.court (
    court_id uuid primary key,
    location_id uuid not null references gym.gym_location (location_id) on delete cascade,
    court_name text not null check (char_length(court_name) between 1 and 100),
    court_type text not null default 'basketball'
        check (court_type in ('basketball', 'volleyball', 'multi-purpose')),
    created_at timestamptz not null default now()
);
create index court_location_idx on gym.court (location_id, created_at);

create table gym.court_availability (
    availability_id uuid primary key,
    court_id uuid not null references gym.court (court_id) on delete cascade,
    date date not null,
    start_time time not null,
    end_time time not null,
    is_reserved boolean not null default false,
    -- Set when the gym's account is deleted or leaves the gym role: the time is no longer offered.
    withdrawn boolean not null default false,
    created_at timestamptz not null default now(),
    constraint court_availability_time_order check (end_time > start_time),
    -- Two offered times of one court never overlap (touching ends, 10:00-11:00 and 11:00-12:00, do not).
    constraint court_availability_no_overlap exclude using gist (
        court_id with =,
        tsrange(date + start_time, date + end_time) with &&
    ) where (not withdrawn)
);
create index court_availability_date_idx on gym.court_availability (date, start_time);

create table gym.court_reservation (
    reservation_id uuid primary key,
    availability_id uuid not null references gym.court_availability (availability_id) on delete cascade,
    coach_id uuid not null,
    status text not null default 'pending'
        check (status in ('pending', 'approved', 'denied', 'cancelled')),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);
-- One coach has at most one pending request per availability.
create unique index court_reservation_one_pending_per_coach
    on gym.court_reservation (availability_id, coach_id) where status = 'pending';
-- The database itself refuses a second approval of one availability.
create unique index court_reservation_one_approved
    on gym.court_reservation (availability_id) where status = 'approved';
create index court_reservation_coach_idx on gym.court_reservation (coach_id, created_at);

-- Events from identity-svc already applied, recorded in the same transaction as their effect.
create table gym.processed_event (
    event_id uuid primary key,
    processed_at timestamptz not null default now()
);
