import { Star } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { DialogWhileOpen } from '@/components/dialogs/form-dialog';
import { DialogForm, TextAreaField, useSave } from '@/components/forms/dialog-form';
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
    <DialogWhileOpen open={open} onOpenChange={onOpenChange} className="sm:max-w-md">
      {(close) => <ReviewForm booking={booking} onDone={close} />}
    </DialogWhileOpen>
  );
}

function ReviewForm({ booking, onDone }: { booking: Booking; onDone: () => void }) {
  const existing = booking.review;
  const [rating, setRating] = React.useState(existing?.rating ?? 0);
  const [comment, setComment] = React.useState(existing?.comment ?? '');
  const { saving, save } = useSave(onDone);
  const id = React.useId();

  function onSubmit() {
    if (rating < 1) {
      toast.error('Please choose a rating');
      return;
    }
    void save(
      () =>
        existing
          ? editReview(booking.booking_id, { rating, comment })
          : postReview(booking.booking_id, { rating, comment }),
      existing ? 'Review updated' : 'Thanks for your review!',
      'Failed to save review',
    );
  }

  return (
    <DialogForm
      title={existing ? 'Edit your review' : 'Leave a review'}
      description={`How was your session with ${booking.coach_name}?`}
      submitLabel={existing ? 'Save review' : 'Post review'}
      saving={saving}
      cancel={{ label: 'Cancel', onClick: onDone }}
      onSubmit={onSubmit}
    >
      <StarPicker value={rating} onChange={setRating} />
      <TextAreaField
        id={`${id}-comment`}
        label="Comment (optional)"
        value={comment}
        maxLength={REVIEW_TEXT_MAX}
        onChange={(event) => setComment(event.target.value)}
        className="min-h-24"
      />
    </DialogForm>
  );
}
