import { api } from '@/lib/api-client';
import { refreshConversations } from './get-conversations';

/** POST /api/users/{id}/block: no new messages either way; the thread stays readable. */
export async function blockUser(userId: string) {
  await api.post<void>(`/users/${encodeURIComponent(userId)}/block`);
  await refreshConversations();
}

/** DELETE /api/users/{id}/block. */
export async function unblockUser(userId: string) {
  await api.delete(`/users/${encodeURIComponent(userId)}/block`);
  await refreshConversations();
}
