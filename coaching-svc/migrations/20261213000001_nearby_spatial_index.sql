-- Nearby search on a spatial index (issue 20). Each location with coordinates is a point on the
-- unit sphere, (cos lat cos lng, cos lat sin lng, sin lat), held as a `cube` in a GiST index; a
-- search asks for the points inside the small box around its circle (`<@`), then the exact
-- haversine distance decides. The box is one range of the index, at the poles and across the
-- antimeridian alike, so a search costs about the places it finds, however many coaches there are
-- (the latitude btree it replaces read every coach in the circle's band of latitude).
--
-- Why `cube` (contrib) and not PostGIS: cube ships with PostgreSQL itself (Debian's
-- postgresql-15, the compose file's postgres image and its stand-in), is a trusted extension any
-- database owner may create, and needs nothing installed by up.sh, test.sh or the images; PostGIS
-- would be one more package in each of them for one index. Not earthdistance either: it is not
-- trusted (a superuser must create it) and its ll_to_earth resolves cube() through the search
-- path, which breaks inside index maintenance; the expression below names nothing but built-ins
-- and cube's constructor.
create extension if not exists cube;
create index location_sphere_idx on coaching.location using gist (
    cube(array[cos(radians(latitude)) * cos(radians(longitude)),
               cos(radians(latitude)) * sin(radians(longitude)),
               sin(radians(latitude))])
) where latitude is not null;
drop index coaching.location_lat_lng_idx;
