/**
 * A role's own profile card (coach, gym, client): the profile when there is one, else a prompt to
 * create it, and one button that opens the form to create or edit it.
 */
import { Pencil, Plus, type LucideIcon } from 'lucide-react';
import type * as React from 'react';
import { FormDialog } from '@/components/dialogs/form-dialog';
import { DashboardCard } from './dashboard-card';

interface ProfileCardProps {
  title: string;
  description: string;
  className?: string;
  loading: boolean;
  loadingLabel: string;
  /** Whether a profile is on record: the button then edits it, else creates it. */
  exists: boolean;
  emptyIcon: LucideIcon;
  emptyText: string;
  /** The form, titled "Create Profile" or "Edit Profile"; it calls `close` once saved. */
  form: (title: string, close: () => void) => React.ReactNode;
  /** The profile, shown while it exists. */
  children: React.ReactNode;
}

export function ProfileCard({
  title,
  description,
  className,
  loading,
  loadingLabel,
  exists,
  emptyIcon: EmptyIcon,
  emptyText,
  form,
  children,
}: ProfileCardProps) {
  const action = exists ? 'Edit Profile' : 'Create Profile';
  return (
    <DashboardCard
      className={className}
      title={title}
      description={description}
      actions={
        <FormDialog
          label={action}
          icon={exists ? <Pencil aria-hidden="true" /> : <Plus aria-hidden="true" />}
          variant={exists ? 'outline' : 'accent'}
          disabled={loading}
        >
          {(close) => form(action, close)}
        </FormDialog>
      }
      loading={loading}
      loadingLabel={loadingLabel}
      empty={
        exists ? null : (
          <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-8 text-center">
            <EmptyIcon className="size-8 text-navy-300" aria-hidden="true" />
            <p className="text-sm text-muted-foreground">{emptyText}</p>
          </div>
        )
      }
    >
      {children}
    </DashboardCard>
  );
}
