-- Issue 19: reviews of sessions that took place. One per booking (the client of a completed
-- booking writes it); the coach replies once; the admin hides an abusive one with a reason, and a
-- hidden review counts in no average. `coach_review_revision` numbers the changes of each coach's
-- reviews: a change bumps it first (so changes of one coach's reviews queue on that row and each
-- reads the figures the one before it left), and the `coach_rating_changed` event carries it.
create table booking.review (
    review_id uuid primary key,
    booking_id uuid not null references booking.booking (booking_id) on delete cascade,
    coach_id uuid not null,
    client_id uuid not null,
    rating smallint not null check (rating between 1 and 5),
    comment text check (char_length(comment) <= 2000),
    created_at timestamptz not null,
    updated_at timestamptz not null,
    reply text check (char_length(reply) <= 2000),
    replied_at timestamptz,
    hidden_at timestamptz,
    hidden_reason text,
    -- The admin who hid it (the audit of that admin action, in the same row and transaction).
    hidden_by uuid,
    constraint review_booking_key unique (booking_id)
);
-- A coach's shown reviews, newest first (the list's keyset), and their figures.
create index review_coach_page_idx on booking.review (coach_id, created_at desc, review_id desc)
    include (rating) where hidden_at is null;

create table booking.coach_review_revision (
    coach_id uuid primary key,
    revision bigint not null
);
