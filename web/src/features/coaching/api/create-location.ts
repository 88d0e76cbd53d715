import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { coachLocationsKey } from './get-coach-locations';
import { MY_LOCATIONS_KEY } from './get-my-locations';
import type { CoachLocation } from './types';

export interface LocationInput {
  name: string;
  address: string;
  court_number: string;
  city: string;
  state: string;
  latitude: number | null;
  longitude: number | null;
}

/** An optional coordinate as typed: empty (or not a number) becomes null (SPEC §5). */
export function toCoordinate(text: string): number | null {
  if (!text.trim()) return null;
  const value = Number.parseFloat(text);
  return Number.isFinite(value) ? value : null;
}

/** POST /api/locations, then refresh the coach's lists (and the directory, which shows cities). */
export async function createLocation(coachId: string, input: LocationInput) {
  const created = await api.post<CoachLocation>('/locations', input);
  await Promise.all([
    mutate(MY_LOCATIONS_KEY),
    mutate(coachLocationsKey(coachId)),
    mutate('/coaches'),
  ]);
  return created;
}
