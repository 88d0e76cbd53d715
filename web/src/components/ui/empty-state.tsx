import * as React from 'react';
import { cn } from '@/lib/utils';

interface EmptyStateProps {
  icon?: React.ReactNode;
  title: string;
  description?: React.ReactNode;
  action?: React.ReactNode;
  className?: string;
}

/** A quiet "nothing here yet" panel: a title, a hint, and optionally one action. */
export function EmptyState({ icon, title, description, action, className }: EmptyStateProps) {
  return (
    <div
      className={cn(
        'flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed bg-white/60 px-6 py-12 text-center',
        className,
      )}
    >
      {icon ? <div className="mb-2 text-navy-300 [&_svg]:size-10">{icon}</div> : null}
      <p className="text-lg font-semibold text-navy-900">{title}</p>
      {description ? <p className="max-w-sm text-sm text-muted-foreground">{description}</p> : null}
      {action ? <div className="mt-3">{action}</div> : null}
    </div>
  );
}
