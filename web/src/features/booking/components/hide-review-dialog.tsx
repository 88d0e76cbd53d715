import { toast } from 'sonner';
import { CancelWithReasonDialog, confirmWrite } from '@/components/dialogs/cancel-with-reason-dialog';
import { hideReview } from '../api/hide-review';
import type { Review } from '../api/post-review';

/**
 * The admin's "Hide this review?": asks why (the reason is required and kept with the review),
 * then hides it. Shared by the coach's page and the admin dashboard.
 */
export function HideReviewDialog({
  review,
  open,
  onOpenChange,
}: {
  review: Review;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const write = confirmWrite((reason) => hideReview(review, reason), 'Review hidden', 'Failed to hide review', () =>
    onOpenChange(false),
  );
  async function hide(reason: string) {
    if (reason.trim()) return write(reason);
    toast.error('Please say why the review is hidden');
    return false;
  }

  return (
    <CancelWithReasonDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Hide this review?"
      description={`${review.client_name}'s review leaves the coach's page and their average at once.`}
      reasonLabel="Reason (kept with the review)"
      keepLabel="Keep review"
      confirmLabel="Hide review"
      onConfirm={hide}
    />
  );
}
