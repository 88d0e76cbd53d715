import { ArrowLeft, Flag, MessageSquareOff } from 'lucide-react';
import * as React from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { isNotFound } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { useConversation } from '../api/get-conversations';
import { useMessages } from '../api/get-messages';
import { markConversationRead } from '../api/mark-read';
import type { Conversation, Message } from '../api/types';
import { formatMessageTime, roleLabel } from '../utils/format';
import { BlockButton } from './block-button';
import { MessageBody } from './message-body';
import { MessageComposer } from './message-composer';
import { ReportMessageDialog } from './report-message-dialog';
import { SharedRecords } from './shared-records';

/** One conversation: who it is with and what they share, its messages (oldest at the top, older
 * pages on demand), and the box to write in. Marks what arrives read while it is open. */
export function ThreadView({ conversationId }: { conversationId: string }) {
  const conversation = useConversation(conversationId);

  if (conversation.isLoading && !conversation.data) {
    return (
      <div className="flex flex-1 justify-center py-16">
        <Spinner label="Loading conversation" />
      </div>
    );
  }
  if (!conversation.data) {
    return (
      <div className="p-4">
        <BackToList />
        <EmptyState
          icon={<MessageSquareOff />}
          title={isNotFound(conversation.error) ? 'Conversation not found' : 'Conversation could not be loaded'}
          description={
            isNotFound(conversation.error)
              ? 'It does not exist, or it is not yours.'
              : 'Check your connection and try again.'
          }
          action={
            isNotFound(conversation.error) ? null : (
              <Button variant="outline" onClick={() => void conversation.mutate()}>
                Try again
              </Button>
            )
          }
        />
      </div>
    );
  }
  return <Thread conversation={conversation.data} />;
}

/** On a phone the list and the thread take turns: this leads back to the list. */
function BackToList() {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-3 mb-1 md:hidden">
      <Link to={paths.messages.getHref()}>
        <ArrowLeft aria-hidden="true" />
        All conversations
      </Link>
    </Button>
  );
}

function Thread({ conversation }: { conversation: Conversation }) {
  const { conversation_id: conversationId, other } = conversation;
  const messages = useMessages(conversationId);
  const [reporting, setReporting] = React.useState<Message | null>(null);
  // Newest first from the server; a conversation reads oldest first.
  const ordered = React.useMemo(() => [...(messages.rows ?? [])].reverse(), [messages.rows]);
  const newest = messages.rows?.[0];

  useMarkRead(conversationId, conversation.unread > 0 || Boolean(newest && !newest.mine && !newest.read), newest?.message_id);
  const bottom = useStickToBottom(newest?.message_id);

  return (
    <section aria-labelledby="thread-title" className="flex min-h-0 min-w-0 flex-1 flex-col">
      <header className="border-b px-4 py-3">
        <BackToList />
        <div className="flex items-center justify-between gap-2">
          <div className="min-w-0">
            <h2 id="thread-title" className="truncate text-lg font-semibold text-navy-900">
              {other.full_name}
            </h2>
            <p className="text-xs text-muted-foreground">{roleLabel(other.role)}</p>
          </div>
          <BlockButton conversation={conversation} />
        </div>
      </header>
      <SharedRecords records={conversation.shared} />
      <div ref={bottom} className="min-h-48 flex-1 overflow-y-auto px-4 py-3">
        {messages.hasMore ? (
          <div className="mb-3 text-center">
            <Button variant="ghost" size="sm" disabled={messages.loadingMore} onClick={messages.loadMore}>
              {messages.loadingMore ? 'Loading…' : 'Load older messages'}
            </Button>
          </div>
        ) : null}
        {messages.isLoading && !messages.rows ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading messages" />
          </div>
        ) : messages.error && !messages.rows ? (
          <p role="alert" className="py-8 text-center text-sm text-muted-foreground">
            Messages could not be loaded.
          </p>
        ) : ordered.length === 0 ? (
          <p className="py-8 text-center text-sm text-muted-foreground">
            No messages yet. Say hello to {other.full_name}.
          </p>
        ) : (
          <ol aria-label={`Messages with ${other.full_name}`} className="grid gap-3">
            {ordered.map((message) => (
              <MessageItem key={message.message_id} message={message} onReport={() => setReporting(message)} />
            ))}
          </ol>
        )}
      </div>
      <MessageComposer conversation={conversation} />
      <ReportMessageDialog message={reporting} onClose={() => setReporting(null)} />
    </section>
  );
}

function MessageItem({ message, onReport }: { message: Message; onReport: () => void }) {
  const time = formatMessageTime(message.created_at);
  return (
    <li className={cn('flex flex-col', message.mine ? 'items-end' : 'items-start')} data-testid="message">
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-3 py-2 text-sm sm:max-w-[70%]',
          message.mine ? 'rounded-br-sm bg-navy-800 text-white' : 'rounded-bl-sm bg-navy-50 text-navy-900',
        )}
      >
        <span className="sr-only">{message.mine ? 'You' : message.sender.full_name}: </span>
        <MessageBody body={message.body} />
      </div>
      <p className="mt-0.5 flex items-center gap-2 text-xs text-muted-foreground">
        <time dateTime={message.created_at}>{time}</time>
        {message.mine ? <span>{message.read ? 'Read' : 'Sent'}</span> : null}
        {message.mine ? null : (
          <button
            type="button"
            onClick={onReport}
            aria-label={`Report message from ${message.sender.full_name} sent ${time}`}
            className="inline-flex min-h-6 items-center gap-1 rounded px-1 hover:text-destructive focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <Flag className="size-3" aria-hidden="true" />
            Report
          </button>
        )}
      </p>
    </li>
  );
}

/** Marks the thread read when it shows something unread (once per newest message). */
function useMarkRead(conversationId: string, unread: boolean, newestId: string | undefined) {
  const done = React.useRef<string | null>(null);
  React.useEffect(() => {
    const mark = `${conversationId}:${newestId ?? ''}`;
    if (!unread || done.current === mark) return;
    done.current = mark;
    void markConversationRead(conversationId).catch(() => {
      done.current = null;
    });
  }, [conversationId, unread, newestId]);
}

/** Scrolls the messages to the newest when one arrives (not when older pages load above). */
function useStickToBottom(newestId: string | undefined) {
  const ref = React.useRef<HTMLDivElement>(null);
  React.useLayoutEffect(() => {
    const node = ref.current;
    if (node && newestId) node.scrollTop = node.scrollHeight;
  }, [newestId]);
  return ref;
}
