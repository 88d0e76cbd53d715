import { Ban, Loader2, ShieldCheck } from 'lucide-react';
import * as React from 'react';
import { DialogForm, useSave } from '@/components/forms/dialog-form';
import { DialogWhileOpen } from '@/components/dialogs/form-dialog';
import { Button } from '@/components/ui/button';
import { useActions } from '@/lib/use-actions';
import { blockUser, unblockUser } from '../api/block-user';
import type { Conversation } from '../api/types';

/** Block (once confirmed) or Unblock the other person of a thread. */
export function BlockButton({ conversation }: { conversation: Conversation }) {
  const { other } = conversation;
  const [confirming, setConfirming] = React.useState(false);
  const { busy, run } = useActions<'unblock'>();
  if (!other.user_id || other.role === 'admin') return null;
  const userId = other.user_id;

  if (conversation.blocked === 'by_me') {
    return (
      <Button
        variant="outline"
        size="sm"
        disabled={busy === 'unblock'}
        onClick={() => void run('unblock', () => unblockUser(userId), `${other.full_name} unblocked`, 'Failed to unblock')}
      >
        {busy === 'unblock' ? <Loader2 className="animate-spin" aria-hidden="true" /> : <ShieldCheck aria-hidden="true" />}
        Unblock
      </Button>
    );
  }
  return (
    <>
      <Button variant="outline" size="sm" className="text-destructive hover:bg-red-50" onClick={() => setConfirming(true)}>
        <Ban aria-hidden="true" />
        Block
      </Button>
      <DialogWhileOpen open={confirming} onOpenChange={setConfirming} className="sm:max-w-md">
        {(close) => <BlockForm name={other.full_name} userId={userId} close={close} />}
      </DialogWhileOpen>
    </>
  );
}

function BlockForm({ name, userId, close }: { name: string; userId: string; close: () => void }) {
  const { saving, save } = useSave(close);
  return (
    <DialogForm
      title={`Block ${name}?`}
      description="Neither of you can send new messages or start a new conversation. What was already said stays readable, and you can unblock them later."
      submitLabel="Block"
      submitVariant="destructive"
      saving={saving}
      cancel={{ label: 'Cancel', onClick: close }}
      onSubmit={() => void save(() => blockUser(userId), `${name} blocked`, 'Failed to block')}
    >
      {null}
    </DialogForm>
  );
}
