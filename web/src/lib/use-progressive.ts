import * as React from 'react';

/**
 * A long list rendered a screenful at a time: the first `step` items, then `step` more each time
 * the sentinel (put after the list) scrolls near the viewport, or `showMore` is called (a button,
 * for keyboards and browsers without IntersectionObserver). Starts again from the first screenful
 * whenever `resetKey` changes (another search).
 */
export function useProgressive<T>(items: readonly T[], step: number, resetKey: unknown) {
  const [wanted, setWanted] = React.useState({ resetKey, count: step });
  const count = Object.is(wanted.resetKey, resetKey) ? wanted.count : step;
  const showMore = React.useCallback(
    () => setWanted((w) => ({ resetKey, count: (Object.is(w.resetKey, resetKey) ? w.count : step) + step })),
    [resetKey, step],
  );
  const hasMore = items.length > count;
  const sentinel = React.useRef<HTMLDivElement | null>(null);
  React.useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) showMore();
    }, { rootMargin: '800px 0px' });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasMore, showMore, count]);
  return { shown: items.slice(0, count), hasMore, showMore, sentinel };
}
