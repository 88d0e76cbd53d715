-- Issue 19: the directory filters by name and sorts by it, so coaching keeps a copy of each
-- coach's name (identity owns it): written with the profile by the gateway, refreshed by
-- identity's user_renamed events. Null until then for profiles saved before this migration: such
-- a coach matches `q` by specialty only and sorts first by name until their profile is saved again
-- or they are renamed.
alter table coaching.coach_profile add column coach_name text;
