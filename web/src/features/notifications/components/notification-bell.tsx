import { Bell, CheckCheck } from 'lucide-react';
import * as React from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { formatDistanceToNowShort } from '../utils';
import { useNotifications, useUnreadCount, type Notification } from '../api/get-notifications';
import { markAllNotificationsRead, markNotificationRead } from '../api/mark-read';
import { useLiveNotifications } from '../api/use-live-notifications';
import { EmailPreferences } from './email-preferences';

/** The bell in every dashboard's top bar: the unread count, and a panel listing the
 * notifications (each opens its link and is marked read; "Mark all read"). Follows the live
 * stream while shown. */
export function NotificationBell() {
  useLiveNotifications();
  const [open, setOpen] = React.useState(false);
  const { data: unread } = useUnreadCount();
  const count = unread?.count ?? 0;
  const panelId = React.useId();
  const root = React.useRef<HTMLDivElement>(null);

  React.useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    const onClick = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  return (
    <div className="relative" ref={root}>
      <Button
        variant="ghost"
        size="sm"
        aria-label={count > 0 ? `Notifications, ${count} unread` : 'Notifications'}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <Bell aria-hidden="true" />
        {count > 0 ? (
          <span
            data-testid="unread-count"
            className="absolute -right-0.5 -top-0.5 inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-xs font-semibold text-white"
          >
            {count > 99 ? '99+' : count}
          </span>
        ) : null}
      </Button>
      {open ? <NotificationPanel id={panelId} onClose={() => setOpen(false)} /> : null}
    </div>
  );
}

function NotificationPanel({ id, onClose }: { id: string; onClose: () => void }) {
  const { data, error, isLoading } = useNotifications(true);
  const navigate = useNavigate();
  const list = data ?? [];
  const anyUnread = list.some((n) => !n.read_at);

  const openOne = (n: Notification) => {
    if (!n.read_at) void markNotificationRead(n.notification_id).catch(() => undefined);
    onClose();
    navigate(n.link);
  };

  return (
    <div
      id={id}
      role="dialog"
      aria-label="Notifications"
      className="absolute right-0 z-50 mt-2 w-[22rem] max-w-[calc(100vw-2rem)] rounded-lg border bg-white shadow-lg"
    >
      <div className="flex items-center justify-between border-b px-4 py-2">
        <h2 className="text-sm font-semibold text-navy-900">Notifications</h2>
        <Button
          variant="ghost"
          size="sm"
          disabled={!anyUnread}
          onClick={() => void markAllNotificationsRead().catch(() => undefined)}
        >
          <CheckCheck aria-hidden="true" />
          Mark all read
        </Button>
      </div>
      {isLoading ? (
        <p className="px-4 py-6 text-sm text-muted-foreground">Loading…</p>
      ) : error ? (
        <p className="px-4 py-6 text-sm text-muted-foreground">Notifications could not be loaded.</p>
      ) : list.length === 0 ? (
        <p className="px-4 py-6 text-sm text-muted-foreground">No notifications yet.</p>
      ) : (
        <ul className="max-h-96 divide-y overflow-y-auto" aria-label="Your notifications">
          {list.map((n) => (
            <li key={n.notification_id} className={n.read_at ? '' : 'bg-navy-50/60'}>
              <div className="flex items-start gap-2 px-4 py-3">
                <button
                  type="button"
                  className="min-w-0 flex-1 text-left"
                  onClick={() => openOne(n)}
                >
                  <span className="block text-sm font-semibold text-navy-900">
                    {n.read_at ? null : <span className="sr-only">Unread: </span>}
                    {n.title}
                  </span>
                  <span className="block text-sm text-navy-700">{n.body}</span>
                  <span className="block text-xs text-muted-foreground">{formatDistanceToNowShort(n.created_at)}</span>
                </button>
                {n.read_at ? null : (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Mark "${n.title}" read`}
                    onClick={() => void markNotificationRead(n.notification_id).catch(() => undefined)}
                  >
                    <CheckCheck aria-hidden="true" />
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <EmailPreferences />
    </div>
  );
}
