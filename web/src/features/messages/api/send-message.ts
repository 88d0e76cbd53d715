import { api } from '@/lib/api-client';
import { refreshPaged } from '@/lib/pages';
import { CONVERSATIONS_PREFIX } from './get-conversations';
import type { Message } from './types';

/** The longest body the server takes (trimmed). */
export const MAX_MESSAGE_LENGTH = 2000;

/** POST /api/conversations/{id}/messages {body}; then the thread and the list read again. */
export async function sendMessage(conversationId: string, body: string) {
  const message = await api.post<Message>(`/conversations/${encodeURIComponent(conversationId)}/messages`, {
    body: body.trim(),
  });
  await refreshPaged(CONVERSATIONS_PREFIX);
  return message;
}
