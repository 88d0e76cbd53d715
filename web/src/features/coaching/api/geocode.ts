import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';
import { withQuery } from '@/lib/swr';

/** Our extension of SPEC §7: the server geocodes a place so the browser needs no maps key. */
export type GeocodeResult = Complete<Schemas['GeocodeResult']>;

/** GET /api/geocode?city&state. Called from the search action (an event, not a render). */
export const geocodePlace = (city: string, state: string) =>
  api.get<GeocodeResult>(withQuery('/geocode', { city, state }));
