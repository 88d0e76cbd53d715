-- Issue 20: the admin stats' bookings (the total and the bookings made per week) from counters
-- instead of a scan of every booking. Kept by statement triggers in the transaction of every write
-- to booking.booking, whichever path writes it (a booking's insert with its outbox event, a bulk
-- load by COPY), so they never drift from the table. Each count is spread over 16 shards picked by
-- the writing backend: concurrent bookings rarely wait on one row, and a read adds up at most 16
-- rows per count.
create table booking.booking_count (
    shard smallint primary key,
    bookings bigint not null
);
create table booking.booking_week (
    week_start date not null,
    shard smallint not null,
    bookings bigint not null,
    primary key (week_start, shard)
);

create function booking.count_bookings() returns trigger
language plpgsql as $$
declare
    s smallint := pg_backend_pid() % 16;
begin
    -- Rows are locked in one order (the total, then the weeks in key order), so two writers never
    -- wait on each other in a cycle.
    if tg_op = 'INSERT' then
        insert into booking.booking_count as c (shard, bookings)
        select s, count(*) from counted_new having count(*) > 0
        on conflict (shard) do update set bookings = c.bookings + excluded.bookings;
        insert into booking.booking_week as w (week_start, shard, bookings)
        select date_trunc('week', created_at at time zone 'utc')::date, s, count(*)
        from counted_new group by 1 order by 1
        on conflict (week_start, shard) do update set bookings = w.bookings + excluded.bookings;
    elsif tg_op = 'UPDATE' then
        -- Only a changed created_at moves a booking from one week to another; a status change, the
        -- usual update, writes nothing.
        insert into booking.booking_week as w (week_start, shard, bookings)
        select week_start, s, sum(delta) from (
            select date_trunc('week', created_at at time zone 'utc')::date as week_start, 1 as delta
            from counted_new
            union all
            select date_trunc('week', created_at at time zone 'utc')::date, -1 from counted_old
        ) moved
        group by week_start having sum(delta) <> 0 order by week_start
        on conflict (week_start, shard) do update set bookings = w.bookings + excluded.bookings;
    else
        insert into booking.booking_count as c (shard, bookings)
        select s, -count(*) from counted_old having count(*) > 0
        on conflict (shard) do update set bookings = c.bookings + excluded.bookings;
        insert into booking.booking_week as w (week_start, shard, bookings)
        select date_trunc('week', created_at at time zone 'utc')::date, s, -count(*)
        from counted_old group by 1 order by 1
        on conflict (week_start, shard) do update set bookings = w.bookings + excluded.bookings;
    end if;
    return null;
end
$$;

create trigger booking_counted_insert after insert on booking.booking
    referencing new table as counted_new
    for each statement execute function booking.count_bookings();
create trigger booking_counted_delete after delete on booking.booking
    referencing old table as counted_old
    for each statement execute function booking.count_bookings();
create trigger booking_counted_update after update on booking.booking
    referencing old table as counted_old new table as counted_new
    for each statement execute function booking.count_bookings();

-- The bookings there already.
insert into booking.booking_count (shard, bookings)
select 0, count(*) from booking.booking;
insert into booking.booking_week (week_start, shard, bookings)
select date_trunc('week', created_at at time zone 'utc')::date, 0, count(*)
from booking.booking group by 1;
