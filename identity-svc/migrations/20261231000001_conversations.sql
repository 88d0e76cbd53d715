-- Issue 36, conversations: threads between two people, their messages and read state, the
-- bookings and court requests two people share (a copy kept from the events identity consumes),
-- blocks, reports and suspensions.
--
-- A thread outlives a deleted account: its messages stay (the sender reads "Deleted user"), so the
-- people of a thread and the sender of a message are kept without a foreign key.

create table identity.conversation (
    conversation_id uuid primary key,
    -- The two people, the lesser id first: one thread per pair.
    user_a uuid not null,
    user_b uuid not null,
    started_by uuid not null,
    created_at timestamptz not null default now(),
    -- The last message's time (the creation's before any): the list's order.
    updated_at timestamptz not null default now(),
    check (user_a < user_b),
    unique (user_a, user_b)
);

-- Each person's side of a thread: what they read up to, when they were last emailed about it.
create table identity.conversation_member (
    conversation_id uuid not null references identity.conversation (conversation_id) on delete cascade,
    user_id uuid not null,
    other_id uuid not null,
    read_at timestamptz,
    emailed_at timestamptz,
    primary key (conversation_id, user_id)
);
create index conversation_member_user_idx on identity.conversation_member (user_id);

create table identity.message (
    message_id uuid primary key,
    conversation_id uuid not null references identity.conversation (conversation_id) on delete cascade,
    sender_id uuid not null,
    -- Plain text as given (trimmed, 1 to 2000 characters): never HTML.
    body text not null,
    created_at timestamptz not null default now()
);
create index message_thread_idx on identity.message (conversation_id, created_at desc, message_id desc);
-- The rate limit: a sender's messages of the last minute.
create index message_sender_idx on identity.message (sender_id, created_at desc);

-- A booking (coach and client) or court request (coach and gym) two people share, upserted from
-- each of its events with its latest status (the newest event wins, whatever order they arrive in).
create table identity.shared_record (
    record_id uuid primary key,
    kind text not null check (kind in ('booking', 'court_request')),
    user_a uuid not null,
    user_b uuid not null,
    record_date text not null,
    start_time text not null,
    end_time text not null,
    status text not null,
    occurred_at timestamptz not null,
    check (user_a < user_b)
);
create index shared_record_pair_idx on identity.shared_record (user_a, user_b, record_date desc);

-- Either person may block the other: no new messages either way, no new thread.
create table identity.user_block (
    blocker_id uuid not null references identity.app_user (user_id) on delete cascade,
    blocked_id uuid not null references identity.app_user (user_id) on delete cascade,
    created_at timestamptz not null default now(),
    primary key (blocker_id, blocked_id)
);
create index user_block_blocked_idx on identity.user_block (blocked_id);

-- One report per person per message, for the admin.
create table identity.message_report (
    report_id uuid primary key,
    message_id uuid not null references identity.message (message_id) on delete cascade,
    reporter_id uuid not null,
    reason text not null,
    created_at timestamptz not null default now(),
    unique (message_id, reporter_id)
);
create index message_report_newest_idx on identity.message_report (created_at desc, report_id desc);

-- An admin's suspension: sign-in refused, sessions and tokens ended.
alter table identity.app_user add column suspended_at timestamptz;
