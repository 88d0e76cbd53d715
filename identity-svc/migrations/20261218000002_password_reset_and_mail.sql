-- Issue 18, password reset and email.

-- A password-reset link's token, kept only as its SHA-256 (the link is the secret): valid until
-- `expires_at` (30 minutes), once. A reset deletes every token of its user, so an earlier link
-- stops working with it.
create table identity.password_reset (
    token_hash text primary key,
    user_id uuid not null references identity.app_user (user_id) on delete cascade,
    expires_at timestamptz not null,
    created_at timestamptz not null default now()
);
create index password_reset_user_idx on identity.password_reset (user_id);

-- The mail outbox: every email is written here in the transaction that makes it (a notification,
-- a reset link), and the sender delivers it over SMTP, retrying while the server is away, so none
-- is lost. A notification's email has the notification's id, from which its Message-ID is made.
create table identity.mail (
    mail_id uuid primary key,
    to_address text not null,
    subject text not null,
    text_body text not null,
    html_body text not null,
    -- An iCalendar attachment (a confirmed session), when there is one.
    ics text,
    created_at timestamptz not null default now(),
    next_attempt_at timestamptz not null default now(),
    attempts integer not null default 0,
    last_error text,
    sent_at timestamptz
);
create index mail_unsent_idx on identity.mail (next_attempt_at) where sent_at is null;

-- Which notifications each person also gets by email, by category; no row: all of them.
create table identity.notification_preference (
    user_id uuid primary key references identity.app_user (user_id) on delete cascade,
    email_bookings boolean not null default true,
    email_reminders boolean not null default true,
    email_account boolean not null default true
);
