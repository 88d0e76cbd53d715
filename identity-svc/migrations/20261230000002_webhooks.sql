-- Issue 37, webhooks: subscriptions to event kinds, and their deliveries from identity's consumer
-- of every context's events (identity-svc/src/webhooks/).

-- A subscription. The secrets are kept as they are (signing needs them); `previous_secret` still
-- signs, beside the new one, until `previous_valid_until` (a rotation's overlap). `failing_since`
-- is the first failed attempt with no success since; a day of it disables the webhook.
create table identity.webhook (
    webhook_id uuid primary key,
    user_id uuid not null references identity.app_user (user_id) on delete cascade,
    url text not null,
    event_types text[] not null check (cardinality(event_types) >= 1),
    description text not null default '' check (char_length(description) <= 200),
    enabled boolean not null default true,
    disabled_reason text not null default '',
    secret text not null,
    previous_secret text,
    previous_valid_until timestamptz,
    failing_since timestamptz,
    created_at timestamptz not null default now()
);
create index webhook_user_idx on identity.webhook (user_id, created_at desc);

-- One event to one webhook. `seq` orders the deliveries of one record (`record_key`, "booking:<id>"):
-- a delivery waits while an older one of its record to its webhook is pending. A first delivery is
-- unique per (webhook, event), so an event read twice is enqueued once; a replay is a new row with
-- the same event id and `replay_of` its original.
create table identity.webhook_delivery (
    delivery_id uuid primary key,
    seq bigserial not null,
    webhook_id uuid not null references identity.webhook (webhook_id) on delete cascade,
    event_id uuid not null,
    event_type text not null,
    record_key text not null,
    payload jsonb not null,
    status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
    attempts integer not null default 0,
    next_attempt_at timestamptz,
    lease_until timestamptz,
    replay_of uuid references identity.webhook_delivery (delivery_id) on delete set null,
    created_at timestamptz not null
);
create unique index webhook_delivery_once on identity.webhook_delivery (webhook_id, event_id)
    where replay_of is null;
create index webhook_delivery_due_idx on identity.webhook_delivery (next_attempt_at)
    where status = 'pending';
create index webhook_delivery_record_idx on identity.webhook_delivery (webhook_id, record_key, seq)
    where status = 'pending';
create index webhook_delivery_log_idx on identity.webhook_delivery (webhook_id, seq desc);

-- Each attempt of a delivery: the receiver's status code (none when it never answered), how long
-- it took, and what went wrong.
create table identity.webhook_attempt (
    delivery_id uuid not null references identity.webhook_delivery (delivery_id) on delete cascade,
    attempted_at timestamptz not null,
    status_code integer,
    latency_ms bigint not null,
    error text not null default ''
);
create index webhook_attempt_delivery_idx on identity.webhook_attempt (delivery_id, attempted_at);
