-- The directory version (a counter bumped by triggers on coach_profile and location) was never
-- read: the gateway's ETag for GET /coaches hashes the body it sends, and the gateway's memory is
-- cleared by change stamps. Dropped with its triggers, so a write no longer pays for it.
drop trigger if exists coach_profile_bumps_directory_version on coaching.coach_profile;
drop trigger if exists location_bumps_directory_version on coaching.location;
drop function if exists coaching.bump_directory_version();
drop table if exists coaching.directory_version;
