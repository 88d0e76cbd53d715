-- Issue 20: the admin's user list in pages, searched on the server, and the admin stats from
-- counters instead of scans of every user.

-- Pages of GET /admin/users?limit=&cursor= (newest first; role=… filters) are read by keyset:
-- (created_at desc, user_id) after the last row shown. These indexes hold that whole order, so a
-- page is one range scan wherever it starts and the whole list streams without a sort; they
-- replace the indexes that held created_at or role alone.
create index app_user_page_idx on identity.app_user (created_at desc, user_id);
create index app_user_role_page_idx on identity.app_user (role, created_at desc, user_id);
drop index identity.app_user_created_at_idx;
drop index identity.app_user_role_idx;

-- The admin's search (q=): a case-insensitive part of the full name, the email or the id, read by
-- LIKE '%…%' on one lower-cased text through a trigram index (pg_trgm, PostgreSQL's contrib: a
-- trusted extension, in every PostgreSQL package this project runs on). The operator class is
-- named in the schema the extension is in, wherever an earlier migration put it.
create extension if not exists pg_trgm;
do $$
declare
    trgm_schema name := (select n.nspname from pg_extension e
                         join pg_namespace n on n.oid = e.extnamespace
                         where e.extname = 'pg_trgm');
begin
    execute format(
        'create index app_user_search_idx on identity.app_user using gin '
        '((lower(full_name) || chr(31) || lower(email) || chr(31) || user_id::text) %I.gin_trgm_ops)',
        trgm_schema);
end
$$;

-- The stats' counts: users per role, and sign-ups per week (of the users who still exist, as
-- counting the users did). Kept by statement triggers in the transaction of every write to
-- identity.app_user, whichever path writes it (registration, the admin, the first admin, a delete,
-- a role change, a bulk load by COPY), so they never drift from the table. Each count is spread
-- over 16 shards picked by the writing backend: concurrent sign-ups rarely wait on one row, and a
-- read adds up at most 16 rows per count.
create table identity.user_count (
    role text not null,
    shard smallint not null,
    users bigint not null,
    primary key (role, shard)
);
create table identity.signup_week (
    week_start date not null,
    shard smallint not null,
    signups bigint not null,
    primary key (week_start, shard)
);

create function identity.count_users() returns trigger
language plpgsql as $$
declare
    s smallint := pg_backend_pid() % 16;
begin
    -- Rows are locked in one order (the role counts, then the weeks, each in key order), so two
    -- writers never wait on each other in a cycle.
    if tg_op = 'INSERT' then
        insert into identity.user_count as c (role, shard, users)
        select role, s, count(*) from counted_new group by role order by role
        on conflict (role, shard) do update set users = c.users + excluded.users;
        insert into identity.signup_week as w (week_start, shard, signups)
        select date_trunc('week', created_at at time zone 'utc')::date, s, count(*)
        from counted_new group by 1 order by 1
        on conflict (week_start, shard) do update set signups = w.signups + excluded.signups;
    elsif tg_op = 'DELETE' then
        insert into identity.user_count as c (role, shard, users)
        select role, s, -count(*) from counted_old group by role order by role
        on conflict (role, shard) do update set users = c.users + excluded.users;
        insert into identity.signup_week as w (week_start, shard, signups)
        select date_trunc('week', created_at at time zone 'utc')::date, s, -count(*)
        from counted_old group by 1 order by 1
        on conflict (week_start, shard) do update set signups = w.signups + excluded.signups;
    else
        -- A role change moves the user from one count to another (a changed created_at from one
        -- week to another); other updates write nothing.
        insert into identity.user_count as c (role, shard, users)
        select role, s, sum(delta) from (
            select role, 1 as delta from counted_new
            union all
            select role, -1 from counted_old
        ) moved
        group by role having sum(delta) <> 0 order by role
        on conflict (role, shard) do update set users = c.users + excluded.users;
        insert into identity.signup_week as w (week_start, shard, signups)
        select week_start, s, sum(delta) from (
            select date_trunc('week', created_at at time zone 'utc')::date as week_start, 1 as delta
            from counted_new
            union all
            select date_trunc('week', created_at at time zone 'utc')::date, -1 from counted_old
        ) moved
        group by week_start having sum(delta) <> 0 order by week_start
        on conflict (week_start, shard) do update set signups = w.signups + excluded.signups;
    end if;
    return null;
end
$$;

create trigger app_user_counted_insert after insert on identity.app_user
    referencing new table as counted_new
    for each statement execute function identity.count_users();
create trigger app_user_counted_delete after delete on identity.app_user
    referencing old table as counted_old
    for each statement execute function identity.count_users();
-- (Transition tables cannot go with a column list: every update runs it; only a change of role or
-- created_at writes.)
create trigger app_user_counted_role after update on identity.app_user
    referencing old table as counted_old new table as counted_new
    for each statement execute function identity.count_users();

-- The users there already.
insert into identity.user_count (role, shard, users)
select role, 0, count(*) from identity.app_user group by role;
insert into identity.signup_week (week_start, shard, signups)
select date_trunc('week', created_at at time zone 'utc')::date, 0, count(*)
from identity.app_user group by 1;
