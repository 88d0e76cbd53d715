import { toast } from 'sonner';
import { errorMessage } from '@/lib/api-client';
import {
  saveNotificationPreferences,
  useNotificationPreferences,
  type NotificationPreferences,
} from '../api/notification-preferences';

const CATEGORIES: { key: keyof NotificationPreferences; label: string }[] = [
  { key: 'email_bookings', label: 'Bookings' },
  { key: 'email_reminders', label: 'Reminders' },
  { key: 'email_account', label: 'Account' },
  // A message unread for 15 minutes (issue 36).
  { key: 'email_messages', label: 'Messages' },
];

/** "Email me about": one checkbox per category of notification. */
export function EmailPreferences() {
  const { data } = useNotificationPreferences(true);
  if (!data) return null;
  const toggle = (key: keyof NotificationPreferences) =>
    void saveNotificationPreferences({ ...data, [key]: !data[key] }).catch((error: unknown) =>
      toast.error(errorMessage(error, 'Your email choices could not be saved.')),
    );
  return (
    <fieldset id="email-preferences" className="border-t px-4 py-3">
      <legend className="sr-only">Email me about</legend>
      <p aria-hidden="true" className="mb-2 text-xs font-semibold text-navy-800">
        Email me about
      </p>
      <div className="flex flex-wrap gap-4">
        {CATEGORIES.map(({ key, label }) => (
          <label key={key} className="inline-flex items-center gap-2 text-sm text-navy-800">
            <input type="checkbox" checked={data[key]} onChange={() => toggle(key)} />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
