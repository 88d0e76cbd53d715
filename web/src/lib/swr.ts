/**
 * SWR set-up shared by the app and the tests. A key is the API path (under /api), so
 * `useSWR('/coaches')` reads GET /api/coaches and `mutate('/coaches')` refreshes it.
 */
import type { SWRConfiguration } from 'swr';
import { ApiError, api } from '@/lib/api-client';

export const swrFetcher = <T>(path: string) => api.get<T>(path);

export const swrConfig: SWRConfiguration = {
  fetcher: swrFetcher,
  revalidateOnFocus: false,
  // A 4xx will not fix itself by asking again; a network blip or a 503 might.
  shouldRetryOnError: (error: unknown) =>
    !(error instanceof ApiError && error.status >= 400 && error.status < 500),
  errorRetryCount: 2,
};

/** Builds an SWR key for a path with a query string, skipping empty values. */
export function withQuery(path: string, query: Record<string, string | number | undefined | null>) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}
