import * as React from 'react';
import { cn } from '@/lib/utils';

/**
 * A box for content wider than a phone (a week grid, a table): it scrolls sideways inside its card
 * instead of the page, by finger or, once focused, by arrow keys. `label` names it for readers.
 */
export function SideScroll({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div
      tabIndex={0}
      role="region"
      aria-label={label}
      className={cn(
        'overflow-x-auto rounded-lg border focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        className,
      )}
    >
      {children}
    </div>
  );
}
