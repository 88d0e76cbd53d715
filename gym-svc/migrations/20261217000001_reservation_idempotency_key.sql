-- Issue 21: a court request keeps the idempotency key it was made with (the gateway passes the
-- coach's Idempotency-Key along), in the row itself, so the key is written in the request's
-- transaction. A retry whose first answer was lost finds the request by its coach and key instead
-- of being told a request is already pending. Unique per coach: one key makes at most one request.
alter table gym.court_reservation add column idempotency_key text;
create unique index court_reservation_coach_idempotency_key
    on gym.court_reservation (coach_id, idempotency_key)
    where idempotency_key is not null;
