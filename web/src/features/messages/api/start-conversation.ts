import { api } from '@/lib/api-client';
import type { Conversation } from './types';

/** POST /api/conversations {with_user_id}: the thread with that person, new (201) or the one
 * they already have (200). */
export const startConversation = (withUserId: string) =>
  api.post<Conversation>('/conversations', { with_user_id: withUserId });
