-- Issue 17: a coach's time off, kept beside the availability and the booking policy. Dates are
-- the coach's local dates, both inclusive; booking-svc reads them with the slot it books and
-- refuses a booking on any of them.
create table coaching.time_off (
    time_off_id uuid primary key,
    coach_id uuid not null,
    start_date date not null,
    end_date date not null,
    reason text,
    created_at timestamptz not null default now(),
    constraint time_off_dates_in_order check (end_date >= start_date)
);

-- A coach's time off that has not ended, soonest first (the list, GetSlot and the calendar).
create index time_off_coach_idx on coaching.time_off (coach_id, end_date, start_date);
