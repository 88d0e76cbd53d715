-- Issue 17: a booking moved to another slot or date. The new booking names the one it was moved
-- from, the old (cancelled) one the booking it was moved to; both are written in one
-- transaction. No foreign keys: the old row names the new one before it exists in that
-- transaction's order, and neither ever changes afterwards.
alter table booking.booking
    add column rescheduled_from uuid,
    add column rescheduled_to uuid;
