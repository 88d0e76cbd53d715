import { ShieldOff } from 'lucide-react';
import * as React from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { formatDisplayDate } from '@/lib/dates';
import { type AdminReview, useAdminReviews } from '../api/get-admin-reviews';
import { HideReviewDialog } from './hide-review-dialog';

/**
 * The admin's "Reviews": every review on the platform, newest first ("Show more" reads the next
 * page), hidden ones marked with the reason; "Hide" hides an abusive one, with a reason.
 */
export function AdminReviewsCard({ className }: { className?: string }) {
  const { rows, error, hasMore, loadMore, loadingMore } = useAdminReviews();
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>Reviews</CardTitle>
        <CardDescription>
          Every review clients left, newest first. Hide an abusive one; the reason is kept with it.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {!rows ? (
          error ? (
            <p role="alert" className="py-8 text-center text-sm text-muted-foreground">
              Failed to load reviews
            </p>
          ) : (
            <div className="flex h-24 items-center justify-center">
              <Spinner label="Loading reviews" />
            </div>
          )
        ) : rows.length === 0 ? (
          <p className="rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
            No reviews yet.
          </p>
        ) : (
          <>
            <ul aria-label="All reviews" className="divide-y">
              {rows.map((review) => (
                <AdminReviewItem key={review.review_id} review={review} />
              ))}
            </ul>
            {hasMore ? (
              <Button variant="outline" size="sm" className="mt-3" onClick={loadMore} disabled={loadingMore}>
                {loadingMore ? 'Loading more…' : 'Show more'}
              </Button>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function AdminReviewItem({ review }: { review: AdminReview }) {
  const [hiding, setHiding] = React.useState(false);
  return (
    <li className="grid gap-1 py-3" data-testid="admin-review">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-navy-900">
          <span className="font-semibold">{review.client_name}</span> on{' '}
          <span className="font-semibold">{review.coach_name}</span>
        </p>
        <p className="text-xs text-muted-foreground">
          <time dateTime={review.created_at}>{formatDisplayDate(review.created_at.slice(0, 10))}</time>
        </p>
      </div>
      <p aria-label={`${review.rating} out of 5 stars`} className="text-amber-500">
        {'★'.repeat(review.rating)}
        <span className="text-navy-200">{'★'.repeat(5 - review.rating)}</span>
      </p>
      {review.comment ? <p className="whitespace-pre-line text-sm text-navy-800">{review.comment}</p> : null}
      {review.hidden ? (
        <p className="flex flex-wrap items-center gap-2 text-sm text-navy-800">
          <Badge variant="destructive">Hidden</Badge>
          {review.hidden_reason ? <span>Reason: {review.hidden_reason}</span> : null}
        </p>
      ) : (
        <div>
          <Button
            size="sm"
            variant="outline"
            className="text-destructive"
            aria-label={`Hide ${review.client_name}'s review of ${review.coach_name}`}
            onClick={() => setHiding(true)}
          >
            <ShieldOff aria-hidden="true" />
            Hide
          </Button>
          <HideReviewDialog review={review} open={hiding} onOpenChange={setHiding} />
        </div>
      )}
    </li>
  );
}
