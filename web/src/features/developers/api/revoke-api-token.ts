import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { API_TOKENS_KEY } from './get-api-tokens';
import type { ApiToken } from './types';

/** DELETE /api/tokens/{id}: the token stops working at once. */
export async function revokeApiToken(tokenId: string) {
  await api.delete(`${API_TOKENS_KEY}/${encodeURIComponent(tokenId)}`);
  await mutate<ApiToken[]>(API_TOKENS_KEY, (tokens) => tokens?.filter((t) => t.token_id !== tokenId));
}
