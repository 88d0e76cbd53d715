import * as React from 'react';

/**
 * The page's title and search-engine description (`<meta name="description">` in index.html),
 * set while the page is shown and put back when it goes. Public pages each say what they are;
 * signed-in pages keep the defaults.
 */
export function PageMeta({ title, description }: { title: string; description: string }) {
  React.useEffect(() => {
    const meta = document.querySelector('meta[name="description"]');
    const before = { title: document.title, description: meta?.getAttribute('content') ?? '' };
    document.title = title;
    meta?.setAttribute('content', description);
    return () => {
      document.title = before.title;
      meta?.setAttribute('content', before.description);
    };
  }, [title, description]);
  return null;
}
