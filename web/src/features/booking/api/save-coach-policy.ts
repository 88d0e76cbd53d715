import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { coachPolicyKey, MY_POLICY_KEY, type BookingPolicy } from './get-coach-policy';

/** PUT /api/coach/policy (the signed-in coach's), then refresh both of its reads. */
export async function saveCoachPolicy(coachId: string, policy: BookingPolicy) {
  const saved = await api.put<BookingPolicy>(MY_POLICY_KEY, policy);
  await Promise.all([
    mutate(MY_POLICY_KEY, saved, { revalidate: true }),
    mutate(coachPolicyKey(coachId), saved, { revalidate: false }),
  ]);
  return saved;
}
