/**
 * The shapes of the Messages page's answers and bodies (issue 36), as the design gives them; the
 * gateway's document does not carry them yet. When it does, alias `Schemas[...]` here instead.
 */
import type { Role } from '@/lib/auth';

/** Someone a message or a thread names; `full_name` reads "Deleted user" for a deleted account. */
export interface MessagePerson {
  user_id: string | null;
  full_name: string;
}

/** One message of a thread. `read`: read by the person who did not send it. */
export interface Message {
  message_id: string;
  conversation_id: string;
  sender: MessagePerson;
  body: string;
  created_at: string;
  mine: boolean;
  read: boolean;
}

/** A booking or a court request the two people of a thread share. */
export interface SharedRecord {
  kind: 'booking' | 'court_request';
  id: string;
  date: string;
  start_time: string;
  end_time: string;
  status: string;
}

export type BlockState = 'none' | 'by_me' | 'by_them';

/** A thread between the signed-in person and `other`. */
export interface Conversation {
  conversation_id: string;
  /** A deleted account: user_id and role null, full_name "Deleted user". */
  other: { user_id: string | null; full_name: string; role: Role | null };
  last_message: Message | null;
  unread: number;
  can_send: boolean;
  blocked: BlockState;
  created_at: string;
  updated_at: string;
  /** Newest first, at most 20. */
  shared: SharedRecord[];
}

/** GET /api/conversations/unread-count. */
export interface MessagesUnreadCount {
  unread: number;
}

/** The live stream's `message` event: a new message of one of the signed-in person's threads. */
export interface MessageEvent {
  conversation_id: string;
  message: Message;
}
