-- Issue 20: the directory's revision, bumped in the same transaction as every change to what a
-- listing shows (profiles, locations, review figures). coaching-svc keeps the directory in memory
-- with the revision it was read at and reads it again only when the revision has moved: a page,
-- filtered or not, then costs one primary-key read instead of reading every coach. (Unlike the
-- directory version dropped in 20261125090000, this one is read: by every directory request.)
create table coaching.directory_revision (
    only_row boolean primary key default true check (only_row),
    revision bigint not null
);
insert into coaching.directory_revision (revision) values (1);

create function coaching.bump_directory_revision() returns trigger language plpgsql as $$
begin
    update coaching.directory_revision set revision = revision + 1;
    return null;
end
$$;

-- Statement-level, one bump per statement however many rows it changes; before the statement, so
-- every writer takes the revision's row lock before any row of the directory's tables (one lock
-- order, no deadlock between two writers), and holds it to its commit, when the new revision and
-- the rows it stands for become visible together.
create trigger coach_profile_directory_revision
    before insert or update or delete or truncate on coaching.coach_profile
    for each statement execute function coaching.bump_directory_revision();
create trigger location_directory_revision
    before insert or update or delete or truncate on coaching.location
    for each statement execute function coaching.bump_directory_revision();
create trigger coach_rating_directory_revision
    before insert or update or delete or truncate on coaching.coach_rating
    for each statement execute function coaching.bump_directory_revision();
