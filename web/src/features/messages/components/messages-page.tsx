import { MessagesSquare, UserX } from 'lucide-react';
import * as React from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { refreshConversations } from '../api/get-conversations';
import { startConversation } from '../api/start-conversation';
import { ConversationList } from './conversation-list';
import { ThreadView } from './thread-view';

/**
 * "/messages" and "/messages/{conversationId}": the threads on the left, the open conversation on
 * the right; on a phone one column (the list, or the open thread with a way back). "/messages?with=
 * {userId}" (the "Message" buttons) opens the thread with that person, starting it if need be.
 */
export function MessagesPage({ conversationId }: { conversationId?: string }) {
  const [search] = useSearchParams();
  const withUserId = search.get('with');
  if (withUserId) return <StartConversation withUserId={withUserId} />;
  return (
    <div className="grid h-[calc(100dvh-12rem)] min-h-[28rem] overflow-hidden rounded-xl border bg-white shadow-sm grid-cols-[minmax(0,1fr)] md:grid-cols-[minmax(16rem,22rem)_minmax(0,1fr)]">
      <nav
        aria-label="Your conversations"
        className={cn('min-h-0 overflow-y-auto border-r', conversationId ? 'hidden md:block' : 'block')}
      >
        <ConversationList activeId={conversationId} />
      </nav>
      <div className={cn('min-h-0 flex-col', conversationId ? 'flex' : 'hidden md:flex')}>
        {conversationId ? (
          <ThreadView key={conversationId} conversationId={conversationId} />
        ) : (
          <EmptyState
            icon={<MessagesSquare />}
            title="Choose a conversation"
            description="Pick someone on the left to read and write messages."
            className="m-6 flex-1"
          />
        )}
      </div>
    </div>
  );
}

/** Opens the thread with `withUserId` (POST /api/conversations: new or existing), or says why not. */
function StartConversation({ withUserId }: { withUserId: string }) {
  const navigate = useNavigate();
  const [failure, setFailure] = React.useState<string | null>(null);
  React.useEffect(() => {
    let live = true;
    startConversation(withUserId)
      .then((conversation) => {
        if (!live) return;
        void refreshConversations();
        navigate(paths.conversation.getHref(conversation.conversation_id), { replace: true });
      })
      .catch((error: unknown) => {
        if (live) setFailure(errorMessage(error, 'The conversation could not be opened.'));
      });
    return () => {
      live = false;
    };
  }, [withUserId, navigate]);

  if (failure) {
    return (
      <EmptyState
        icon={<UserX />}
        title="Could not open the conversation"
        description={<span role="alert">{failure}</span>}
        action={
          <Button asChild variant="outline">
            <Link to={paths.messages.getHref()}>Back to Messages</Link>
          </Button>
        }
      />
    );
  }
  return (
    <div className="flex justify-center py-16">
      <Spinner label="Opening conversation" />
    </div>
  );
}
