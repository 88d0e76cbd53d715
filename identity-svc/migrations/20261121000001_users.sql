create table identity.app_user (
    user_id uuid primary key,
    email text not null,
    password_hash text not null,
    full_name text not null,
    phone text,
    role text not null check (role in ('admin', 'coach', 'client', 'gym')),
    -- Bumped when the role or password changes: older tokens stop working.
    token_version bigint not null default 0,
    created_at timestamptz not null default now()
);

-- Emails are unique whatever their case; the application stores them trimmed and lower-cased.
create unique index app_user_email_key on identity.app_user (lower(email));
create index app_user_role_idx on identity.app_user (role);
create index app_user_created_at_idx on identity.app_user (created_at);

create table identity.client_profile (
    user_id uuid primary key references identity.app_user (user_id) on delete cascade,
    age integer,
    grade text,
    sport text,
    skill_level text check (skill_level in ('beginner', 'intermediate', 'advanced')),
    profile_picture_url text
);

-- Tokens revoked before they expire (logout).
create table identity.revoked_token (
    jti uuid primary key,
    expires_at timestamptz not null
);

-- The transactional outbox: facts written with the change, relayed to Redis Streams.
create table identity.outbox (
    event_id uuid primary key,
    payload jsonb not null,
    created_at timestamptz not null default now(),
    published_at timestamptz
);
create index outbox_unpublished_idx on identity.outbox (created_at) where published_at is null;
