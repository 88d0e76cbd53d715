-- Issue 37: personal API tokens of coaches, gyms and admins. Only the SHA-256 of a token's secret is
-- kept; the secret is shown once, when the token is made. A revoked token stays (revoked_at set)
-- so its id is never reused and a revocation reads the same everywhere; lists leave it out.
create table identity.api_token (
    token_id uuid primary key,
    user_id uuid not null references identity.app_user (user_id) on delete cascade,
    name text not null,
    scopes text[] not null,
    -- "cst_" and the first characters of the secret, to tell tokens apart in a list.
    prefix text not null,
    secret_hash bytea not null unique,
    created_at timestamptz not null default now(),
    expires_at timestamptz,
    -- Coarse: moved at most once a minute, by the exchanges that use the token.
    last_used_at timestamptz,
    revoked_at timestamptz
);
create index api_token_of_user on identity.api_token (user_id, created_at desc);

-- An admin's token use is in the audit trail: target_type 'api_token', the token's id and name,
-- and what it was used for ("used_for": "GET /api/admin/users").
alter table identity.admin_audit drop constraint admin_audit_action_check;
alter table identity.admin_audit add constraint admin_audit_action_check
    check (action in ('user_created', 'user_updated', 'user_deleted', 'api_token_used'));
