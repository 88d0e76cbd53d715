import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { ApiToken } from './types';

/** GET /api/tokens: the signed-in person's live API tokens, newest first (never their secrets). */
export const API_TOKENS_KEY = '/tokens';

export const getApiTokens = () => api.get<ApiToken[]>(API_TOKENS_KEY);

export const useApiTokens = () => useSWR<ApiToken[]>(API_TOKENS_KEY, getApiTokens);
