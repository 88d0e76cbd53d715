-- Issue 19: each coach's review figures, a copy of booking's kept by its `coach_rating_changed`
-- events (the highest revision wins, so a late or repeated event changes nothing), read by the
-- directory in the same statement as the profiles.
create table coaching.coach_rating (
    coach_id uuid primary key,
    rating_count bigint not null check (rating_count >= 0),
    rating_sum bigint not null check (rating_sum >= 0),
    -- How many reviews gave one star, two, … five.
    stars bigint[] not null default '{0,0,0,0,0}',
    revision bigint not null
);
