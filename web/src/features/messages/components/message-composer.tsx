import { Loader2, SendHorizontal } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-client';
import { MAX_MESSAGE_LENGTH, sendMessage } from '../api/send-message';
import type { Conversation } from '../api/types';

/** Why a thread takes no new message, in the words the server uses for the same refusal. */
function whyNot(conversation: Conversation): string {
  const name = conversation.other.full_name;
  if (conversation.blocked === 'by_me') return `You blocked ${name}. Unblock them to send a message.`;
  if (conversation.blocked === 'by_them') return `${name} is not taking messages from you.`;
  return 'You cannot send messages in this conversation.';
}

/** The box under a thread: Enter sends, Shift+Enter starts a new line. */
export function MessageComposer({ conversation }: { conversation: Conversation }) {
  const [body, setBody] = React.useState('');
  const [sending, setSending] = React.useState(false);
  const id = React.useId();
  const trimmed = body.trim();

  if (!conversation.can_send) {
    return (
      <p className="border-t bg-navy-50 px-4 py-3 text-sm text-navy-700" data-testid="cannot-send">
        {whyNot(conversation)}
      </p>
    );
  }

  async function send() {
    if (!trimmed || sending || trimmed.length > MAX_MESSAGE_LENGTH) return;
    setSending(true);
    try {
      await sendMessage(conversation.conversation_id, trimmed);
      setBody('');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to send the message'));
    } finally {
      setSending(false);
    }
  }

  return (
    <form
      className="flex items-end gap-2 border-t p-3"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <div className="min-w-0 flex-1">
        <label htmlFor={`${id}-body`} className="sr-only">
          Message {conversation.other.full_name}
        </label>
        <Textarea
          id={`${id}-body`}
          value={body}
          rows={2}
          maxLength={MAX_MESSAGE_LENGTH}
          placeholder="Write a message…"
          aria-describedby={`${id}-hint`}
          className="min-h-11 resize-none"
          onChange={(event) => setBody(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void send();
            }
          }}
        />
        <p id={`${id}-hint`} className="mt-1 text-xs text-muted-foreground">
          Enter to send, Shift+Enter for a new line. {body.length}/{MAX_MESSAGE_LENGTH}
        </p>
      </div>
      <Button type="submit" variant="accent" className="mb-5 h-11" disabled={!trimmed || sending}>
        {sending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <SendHorizontal aria-hidden="true" />}
        Send
      </Button>
    </form>
  );
}
