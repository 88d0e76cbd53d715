import { api } from '@/lib/api-client';
import { refreshPaged } from '@/lib/pages';
import { coachReviewsPrefix } from './get-coach-reviews';
import type { Review } from './post-review';

/** POST /api/coach/reviews/{id}/reply: the reviewed coach answers a review, once. */
export async function replyToReview(review: Review, reply: string) {
  const answered = await api.post<Review>(`/coach/reviews/${encodeURIComponent(review.review_id)}/reply`, {
    reply: reply.trim(),
  });
  await refreshPaged(coachReviewsPrefix(review.coach_id));
  return answered;
}
