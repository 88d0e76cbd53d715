import { initialOf } from '@/lib/names';
import { cn } from '@/lib/utils';

/** The coach's initial in a coloured disc (coaches have no photos). */
export function CoachAvatar({ name, className }: { name: string; className?: string }) {
  return (
    <div
      aria-hidden="true"
      className={cn(
        'flex size-14 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-court-700 to-court-800 text-2xl font-extrabold text-white shadow-sm',
        className,
      )}
    >
      {initialOf(name)}
    </div>
  );
}
