-- Issue 21: a person's sessions (signed-in devices). A session is one token from one sign-in,
-- keyed by the token's id (jti); it ends when its token is revoked (logout, or ended from the list),
-- when its user's token version moves on (role or password changed), when it expires, or with its
-- user. Expired sessions are forgotten with expired revocations.
create table identity.session (
    jti uuid primary key,
    user_id uuid not null references identity.app_user (user_id) on delete cascade,
    -- The user's token version the token carries.
    token_version bigint not null,
    created_at timestamptz not null default now(),
    -- Coarse: renewed at most once a minute, when the session reads its own account.
    last_seen_at timestamptz not null default now(),
    expires_at timestamptz not null,
    user_agent text not null default ''
);
create index session_of_user on identity.session (user_id, created_at desc);
create index session_expires_at on identity.session (expires_at);
