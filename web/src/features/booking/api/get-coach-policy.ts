import useSWR from 'swr';
import { api, isNotFound } from '@/lib/api-client';
import { DEFAULT_POLICY, type PolicyLimits } from '../utils/booking-policy';

/** The coach's booking policy (GET /coach/policy and GET /coach/policy/{coach_id}), with its fees. */
export type BookingPolicy = PolicyLimits;

/** GET /api/coach/policy: the signed-in coach's own. */
export const MY_POLICY_KEY = '/coach/policy';

/** GET /api/coach/policy/{coach_id}: any signed-in user reads a coach's. */
export const coachPolicyKey = (coachId: string) => `/coach/policy/${encodeURIComponent(coachId)}`;

/** A coach's policy; the defaults when the coach has none on record (a 404). */
export async function getCoachPolicy(coachId: string): Promise<BookingPolicy> {
  try {
    return await api.get<BookingPolicy>(coachPolicyKey(coachId));
  } catch (error) {
    if (isNotFound(error)) return DEFAULT_POLICY;
    throw error;
  }
}

/** The coach's policy, fetched only while `coachId` is set (a dialog that is open). */
export function useCoachPolicy(coachId: string | null | undefined) {
  return useSWR<BookingPolicy>(coachId ? coachPolicyKey(coachId) : null, () => getCoachPolicy(coachId as string));
}

/** The signed-in coach's policy; the defaults when none is on record (a 404). */
export async function getMyPolicy(): Promise<BookingPolicy> {
  try {
    return await api.get<BookingPolicy>(MY_POLICY_KEY);
  } catch (error) {
    if (isNotFound(error)) return DEFAULT_POLICY;
    throw error;
  }
}

export function useMyPolicy() {
  return useSWR<BookingPolicy>(MY_POLICY_KEY, getMyPolicy);
}
