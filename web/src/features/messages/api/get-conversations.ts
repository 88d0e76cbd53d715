import useSWR, { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { refreshPaged, usePagedList } from '@/lib/pages';
import type { Conversation, MessagesUnreadCount } from './types';

/** Every read of the Messages page starts with this path (a refresh of all of them by prefix). */
export const CONVERSATIONS_PREFIX = '/conversations';

/** GET /api/conversations: the first page, newest activity first (more by its Link header). */
export const CONVERSATIONS_FIRST_PAGE = '/conversations?limit=30';

/** The signed-in person's threads, a page at a time. */
export function useConversations() {
  return usePagedList<Conversation>(CONVERSATIONS_FIRST_PAGE, (c) => c.conversation_id);
}

export const conversationKey = (conversationId: string) =>
  `/conversations/${encodeURIComponent(conversationId)}`;

/** GET /api/conversations/{id}: one thread (the header of the conversation). */
export function useConversation(conversationId: string | undefined) {
  return useSWR<Conversation>(conversationId ? conversationKey(conversationId) : null, (path: string) =>
    api.get<Conversation>(path),
  );
}

export const MESSAGES_UNREAD_KEY = '/conversations/unread-count';

/** The navigation's badge. The live stream refreshes it; a slow poll covers a stream that cannot
 * open. */
export function useMessagesUnreadCount() {
  return useSWR<MessagesUnreadCount>(MESSAGES_UNREAD_KEY, (path: string) => api.get<MessagesUnreadCount>(path), {
    refreshInterval: 120_000,
    shouldRetryOnError: false,
  });
}

/** Reads again every list, thread and count of the Messages page on screen. */
export function refreshConversations() {
  return Promise.all([
    refreshPaged(CONVERSATIONS_PREFIX),
    mutate((key) => typeof key === 'string' && key.startsWith(CONVERSATIONS_PREFIX)),
  ]);
}
