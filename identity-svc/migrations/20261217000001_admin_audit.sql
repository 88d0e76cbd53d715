-- Issue 21: the audit trail of admin actions on users, written by identity-svc in the transaction
-- of the change it records. Entries outlive the users they name (no foreign keys: a deleted user's
-- entry stays), never hold a password or a hash (a password change is recorded as a change of the
-- field "password" with neither value), and cannot be changed or removed: a trigger refuses every
-- update and delete, whoever asks.
create table identity.admin_audit (
    audit_id uuid primary key,
    at timestamptz not null default now(),
    admin_id uuid not null,
    action text not null check (action in ('user_created', 'user_updated', 'user_deleted')),
    target_type text not null default 'user',
    target_id uuid not null,
    -- What the target was called when the action was taken (a user's email).
    target_label text not null,
    request_id text not null default '',
    -- [{"field": "...", "old": "..." | null, "new": "..." | null}, ...]
    changes jsonb not null default '[]'
);
-- The trail newest first, a page at a time.
create index admin_audit_newest on identity.admin_audit (at desc, audit_id desc);

create function identity.admin_audit_append_only() returns trigger
language plpgsql as $$
begin
    raise exception 'the admin audit trail is append-only';
end
$$;
create trigger admin_audit_append_only before update or delete on identity.admin_audit
    for each row execute function identity.admin_audit_append_only();
