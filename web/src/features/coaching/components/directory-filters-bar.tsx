import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { MIN_RATINGS, SORTS, type DirectoryFilters } from '../utils/directory-filters';

const selectClass =
  'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-court-500';

/** Specialty, price range, minimum rating and the order of /coaches; each change applies at once. */
export function DirectoryFiltersBar({
  filters,
  onChange,
}: {
  filters: DirectoryFilters;
  onChange: (filters: DirectoryFilters) => void;
}) {
  const set = (key: keyof DirectoryFilters) => (event: { target: { value: string } }) =>
    onChange({ ...filters, [key]: event.target.value });
  return (
    <div role="group" aria-label="Filters" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
      <div className="space-y-2">
        <Label htmlFor="filter-specialty">Specialty</Label>
        <Input id="filter-specialty" value={filters.specialty} onChange={set('specialty')} placeholder="e.g. Shooting" />
      </div>
      <div className="space-y-2">
        <Label htmlFor="filter-min-rate">Min price ($/hr)</Label>
        <Input id="filter-min-rate" type="number" min={0} value={filters.min_rate} onChange={set('min_rate')} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="filter-max-rate">Max price ($/hr)</Label>
        <Input id="filter-max-rate" type="number" min={0} value={filters.max_rate} onChange={set('max_rate')} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="filter-min-rating">Minimum rating</Label>
        <select id="filter-min-rating" className={selectClass} value={filters.min_rating} onChange={set('min_rating')}>
          {MIN_RATINGS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className="space-y-2">
        <Label htmlFor="filter-sort">Sort by</Label>
        <select id="filter-sort" className={selectClass} value={filters.sort} onChange={set('sort')}>
          {SORTS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
