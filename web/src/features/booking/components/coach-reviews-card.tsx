import { MessageSquareReply, ShieldOff, Star } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { formatDisplayDate } from '@/lib/dates';
import { useCoachReviews } from '../api/get-coach-reviews';
import { REVIEW_TEXT_MAX, type Review } from '../api/post-review';
import { replyToReview } from '../api/reply-to-review';
import { HideReviewDialog } from './hide-review-dialog';

/** The figures a coach's profile carries. */
export interface RatingFigures {
  rating_average: number | null;
  rating_count: number;
  rating_distribution: number[];
}

/**
 * A coach's "Reviews": the average and how many gave each number of stars, then the reviews
 * (newest first, "Load more") with the coach's replies. The coach replies to each once; an admin
 * hides an abusive one, with a reason.
 */
export function CoachReviewsCard({
  coachId,
  figures,
  className,
}: {
  coachId: string;
  figures?: RatingFigures | null;
  className?: string;
}) {
  const { user } = useAuth();
  const { rows, isLoading, hasMore, loadingMore, loadMore } = useCoachReviews(coachId);
  const isCoach = user?.role === 'coach' && user.user_id === coachId;
  const isAdmin = user?.role === 'admin';

  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>Reviews</CardTitle>
        <CardDescription>From clients after sessions that took place.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {figures ? <Figures figures={figures} /> : null}
        {isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading reviews" />
          </div>
        ) : !rows?.length ? (
          <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
            No reviews yet
          </p>
        ) : (
          <>
            <ul aria-label="Reviews" className="grid gap-4">
              {rows.map((review) => (
                <ReviewItem key={review.review_id} review={review} canReply={isCoach} canHide={isAdmin} />
              ))}
            </ul>
            {hasMore ? (
              <div className="flex justify-center">
                <Button variant="outline" size="sm" onClick={() => loadMore()} disabled={loadingMore}>
                  {loadingMore ? 'Loading…' : 'Load more'}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function Figures({ figures }: { figures: RatingFigures }) {
  const { rating_average: average, rating_count: count, rating_distribution: stars } = figures;
  if (!count || average === null) return null;
  return (
    <div className="grid gap-4 sm:grid-cols-[auto_1fr] sm:items-center">
      <div className="text-center">
        <p className="text-4xl font-extrabold text-navy-900">{average.toFixed(1)}</p>
        <p className="text-sm text-muted-foreground">
          {count} {count === 1 ? 'review' : 'reviews'}
        </p>
      </div>
      <ul aria-label="Ratings by stars" className="grid gap-1">
        {[5, 4, 3, 2, 1].map((n) => {
          const many = stars[n - 1] ?? 0;
          return (
            <li key={n} className="flex items-center gap-2 text-sm" aria-label={`${n} stars: ${many}`}>
              <span className="w-6 text-right tabular-nums">{n}</span>
              <Star className="size-3.5 fill-amber-400 text-amber-400" aria-hidden="true" />
              <span className="h-2 flex-1 overflow-hidden rounded bg-navy-100">
                <span className="block h-full bg-amber-400" style={{ width: `${(many / count) * 100}%` }} />
              </span>
              <span className="w-8 tabular-nums text-muted-foreground">{many}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function ReviewItem({ review, canReply, canHide }: { review: Review; canReply: boolean; canHide: boolean }) {
  const [replying, setReplying] = React.useState(false);
  const [hiding, setHiding] = React.useState(false);

  return (
    <li className="rounded-lg border p-4" data-testid="review">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-navy-900">{review.client_name}</p>
        <p className="text-xs text-muted-foreground">{formatDisplayDate(review.created_at.slice(0, 10))}</p>
      </div>
      <p aria-label={`${review.rating} out of 5 stars`} className="mt-1 text-amber-500">
        {'★'.repeat(review.rating)}
        <span className="text-navy-200">{'★'.repeat(5 - review.rating)}</span>
      </p>
      {review.comment ? <p className="mt-2 whitespace-pre-line text-sm text-navy-800">{review.comment}</p> : null}
      {review.reply ? (
        <div className="mt-3 rounded-md bg-navy-50 p-3 text-sm">
          <p className="font-semibold text-navy-900">Coach&apos;s reply</p>
          <p className="mt-1 whitespace-pre-line text-navy-800">{review.reply}</p>
        </div>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        {canReply && !review.reply && !replying ? (
          <Button size="sm" variant="outline" onClick={() => setReplying(true)}>
            <MessageSquareReply aria-hidden="true" />
            Reply
          </Button>
        ) : null}
        {canHide ? (
          <Button size="sm" variant="outline" className="text-destructive" onClick={() => setHiding(true)}>
            <ShieldOff aria-hidden="true" />
            Hide review
          </Button>
        ) : null}
      </div>
      {replying ? <ReplyForm review={review} onDone={() => setReplying(false)} /> : null}
      <HideReviewDialog review={review} open={hiding} onOpenChange={setHiding} />
    </li>
  );
}

function ReplyForm({ review, onDone }: { review: Review; onDone: () => void }) {
  const [reply, setReply] = React.useState('');
  const [busy, setBusy] = React.useState(false);
  const id = React.useId();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!reply.trim()) {
      toast.error('Please write a reply');
      return;
    }
    setBusy(true);
    try {
      await replyToReview(review, reply);
      toast.success('Reply posted');
      onDone();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to post reply'));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="mt-3 grid gap-2">
      <Label htmlFor={`${id}-reply`}>Your reply</Label>
      <Textarea
        id={`${id}-reply`}
        value={reply}
        maxLength={REVIEW_TEXT_MAX}
        onChange={(event) => setReply(event.target.value)}
        className="min-h-20"
      />
      <div className="flex gap-2">
        <Button type="submit" size="sm" variant="accent" disabled={busy}>
          Post reply
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
