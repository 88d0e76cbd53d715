-- Issue 18, calendars: each person's calendar feed, the secret in its address
-- (/api/calendar/<secret>.ics) that opens their sessions to a calendar app without a token.
--
-- The secret is kept as it is, not hashed: the owner's dashboard shows the address again whenever
-- they ask. Replacing it (a reset) is how an address that leaked is closed; the old secret then
-- opens nothing at once, since every fetch looks it up here. A deleted user's feed goes with them.
create table identity.calendar_feed (
    user_id uuid primary key references identity.app_user (user_id) on delete cascade,
    secret text not null,
    created_at timestamptz not null default now(),
    constraint calendar_feed_secret_key unique (secret)
);
