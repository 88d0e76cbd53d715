-- Issue 18, calendars. Every court reservation keeps a revision: 0 when it is requested, one more
-- with every change of it. It is the event's SEQUENCE in the calendar feeds (RFC 5545): a
-- subscribed calendar takes an event it already holds as changed when its SEQUENCE grows. And
-- every reservation knows whether it was ever approved: the feeds of its coach and its gym show
-- the court time approved, and keep it, cancelled, once it is called off, while requests never
-- approved stay out of them.
--
-- A trigger keeps both, in the statement that changes the reservation: no write can forget to
-- raise the revision, whoever adds one later.
alter table gym.court_reservation
    add column revision bigint not null default 0,
    add column was_approved boolean not null default false;

-- What the rows already say. A gym's cancel of an approved reservation left no other trace; no
-- calendar held it, the feeds being new.
update gym.court_reservation set was_approved = true where status = 'approved';

create function gym.court_reservation_revised() returns trigger language plpgsql as $$
begin
    if tg_op = 'UPDATE' then
        new.revision := old.revision + 1;
        new.was_approved := old.was_approved;
    else
        new.revision := 0;
        new.was_approved := false;
    end if;
    if new.status = 'approved' then
        new.was_approved := true;
    end if;
    return new;
end
$$;

create trigger court_reservation_revised before insert or update on gym.court_reservation
    for each row execute function gym.court_reservation_revised();
