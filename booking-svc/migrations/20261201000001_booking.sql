-- Bookings of coach slots. Coaches, clients and slots live in other contexts: no foreign keys
-- cross schemas, and a booking keeps a snapshot of the slot's times and place.

-- For the exclusion constraint below: gist operator classes for uuid and date equality.
create extension if not exists btree_gist;

create table booking.booking (
    booking_id uuid primary key,
    client_id uuid not null,
    coach_id uuid not null,
    slot_id uuid not null,
    booking_date date not null,
    start_time time not null,
    end_time time not null,
    location_name text not null default '',
    status text not null check (status in ('pending', 'confirmed', 'denied', 'cancelled')),
    payment_status text not null default 'pending',
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    constraint booking_times_check check (end_time > start_time)
);

-- No double booking, decided here and nowhere else. Created before the exclusion constraint so
-- that a second booking of the very same slot is reported as such.
create unique index booking_active_slot_key on booking.booking (coach_id, slot_id, booking_date)
    where status in ('pending', 'confirmed');

-- Nor two active bookings of one coach whose times overlap on one date, whatever their slots.
alter table booking.booking add constraint booking_no_overlap_excl
    exclude using gist (
        coach_id with =,
        booking_date with =,
        tsrange(booking_date + start_time, booking_date + end_time) with &&
    ) where (status in ('pending', 'confirmed'));

create index booking_client_idx on booking.booking (client_id, booking_date, start_time);
create index booking_coach_idx on booking.booking (coach_id, booking_date, start_time);
create index booking_created_at_idx on booking.booking (created_at);

-- Events already applied, recorded in the same transaction as their effect.
create table booking.processed_event (
    event_id uuid primary key,
    processed_at timestamptz not null default now()
);
