import { Star } from 'lucide-react';
import { cn } from '@/lib/utils';

/** "4.8 · 23 reviews", or "1 review"; a coach without reviews is a "New coach". */
export function ratingText(average: number | null | undefined, count: number | null | undefined): string {
  if (!count || average === null || average === undefined) return 'New coach';
  return `${average.toFixed(1)} · ${count} ${count === 1 ? 'review' : 'reviews'}`;
}

/** A coach's stars on a card or the profile: the average and the count, from verified reviews. */
export function RatingSummary({
  average,
  count,
  className,
}: {
  average: number | null | undefined;
  count: number | null | undefined;
  className?: string;
}) {
  const rated = Boolean(count) && average !== null && average !== undefined;
  return (
    <p
      className={cn('inline-flex items-center gap-1.5 text-sm', rated ? 'text-navy-800' : 'text-muted-foreground', className)}
      title={rated ? `Rated ${average?.toFixed(1)} out of 5 by clients after their sessions` : 'No reviews yet'}
      data-testid="rating-summary"
    >
      <Star
        className={cn('size-4 shrink-0', rated ? 'fill-amber-400 text-amber-400' : 'text-navy-300')}
        aria-hidden="true"
      />
      <span className={rated ? 'font-semibold' : undefined}>{ratingText(average, count)}</span>
    </p>
  );
}
