import { Loader2, Star } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import type { Booking } from '../api/get-bookings';
import { REVIEW_TEXT_MAX, editReview, postReview } from '../api/post-review';

/** Five stars to choose from, a radio group a keyboard can use. */
export function StarPicker({ value, onChange }: { value: number; onChange: (stars: number) => void }) {
  return (
    <div role="radiogroup" aria-label="Rating" className="flex gap-1">
      {[1, 2, 3, 4, 5].map((stars) => (
        <button
          key={stars}
          type="button"
          role="radio"
          aria-checked={value === stars}
          aria-label={`${stars} ${stars === 1 ? 'star' : 'stars'}`}
          onClick={() => onChange(stars)}
          className="rounded p-0.5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-court-500"
        >
          <Star
            className={cn('size-7', stars <= value ? 'fill-amber-400 text-amber-400' : 'text-navy-300')}
            aria-hidden="true"
          />
        </button>
      ))}
    </div>
  );
}

/** "Leave a review" (or "Edit review") of a completed session: stars and an optional comment. */
export function ReviewDialog({
  booking,
  open,
  onOpenChange,
}: {
  booking: Booking;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md">
        {open ? <ReviewForm booking={booking} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function ReviewForm({ booking, onDone }: { booking: Booking; onDone: () => void }) {
  const existing = booking.review;
  const [rating, setRating] = React.useState(existing?.rating ?? 0);
  const [comment, setComment] = React.useState(existing?.comment ?? '');
  const [busy, setBusy] = React.useState(false);
  const id = React.useId();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (rating < 1) {
      toast.error('Please choose a rating');
      return;
    }
    setBusy(true);
    try {
      if (existing) {
        await editReview(booking.booking_id, { rating, comment });
        toast.success('Review updated');
      } else {
        await postReview(booking.booking_id, { rating, comment });
        toast.success('Thanks for your review!');
      }
      onDone();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to save review'));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{existing ? 'Edit your review' : 'Leave a review'}</DialogTitle>
        <DialogDescription>How was your session with {booking.coach_name}?</DialogDescription>
      </DialogHeader>
      <StarPicker value={rating} onChange={setRating} />
      <div className="space-y-2">
        <Label htmlFor={`${id}-comment`}>Comment (optional)</Label>
        <Textarea
          id={`${id}-comment`}
          value={comment}
          maxLength={REVIEW_TEXT_MAX}
          onChange={(event) => setComment(event.target.value)}
          className="min-h-24"
        />
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant="accent" disabled={busy}>
          {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          {existing ? 'Save review' : 'Post review'}
        </Button>
      </DialogFooter>
    </form>
  );
}
