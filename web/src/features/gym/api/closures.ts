import useSWR, { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Complete, Schemas } from '@/lib/api-types';

/** Dates (inclusive) a gym location is closed on. */
export type Closure = Complete<Schemas['Closure']>;

export type ClosureInput = Schemas['ClosureBody'];

/** GET /api/gym/locations/{id}/closures: the location's closures that have not ended. */
export const closuresKey = (locationId: string) => `/gym/locations/${encodeURIComponent(locationId)}/closures`;

export function useClosures(locationId: string | null | undefined) {
  return useSWR<Closure[]>(locationId ? closuresKey(locationId) : null, () =>
    api.get<Closure[]>(closuresKey(locationId as string)),
  );
}

/** POST /api/gym/locations/{id}/closures: pending requests on its dates are denied. */
export async function createClosure(locationId: string, input: ClosureInput) {
  const reason = input.reason?.trim();
  const made = await api.post<Closure & { denied_reservations: string[] }>(closuresKey(locationId), {
    ...input,
    reason: reason ? reason : null,
  });
  await mutate(closuresKey(locationId));
  return made;
}

/** DELETE /api/gym/closures/{id}. */
export async function deleteClosure(locationId: string, closureId: string) {
  await api.delete(`/gym/closures/${encodeURIComponent(closureId)}`);
  await mutate(closuresKey(locationId));
}
