-- Issue 18, notifications: each person's inbox, filled from the booking and gym contexts' events
-- and from identity's own account facts, and the reminders the clock will send.

create table identity.notification (
    notification_id uuid primary key,
    user_id uuid not null references identity.app_user (user_id) on delete cascade,
    kind text not null,
    -- Which email preference governs it: bookings, reminders or account.
    category text not null check (category in ('bookings', 'reminders', 'account')),
    title text not null,
    body text not null,
    -- The app path that shows the thing.
    link text not null,
    created_at timestamptz not null default now(),
    read_at timestamptz
);
-- The inbox, newest first, by keyset.
create index notification_inbox_idx
    on identity.notification (user_id, created_at desc, notification_id desc);
create index notification_unread_idx on identity.notification (user_id) where read_at is null;

-- The events of other contexts identity has applied: a redelivery changes nothing.
create table identity.processed_event (
    event_id uuid primary key,
    processed_at timestamptz not null default now()
);

-- One reminder per confirmed booking or approved reservation (`subject_id`), sent by the
-- scheduler at `due_at` (24 hours before the session). `due_at` is null once it was sent, or when
-- the session was called off: the row stays as a tombstone so that a confirmation applied after
-- the cancellation (events of one stream may be applied by two replicas at once) schedules
-- nothing.
create table identity.reminder (
    subject_id uuid primary key,
    -- The notifications to write then: [{user_id, kind, category, title, body, link}].
    notices jsonb not null,
    due_at timestamptz,
    created_at timestamptz not null default now()
);
create index reminder_due_idx on identity.reminder (due_at) where due_at is not null;
