import { MessageSquare } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button, type ButtonProps } from '@/components/ui/button';
import { paths } from '@/config/paths';

interface MessageLinkProps {
  /** The person to write to. */
  userId: string;
  /** Their name, for a screen reader ("Message Maya Thompson"). */
  name: string;
  /** The words on the button; "Message" unless told. */
  label?: string;
  variant?: ButtonProps['variant'];
}

/** "Message": opens the Messages page on the thread with that person, started if need be (on a
 * booking, a court request or a coach's page). */
export function MessageLink({ userId, name, label = 'Message', variant = 'outline' }: MessageLinkProps) {
  return (
    <Button asChild variant={variant} size="sm">
      <Link to={paths.messages.getHref(userId)} aria-label={`${label} ${name}`}>
        <MessageSquare aria-hidden="true" />
        {label}
      </Link>
    </Button>
  );
}
