import { cn } from '@/lib/utils';

interface SpinnerProps {
  className?: string;
  /** Spoken by screen readers; the spinner itself is only a picture. */
  label?: string;
}

export function Spinner({ className, label = 'Loading' }: SpinnerProps) {
  return (
    <span role="status" aria-live="polite" className="inline-flex items-center">
      <span
        aria-hidden="true"
        className={cn(
          'inline-block size-8 animate-spin rounded-full border-4 border-navy-100 border-t-court-500',
          className,
        )}
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** Fills the viewport; shown while a stored session is checked or a route chunk loads. */
export function FullPageSpinner() {
  return (
    <div className="flex min-h-screen items-center justify-center bg-background">
      <Spinner className="size-10" />
    </div>
  );
}
