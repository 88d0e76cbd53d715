import { mutate } from 'swr';
import { api } from '@/lib/api-client';
import { API_TOKENS_KEY } from './get-api-tokens';
import type { ApiTokenBody, CreatedApiToken } from './types';

/** POST /api/tokens: a new token; its secret (`token`) is in this answer alone. */
export async function createApiToken(body: ApiTokenBody) {
  const created = await api.post<CreatedApiToken>(API_TOKENS_KEY, body);
  await mutate(API_TOKENS_KEY);
  return created;
}
