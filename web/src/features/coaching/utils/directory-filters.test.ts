import { describe, expect, it } from 'vitest';
import { anyFilter, filterParams, readFilters, writeFilters } from './directory-filters';

describe('the directory filters in the URL', () => {
  it('reads what the query holds and writes back only what is set, keeping the rest', () => {
    const query = new URLSearchParams('sort=price&min_rating=4&other=x');
    const filters = readFilters(query);
    expect(filters).toEqual({ specialty: '', min_rate: '', max_rate: '', min_rating: '4', sort: 'price' });
    const written = writeFilters(query, { ...filters, min_rating: '', specialty: 'Defense' });
    expect(written.toString()).toBe('sort=price&other=x&specialty=Defense');
  });

  it('sends only the chosen filters to the API', () => {
    const none = readFilters(new URLSearchParams());
    expect(anyFilter(none)).toBe(false);
    expect(filterParams({ ...none, max_rate: '60 ' })).toEqual({ max_rate: '60' });
  });
});
