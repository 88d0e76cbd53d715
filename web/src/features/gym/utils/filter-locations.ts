import type { GymLocation } from '../api/types';

/** SPEC §5: a case-insensitive substring match over gym_name, city, state and name. */
export function filterGymLocations(locations: GymLocation[], query: string): GymLocation[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return locations;
  return locations.filter((location) =>
    [location.gym_name, location.city, location.state, location.name].some((field) =>
      (field ?? '').toLowerCase().includes(needle),
    ),
  );
}
