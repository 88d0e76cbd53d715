import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import type { Schemas } from '@/lib/api-types';
import { refreshPaged } from '@/lib/pages';
import { refreshBookings } from './get-bookings';
import { coachReviewsPrefix } from './get-coach-reviews';

/** A client's review of a completed session, as the API answers it. */
export type Review = Schemas['Review'];

/** What a client says: 1 to 5 stars and an optional comment (at most 2,000 characters). */
export type ReviewInput = Schemas['ReviewBody'];

/** The longest comment or reply. */
export const REVIEW_TEXT_MAX = 2000;

const reviewPath = (bookingId: string) => `/bookings/${encodeURIComponent(bookingId)}/review`;
/** A blank comment is sent as none. */
const body = ({ rating, comment }: ReviewInput): ReviewInput => ({ rating, comment: comment?.trim() || null });

/** Everything on screen a review changes: the bookings it shows on, the coach's reviews, profile. */
async function refreshAfter(review: Review) {
  await Promise.all([
    refreshBookings(),
    refreshPaged(coachReviewsPrefix(review.coach_id)),
    mutate(`/coach/profile/${encodeURIComponent(review.coach_id)}`),
  ]);
}

/** POST /api/bookings/{id}/review: the client reviews their completed session, once. */
export async function postReview(bookingId: string, input: ReviewInput) {
  const review = await api.post<Review>(reviewPath(bookingId), body(input));
  await refreshAfter(review);
  return review;
}

/** PUT /api/bookings/{id}/review: the client edits their review, within 14 days of posting it. */
export async function editReview(bookingId: string, input: ReviewInput) {
  const review = await api.put<Review>(reviewPath(bookingId), body(input));
  await refreshAfter(review);
  return review;
}
