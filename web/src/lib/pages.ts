/**
 * Lists that page on the server (`limit`, and the `Link: rel="next"` header for the rest): the
 * first `size` pages of a list, read one after the other, as ONE SWR entry keyed
 * `[firstPagePath, size]`. Loading more asks for one more page; a refresh (`mutate` of the key,
 * or `refreshPaged` by path) reads the pages again from the first, so a row added or removed
 * meanwhile never shows twice or goes missing between pages.
 */
import * as React from 'react';
import useSWR, { mutate, type SWRConfiguration } from 'swr';
import { api, type Page } from '@/lib/api-client';

export type PagedKey = readonly [path: string, size: number];

/** The first `size` pages from `path`, following each page's next link. */
export async function fetchPages<T>([path, size]: PagedKey): Promise<Page<T>[]> {
  const pages: Page<T>[] = [];
  let next: string | null = path;
  while (next && pages.length < size) {
    const page: Page<T> = await api.getPage<T>(next);
    pages.push(page);
    next = page.next;
  }
  return pages;
}

/** Reads again every paged list on screen whose first page's path starts with `prefix`. */
export const refreshPaged = (prefix: string) =>
  mutate((key) => Array.isArray(key) && typeof key[0] === 'string' && key[0].startsWith(prefix));

/** The rows of the pages loaded so far of the list starting at `first` (null: none yet). */
export function usePagedList<T>(first: string | null, idOf: (row: T) => string, config: SWRConfiguration = {}) {
  const [wanted, setWanted] = React.useState({ first, size: 1 });
  // Other filters: one page again.
  const size = wanted.first === first ? wanted.size : 1;
  const key: PagedKey | null = first ? [first, size] : null;
  const { data, error, isLoading, isValidating } = useSWR<Page<T>[]>(key, fetchPages, {
    keepPreviousData: true,
    ...config,
  });
  const pages = data ?? [];
  const seen = new Set<string>();
  const rows = pages
    .flatMap((page) => page.rows)
    .filter((row) => !seen.has(idOf(row)) && Boolean(seen.add(idOf(row))));
  return {
    rows: data ? rows : undefined,
    /** The list's length, when its first page said (`X-Total-Count`). */
    total: pages[0]?.total ?? null,
    hasMore: Boolean(pages.at(-1)?.next),
    loadingMore: isValidating && pages.length < size,
    loadMore: () => setWanted({ first, size: size + 1 }),
    isLoading,
    error: error as unknown,
  };
}
