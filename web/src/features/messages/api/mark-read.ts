import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { refreshPaged } from '@/lib/pages';
import { CONVERSATIONS_PREFIX, MESSAGES_UNREAD_KEY } from './get-conversations';

/** POST /api/conversations/{id}/read: everything up to now read; the badge and the list follow. */
export async function markConversationRead(conversationId: string) {
  await api.post<void>(`/conversations/${encodeURIComponent(conversationId)}/read`);
  await Promise.all([mutate(MESSAGES_UNREAD_KEY), refreshPaged(CONVERSATIONS_PREFIX)]);
}
