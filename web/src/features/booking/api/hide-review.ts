import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { refreshPaged } from '@/lib/pages';
import { ADMIN_REVIEWS_KEY } from './get-admin-reviews';
import { coachReviewsPrefix } from './get-coach-reviews';
import type { Review } from './post-review';

/** PATCH /api/admin/reviews/{id}/hide: the admin hides an abusive review, saying why. */
export async function hideReview(review: Review, reason: string) {
  const hidden = await api.patch<Review>(`/admin/reviews/${encodeURIComponent(review.review_id)}/hide`, {
    reason: reason.trim(),
  });
  await Promise.all([
    refreshPaged(coachReviewsPrefix(review.coach_id)),
    refreshPaged(ADMIN_REVIEWS_KEY),
    mutate(`/coach/profile/${encodeURIComponent(review.coach_id)}`),
  ]);
  return hidden;
}
