import { api } from '@/lib/api-client';
import { withQuery } from '@/lib/swr';

/** Our extension of SPEC §7: the server geocodes a place so the browser needs no maps key. */
export interface GeocodeResult {
  found: boolean;
  lat: number | null;
  lng: number | null;
  name: string | null;
}

/** GET /api/geocode?city&state. Called from the search action (an event, not a render). */
export const geocodePlace = (city: string, state: string) =>
  api.get<GeocodeResult>(withQuery('/geocode', { city, state }));
