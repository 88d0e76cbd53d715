-- Issue 18, calendars. Every booking keeps a revision: 0 when it is made, one more with every
-- change of it. It is the event's SEQUENCE in the calendar feeds (RFC 5545): a subscribed calendar
-- takes an event it already holds as changed when its SEQUENCE grows. And every booking knows
-- whether it was ever confirmed: a coach's feed shows the sessions they confirmed, and keeps them,
-- cancelled, once they are called off, while requests they never confirmed stay out of it.
--
-- A trigger keeps both, in the statement that changes the booking: no write can forget to raise
-- the revision, whoever adds one later.
alter table booking.booking
    add column revision bigint not null default 0,
    add column was_confirmed boolean not null default false;

-- What the rows already say: a coach cancels only a confirmed booking, and a late cancellation is
-- a client's cancel of a confirmed one. A client's timely cancel of a confirmed booking left no
-- trace; no calendar held it, the feeds being new.
update booking.booking set was_confirmed = true
where status in ('confirmed', 'completed', 'no_show') or cancelled_by = 'coach' or late_cancellation;

create function booking.booking_revised() returns trigger language plpgsql as $$
begin
    if tg_op = 'UPDATE' then
        new.revision := old.revision + 1;
        new.was_confirmed := old.was_confirmed;
    else
        new.revision := 0;
        new.was_confirmed := false;
    end if;
    if new.status = 'confirmed' then
        new.was_confirmed := true;
    end if;
    return new;
end
$$;

create trigger booking_revised before insert or update on booking.booking
    for each row execute function booking.booking_revised();
