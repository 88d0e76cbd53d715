import { usePagedList } from '@/lib/pages';
import type { Message } from './types';

/** GET /api/conversations/{id}/messages: the newest page first; older pages by the Link header
 * (`?before=`). */
export const messagesFirstPage = (conversationId: string) =>
  `/conversations/${encodeURIComponent(conversationId)}/messages?limit=50`;

/** A thread's messages loaded so far, newest first; `loadMore` reads the next older page. */
export function useMessages(conversationId: string | undefined) {
  return usePagedList<Message>(conversationId ? messagesFirstPage(conversationId) : null, (m) => m.message_id);
}
