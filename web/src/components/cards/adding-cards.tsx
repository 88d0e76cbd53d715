/**
 * The cards both a coach and a gym keep of what they add, with the same words for both roles:
 * their locations ("Add Location") and their availability ("Add Availability"). The role brings
 * its title, its form and its list.
 */
import type * as React from 'react';
import { FormDialog } from '@/components/dialogs/form-dialog';
import { DashboardCard, EmptyNote } from './dashboard-card';

interface AddingCardProps {
  title: React.ReactNode;
  description: string;
  className?: string;
  loading: boolean;
  /** Nothing added yet: the card says so instead of showing `children`. */
  isEmpty: boolean;
  /** The add form; it calls `close` once saved. */
  form: (close: () => void) => React.ReactNode;
  /** Buttons before the add button (a gym's Add Court). */
  moreActions?: React.ReactNode;
  children: React.ReactNode;
}

interface Words {
  add: string;
  loading: string;
  empty: string;
  contentClassName?: string;
}

function AddingCard({ title, description, className, loading, isEmpty, form, moreActions, children, words }: AddingCardProps & { words: Words }) {
  const add = <FormDialog label={words.add}>{form}</FormDialog>;
  return (
    <DashboardCard
      className={className}
      contentClassName={words.contentClassName}
      title={title}
      description={description}
      actions={
        moreActions ? (
          <div className="flex flex-wrap gap-2">
            {moreActions}
            {add}
          </div>
        ) : (
          add
        )
      }
      loading={loading}
      loadingLabel={words.loading}
      empty={isEmpty ? <EmptyNote>{words.empty}</EmptyNote> : null}
    >
      {children}
    </DashboardCard>
  );
}

const LOCATIONS: Words = { add: 'Add Location', loading: 'Loading locations', empty: 'No locations added yet.' };
const AVAILABILITY: Words = {
  add: 'Add Availability',
  loading: 'Loading availability',
  empty: 'No availability set yet.',
  contentClassName: 'space-y-6',
};

/** A role's locations: Add Location, and the list. */
export const LocationsCard = (props: AddingCardProps) => <AddingCard {...props} words={LOCATIONS} />;

/** A role's availability: Add Availability, the week and the list. */
export const AvailabilityCardFrame = (props: AddingCardProps) => <AddingCard {...props} words={AVAILABILITY} />;
