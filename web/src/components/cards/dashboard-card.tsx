/**
 * The one shape of a dashboard card, whatever the role: a title and a line under it, the card's
 * actions beside them, and a body that is a spinner while loading, an empty state while there is
 * nothing to show, or the content.
 */
import type * as React from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';

interface DashboardCardProps {
  /** The card's element id (a link's `#fragment` lands on it). */
  id?: string;
  title: React.ReactNode;
  /** Names the card by its title (a region a test or a screen reader finds by name). */
  titleId?: string;
  description: React.ReactNode;
  /** Buttons beside the title (a `FormDialog`, a second button). */
  actions?: React.ReactNode;
  className?: string;
  contentClassName?: string;
  /** While true the body is a spinner named `loadingLabel`. */
  loading?: boolean;
  loadingLabel?: string;
  /** Shown instead of the content when set (`EmptyNote`, `EmptyProfile`). */
  empty?: React.ReactNode;
  children?: React.ReactNode;
}

export function DashboardCard({
  id,
  title,
  titleId,
  description,
  actions,
  className,
  contentClassName,
  loading,
  loadingLabel,
  empty,
  children,
}: DashboardCardProps) {
  return (
    <Card id={id} className={className} aria-labelledby={titleId}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="space-y-1.5">
          <CardTitle id={titleId}>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        {actions}
      </CardHeader>
      <CardContent className={contentClassName}>
        {loading ? (
          <div className="flex justify-center py-6">
            <Spinner label={loadingLabel ?? 'Loading'} />
          </div>
        ) : (
          (empty ?? children)
        )}
      </CardContent>
    </Card>
  );
}

/** A card's "nothing here yet" line, in a dashed box. */
export function EmptyNote({ children }: { children: React.ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">{children}</p>
  );
}
