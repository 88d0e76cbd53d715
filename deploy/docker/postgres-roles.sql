-- One service's PostgreSQL role, owning its schema and nothing else. Run by an administrator,
-- connected to the mesh's database, once per service, each time the mesh starts (safe to repeat):
--   psql -v role=courtside_identity_svc -v schema=identity -v password=... -f postgres-roles.sql
-- deploy/up.sh (deploy/lib.sh's ensure_service_roles) and docker-compose.yml's `postgres-roles`
-- run it; on Kubernetes run it the same way against your PostgreSQL before the first start.
--
-- What it leaves:
-- - the role, able to log in with the password, no superuser, no role or database creation;
-- - its schema, created if missing and owned by the role, together with everything already in it
--   (a database first migrated by one shared role is handed over: tables with their sequences and
--   indexes, views, functions, types), so its migrations go on under the role;
-- - CREATE on the database, because sqlx runs `CREATE SCHEMA IF NOT EXISTS <schema>` before every
--   migration and PostgreSQL checks that right even when the schema exists;
-- - the extensions the migrations name, made here by the administrator in `public` (a service
--   role may not create objects there), so the migrations' `create extension if not exists` finds
--   them (deploy/check_consistency.py checks that this list covers every migration's);
-- - no right on any other schema: PostgreSQL grants none on a schema to anyone but its owner, and
--   this revokes any that was granted on this one, and PUBLIC's CREATE on `public` (PostgreSQL 14
--   and older grant it).
\set ON_ERROR_STOP on

create extension if not exists btree_gist;
create extension if not exists cube;
create extension if not exists pg_trgm;
revoke create on schema public from public;

-- psql does not expand its variables inside a dollar-quoted block: hand them over as settings.
select set_config('courtside.role', :'role', false),
       set_config('courtside.schema', :'schema', false),
       set_config('courtside.password', :'password', false) \gset

do $$
declare
    r text := current_setting('courtside.role');
    s text := current_setting('courtside.schema');
    o record;
begin
    if not exists (select from pg_roles where rolname = r) then
        execute format('create role %I', r);
    end if;
    execute format('alter role %I with login nosuperuser nocreatedb nocreaterole noinherit password %L',
                   r, current_setting('courtside.password'));
    execute format('grant create, connect on database %I to %I', current_database(), r);
    execute format('create schema if not exists %I authorization %I', s, r);
    execute format('alter schema %I owner to %I', s, r);

    -- What is already in the schema (tables take their indexes, triggers and owned sequences along).
    for o in
        select c.oid::regclass as name, c.relkind
        from pg_class c
        where c.relnamespace = s::regnamespace
          and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
          and pg_get_userbyid(c.relowner) <> r
          and not exists (
              select from pg_depend d
              where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype in ('a', 'i')
          )
    loop
        if o.relkind = 'S' then
            execute format('alter sequence %s owner to %I', o.name, r);
        elsif o.relkind = 'v' then
            execute format('alter view %s owner to %I', o.name, r);
        elsif o.relkind = 'm' then
            execute format('alter materialized view %s owner to %I', o.name, r);
        elsif o.relkind = 'f' then
            execute format('alter foreign table %s owner to %I', o.name, r);
        else
            execute format('alter table %s owner to %I', o.name, r);
        end if;
    end loop;
    for o in
        select p.oid::regprocedure as name from pg_proc p
        where p.pronamespace = s::regnamespace and pg_get_userbyid(p.proowner) <> r
    loop
        execute format('alter routine %s owner to %I', o.name, r);
    end loop;
    for o in
        select t.oid::regtype as name from pg_type t
        where t.typnamespace = s::regnamespace and t.typtype in ('e', 'd', 'r')
          and pg_get_userbyid(t.typowner) <> r
    loop
        execute format('alter type %s owner to %I', o.name, r);
    end loop;

    -- Nobody else keeps a right on this schema or what is in it.
    for o in
        select distinct a.grantee::regrole::text as who
        from pg_class c, aclexplode(c.relacl) a
        where c.relnamespace = s::regnamespace and a.grantee <> 0 and pg_get_userbyid(a.grantee) <> r
        union
        select distinct a.grantee::regrole::text
        from pg_namespace n, aclexplode(n.nspacl) a
        where n.oid = s::regnamespace and a.grantee <> 0 and pg_get_userbyid(a.grantee) <> r
    loop
        execute format('revoke all on schema %I from %s', s, o.who);
        execute format('revoke all on all tables in schema %I from %s', s, o.who);
        execute format('revoke all on all sequences in schema %I from %s', s, o.who);
    end loop;
    execute format('revoke all on schema %I from public', s);
    execute format('revoke all on all tables in schema %I from public', s);
end
$$;
