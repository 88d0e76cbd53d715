-- Issue 17: a gym closes a location for some dates (a tournament, repairs). Its court time on
-- those dates is not offered and cannot be requested; requests pending on them when the closure
-- is made are denied with its reason (in the closure's transaction, which locks the location row
-- against requests being made meanwhile).
create table gym.closure (
    closure_id uuid primary key,
    location_id uuid not null references gym.gym_location (location_id) on delete cascade,
    start_date date not null,
    end_date date not null,
    reason text,
    created_at timestamptz not null default now(),
    constraint closure_dates_in_order check (end_date >= start_date)
);

create index closure_location_idx on gym.closure (location_id, end_date, start_date);
