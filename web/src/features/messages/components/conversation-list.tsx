import { MessagesSquare } from 'lucide-react';
import { NavLink } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import { cn } from '@/lib/utils';
import { useConversations } from '../api/get-conversations';
import type { Conversation } from '../api/types';
import { formatMessageTime, roleLabel } from '../utils/format';

const EMPTY_HINTS: Record<string, string> = {
  client: 'Message a coach from their page, or from one of your bookings.',
  coach: 'Message a client from one of their bookings, or a gym from a court request.',
  gym: 'Message a coach from one of their court requests.',
  admin: 'Reported messages are in the Reports list of your dashboard.',
};

/** The signed-in person's threads, newest activity first; the open one marked. */
export function ConversationList({ activeId }: { activeId?: string }) {
  const user = useUser();
  const { rows, error, isLoading, hasMore, loadingMore, loadMore } = useConversations();

  if (isLoading && !rows) {
    return (
      <div className="flex justify-center py-12">
        <Spinner label="Loading conversations" />
      </div>
    );
  }
  if (error && !rows) {
    return (
      <p role="alert" className="px-4 py-8 text-center text-sm text-muted-foreground">
        Conversations could not be loaded.
      </p>
    );
  }
  if (!rows?.length) {
    return (
      <EmptyState
        icon={<MessagesSquare />}
        title="No conversations yet"
        description={EMPTY_HINTS[user.role]}
        className="m-3 border-0"
      />
    );
  }
  return (
    <div>
      <ul aria-label="Conversations" className="divide-y">
        {rows.map((conversation) => (
          <li key={conversation.conversation_id}>
            <ConversationItem conversation={conversation} active={conversation.conversation_id === activeId} />
          </li>
        ))}
      </ul>
      {hasMore ? (
        <div className="p-3 text-center">
          <Button variant="ghost" size="sm" disabled={loadingMore} onClick={loadMore}>
            {loadingMore ? 'Loading…' : 'Show older conversations'}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function ConversationItem({ conversation, active }: { conversation: Conversation; active: boolean }) {
  const { other, last_message: last, unread } = conversation;
  return (
    <NavLink
      to={paths.conversation.getHref(conversation.conversation_id)}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'flex min-h-16 items-start gap-3 px-4 py-3 outline-none hover:bg-navy-50 focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring',
        active && 'bg-navy-50',
      )}
    >
      <div className="min-w-0 flex-1">
        <p className="flex items-baseline justify-between gap-2">
          <span className={cn('truncate text-navy-900', unread > 0 ? 'font-bold' : 'font-semibold')}>
            {other.full_name}
          </span>
          <span className="shrink-0 text-xs text-muted-foreground">
            {formatMessageTime(last?.created_at ?? conversation.updated_at)}
          </span>
        </p>
        <p className="text-xs text-muted-foreground">{roleLabel(other.role)}</p>
        <p className={cn('truncate text-sm', unread > 0 ? 'font-medium text-navy-900' : 'text-navy-700')}>
          {last ? `${last.mine ? 'You: ' : ''}${last.body}` : 'No messages yet'}
        </p>
      </div>
      {unread > 0 ? (
        <span className="mt-1 inline-flex min-w-5 shrink-0 items-center justify-center rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white">
          {unread > 99 ? '99+' : unread}
          <span className="sr-only"> unread</span>
        </span>
      ) : null}
    </NavLink>
  );
}
