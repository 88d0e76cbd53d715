/**
 * A notification links to the row it concerns: `/coach/dashboard?booking=<id>`,
 * `/gym/dashboard?reservation=<id>`. The list holding that row scrolls it into view, focuses it
 * and marks it; a list that pages reads its next pages until the row is there or the list ends.
 */
import * as React from 'react';
import { useSearchParams } from 'react-router-dom';

/** The query parameter a link names its row by. */
export type LinkedParam = 'booking' | 'reservation';

/** What a paged list offers to reach a row beyond its loaded pages (`usePagedList`). */
interface MorePages {
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

/** The attributes a row of a list that can be linked to carries. */
export interface LinkedRowProps {
  id: string;
  tabIndex: -1;
  'data-linked'?: true;
}

/** The classes that mark the linked row (beside the row's own). */
export const LINKED_ROW_CLASS = 'outline-none data-[linked]:ring-2 data-[linked]:ring-ring';

/**
 * `rowProps(id)` for every row of a list whose loaded rows have `ids` (undefined while loading):
 * the row the URL's `param` names is scrolled to and focused once it is loaded.
 */
export function useLinkedRow(param: LinkedParam, ids: readonly string[] | undefined, more?: MorePages) {
  const [searchParams] = useSearchParams();
  const target = searchParams.get(param);
  const loaded = Boolean(target && ids?.includes(target));
  const wantsMore = Boolean(target && ids && !loaded && more?.hasMore && !more.loadingMore);
  // One more page per rows loaded: a render before the page is asked for must not ask twice.
  const askedAtRows = React.useRef<number | null>(null);
  const rows = ids?.length ?? 0;

  React.useEffect(() => {
    if (!wantsMore || askedAtRows.current === rows) return;
    askedAtRows.current = rows;
    more?.loadMore();
  }, [wantsMore, rows, more]);

  React.useEffect(() => {
    if (!loaded || !target) return;
    const row = document.getElementById(rowId(param, target));
    row?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    row?.focus({ preventScroll: true });
  }, [loaded, param, target]);

  return React.useCallback(
    (id: string): LinkedRowProps => ({
      id: rowId(param, id),
      tabIndex: -1,
      ...(id === target ? { 'data-linked': true as const } : {}),
    }),
    [param, target],
  );
}

const rowId = (param: LinkedParam, id: string) => `${param}-${id}`;
