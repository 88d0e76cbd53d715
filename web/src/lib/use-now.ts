import * as React from 'react';

/**
 * The current time, renewed every `everyMs`: what a list offers (cancel until the start, no-show
 * until 7 days after the end) changes with the clock, not only with the data.
 */
export function useNow(everyMs = 30_000): Date {
  const [now, setNow] = React.useState(() => new Date());
  React.useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}
