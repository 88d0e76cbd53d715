import { usePagedList } from '@/lib/pages';
import type { Review } from './post-review';

/** Reviews per page on a coach's page ("Load more" reads the next). */
export const REVIEWS_PAGE = 5;

/** The start of every paged list of one coach's reviews (for refreshing them). */
export const coachReviewsPrefix = (coachId: string) => `/coach/${encodeURIComponent(coachId)}/reviews`;

/**
 * GET /api/coach/{coachId}/reviews?limit=: the coach's reviews, newest first, hidden ones left
 * out, a page at a time (the next from the `Link` header).
 */
export function useCoachReviews(coachId: string | undefined) {
  return usePagedList<Review>(
    coachId ? `${coachReviewsPrefix(coachId)}?limit=${REVIEWS_PAGE}` : null,
    (review) => review.review_id,
    { onError: (error) => console.error('Failed to load reviews', error) },
  );
}
