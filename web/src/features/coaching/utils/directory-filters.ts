/**
 * The directory's filters and order on /coaches, kept in the page's URL query so a search can be
 * shared and reloaded; the server applies them (GET /api/coaches and its two searches take the
 * same parameters).
 */

export const SORTS = [
  { value: '', label: 'Default order' },
  { value: 'rating', label: 'Top rated' },
  { value: 'price', label: 'Price: low to high' },
  { value: 'price_desc', label: 'Price: high to low' },
  { value: 'experience', label: 'Most experienced' },
  { value: 'name', label: 'Name' },
] as const;

export const MIN_RATINGS = [
  { value: '', label: 'Any rating' },
  { value: '3', label: '3+ stars' },
  { value: '4', label: '4+ stars' },
  { value: '4.5', label: '4.5+ stars' },
] as const;

export interface DirectoryFilters {
  specialty: string;
  min_rate: string;
  max_rate: string;
  min_rating: string;
  sort: string;
}

const KEYS = ['specialty', 'min_rate', 'max_rate', 'min_rating', 'sort'] as const;

/** The filters a URL query holds (absent ones empty). */
export function readFilters(query: URLSearchParams): DirectoryFilters {
  const filters = { specialty: '', min_rate: '', max_rate: '', min_rating: '', sort: '' };
  for (const key of KEYS) filters[key] = query.get(key)?.trim() ?? '';
  return filters;
}

/** The URL query with `filters` set (empty ones removed), other parameters kept. */
export function writeFilters(query: URLSearchParams, filters: DirectoryFilters): URLSearchParams {
  const next = new URLSearchParams(query);
  for (const key of KEYS) {
    const value = filters[key].trim();
    if (value) next.set(key, value);
    else next.delete(key);
  }
  return next;
}

/** The filters given, as query parameters for the API (empty ones left out). */
export function filterParams(filters: DirectoryFilters): Record<string, string> {
  return Object.fromEntries(KEYS.map((key) => [key, filters[key].trim()]).filter(([, v]) => v));
}

/** Whether any filter or order is chosen. */
export const anyFilter = (filters: DirectoryFilters) => Object.keys(filterParams(filters)).length > 0;
