import { cn } from '@/lib/utils';

/** A grey placeholder of a given size, shown while what goes there loads (no layout shift). */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-muted', className)} />;
}
