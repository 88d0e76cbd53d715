-- Issue 21: a booking keeps the idempotency key it was made with (the gateway passes the client's
-- Idempotency-Key along), in the row itself, so the key is written in the booking's transaction.
-- A retry whose first answer was lost finds the booking by its client and key instead of being
-- told the slot is taken. Unique per client: one key makes at most one booking.
alter table booking.booking add column idempotency_key text;
create unique index booking_client_idempotency_key
    on booking.booking (client_id, idempotency_key)
    where idempotency_key is not null;
