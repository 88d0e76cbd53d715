import { MessageSquare } from 'lucide-react';
import { NavLink } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useMessagesUnreadCount } from '../api/get-conversations';

/** "Messages" in every signed-in header, with the count of unread messages (an icon and the
 * count on a phone, where the header is narrow). */
export function MessagesNavLink() {
  const { data } = useMessagesUnreadCount();
  const unread = data?.unread ?? 0;
  return (
    <Button asChild variant="ghost" size="sm" className="relative">
      <NavLink to={paths.messages.getHref()} aria-label={unread > 0 ? `Messages, ${unread} unread` : 'Messages'}>
        <MessageSquare aria-hidden="true" />
        <span className="hidden sm:inline" aria-hidden="true">
          Messages
        </span>
        {unread > 0 ? (
          <span
            data-testid="messages-unread-count"
            aria-hidden="true"
            className="absolute -right-0.5 -top-0.5 inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-xs font-semibold text-white sm:static"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </NavLink>
    </Button>
  );
}
