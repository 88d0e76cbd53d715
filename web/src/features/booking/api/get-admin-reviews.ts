import { toast } from 'sonner';
import type { Schemas } from '@/lib/api-types';
import { usePagedList } from '@/lib/pages';
import { withQuery } from '@/lib/swr';

/** A review as the admin lists it: with its coach's and its client's names. */
export type AdminReview = Schemas['AdminReview'];

/** GET /api/admin/reviews?limit=&cursor=: every review, hidden ones too, newest first (admin). */
export const ADMIN_REVIEWS_KEY = '/admin/reviews';

/** Reviews per page on the admin dashboard ("Show more" reads the next). */
export const ADMIN_REVIEWS_PAGE = 10;

/** The pages of every review loaded so far; `loadMore` reads the next. */
export function useAdminReviews() {
  return usePagedList<AdminReview>(
    withQuery(ADMIN_REVIEWS_KEY, { limit: ADMIN_REVIEWS_PAGE }),
    (review) => review.review_id,
    { onError: () => toast.error('Failed to load reviews', { id: 'admin-reviews-error' }) },
  );
}
