/** Approve and Deny for a request waiting on this person (a booking, a court request). */
import { Check, Loader2, X } from 'lucide-react';
import { Button } from '@/components/ui/button';

interface ApproveDenyButtonsProps {
  /** The row's write under way, if any (`useActions`): both wait for it; its own spins. */
  busy: string | null;
  onApprove: () => void;
  onDeny: () => void;
}

export function ApproveDenyButtons({ busy, onApprove, onDeny }: ApproveDenyButtonsProps) {
  return (
    <>
      <Button size="sm" variant="accent" disabled={busy !== null} onClick={onApprove}>
        {busy === 'approve' ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Check aria-hidden="true" />}
        Approve
      </Button>
      <Button size="sm" variant="outline" disabled={busy !== null} onClick={onDeny}>
        {busy === 'deny' ? <Loader2 className="animate-spin" aria-hidden="true" /> : <X aria-hidden="true" />}
        Deny
      </Button>
    </>
  );
}
