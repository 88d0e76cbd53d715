/** Times and dates on the Developers page, in the reader's clock. */

/** "Nov 28, 2026, 8:31 PM". */
export const formatWhen = (at: string) =>
  new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** "Nov 28, 2026". */
export const formatDay = (at: string) => new Date(at).toLocaleDateString('en-US', { dateStyle: 'medium' });

/** A picked date (YYYY-MM-DD) as the instant its local day ends: a token "expiring on" a day
 * still works through it. Null for no date. */
export function endOfLocalDay(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [, y, m, d] = match.map(Number);
  return new Date(y, m - 1, d, 23, 59, 59).toISOString();
}
