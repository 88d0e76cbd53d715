import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

/**
 * The coach grid while it loads: as many cards as fill a screen, each as tall as a coach card, so
 * what follows the list does not jump when the coaches arrive. Spoken once as `label`.
 */
export function CoachCardSkeletons({ label, count = 6 }: { label: string; count?: number }) {
  return (
    <div role="status" aria-live="polite">
      <span className="sr-only">{label}</span>
      <div className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {Array.from({ length: count }, (_, i) => (
          <Card key={i} className="flex h-[18.5rem] flex-col p-6" aria-hidden="true">
            <div className="flex items-center gap-4">
              <Skeleton className="size-14 shrink-0 rounded-full" />
              <div className="flex-1 space-y-2">
                <Skeleton className="h-5 w-2/3" />
                <Skeleton className="h-4 w-1/2" />
              </div>
            </div>
            <Skeleton className="mt-4 h-5 w-3/4" />
            <Skeleton className="mt-4 h-14 w-full" />
            <div className="mt-auto flex items-center justify-between pt-5">
              <Skeleton className="h-7 w-20" />
              <Skeleton className="h-11 w-28 sm:h-10" />
            </div>
          </Card>
        ))}
      </div>
    </div>
  );
}
