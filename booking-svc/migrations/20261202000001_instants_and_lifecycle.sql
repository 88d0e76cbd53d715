-- Issue 16: a booking knows its instants and moves with the clock.
--
-- Each booking keeps its place's zone with the local date and times it already had, the two UTC
-- instants computed from them (platform::instants), when it expires if nobody answers it, and the
-- coach's cancellation window it was booked under. New statuses: expired, completed, no_show.
alter table booking.booking
    add column time_zone text,
    add column starts_at timestamptz,
    add column ends_at timestamptz,
    add column expires_at timestamptz,
    add column cancellation_window_minutes integer not null default 1440,
    add column late_cancellation boolean not null default false,
    add column cancelled_by text,
    add column cancellation_reason text;

-- Bookings made before zones were kept: nobody recorded their place's zone, so their wall clock is
-- read as UTC, and they are held to the default policy (48 hours to answer, 24 hours' free
-- cancellation). Pending ones already past their expiry, and confirmed ones already over, are
-- moved by the scheduler on its first run, each with its event.
update booking.booking
set time_zone = 'UTC',
    starts_at = (booking_date + start_time) at time zone 'UTC',
    ends_at = (booking_date + end_time) at time zone 'UTC',
    expires_at = least(created_at + interval '2880 minutes', (booking_date + start_time) at time zone 'UTC');

alter table booking.booking
    alter column time_zone set not null,
    alter column starts_at set not null,
    alter column ends_at set not null,
    alter column expires_at set not null,
    drop constraint booking_status_check,
    add constraint booking_status_check check (
        status in ('pending', 'confirmed', 'denied', 'cancelled', 'expired', 'completed', 'no_show')
    ),
    add constraint booking_instants_check check (ends_at > starts_at),
    add constraint booking_cancelled_by_check check (cancelled_by in ('client', 'coach')),
    add constraint booking_cancellation_window_check check (cancellation_window_minutes >= 0);

-- When the clock moves a booking next: a pending one expires, a confirmed one is completed; never,
-- once it is over. The scheduler claims what is due through the partial index below, which holds
-- the active bookings only.
alter table booking.booking add column due_at timestamptz generated always as (
    case status when 'pending' then expires_at when 'confirmed' then ends_at end
) stored;
create index booking_due_idx on booking.booking (due_at) where due_at is not null;

-- The transactional outbox: every transition's event, written in the transaction that makes it,
-- relayed to the Redis stream in `seq` order.
create table booking.outbox (
    event_id uuid primary key,
    payload jsonb not null,
    created_at timestamptz not null default now(),
    published_at timestamptz,
    seq bigint generated always as identity
);
create index outbox_unpublished_idx on booking.outbox (seq) where published_at is null;
create index outbox_published_at_idx on booking.outbox (published_at) where published_at is not null;
