/**
 * The shapes of the Messages page's answers and bodies (issue 36), from the gateway's document;
 * the words it gives as strings (`blocked`, `kind`, `role`) narrowed to the values it lists.
 */
import type { Complete, Schemas } from '@/lib/api-types';
import type { Role } from '@/lib/auth';

/** Someone a message names; `full_name` reads "Deleted user" for a deleted account. */
export type MessagePerson = Complete<Schemas['Sender']>;

/** One message of a thread. `read`: read by its recipient (the other person for yours; you for
 * theirs). */
export type Message = Complete<Schemas['Message']>;

/** A booking or a court request the two people of a thread share. */
export type SharedRecord = Omit<Complete<Schemas['SharedRecord']>, 'kind'> & { kind: 'booking' | 'court_request' };

export type BlockState = 'none' | 'by_me' | 'by_them';

/** The other person of a thread; a deleted account: user_id and role null, "Deleted user". */
export type OtherPerson = Omit<Complete<Schemas['OtherPerson']>, 'role'> & { role: Role | null };

/** A thread between the signed-in person and `other`. */
export type Conversation = Omit<Complete<Schemas['Conversation']>, 'blocked' | 'shared' | 'other'> & {
  blocked: BlockState;
  /** Newest first, at most 20. */
  shared: SharedRecord[];
  other: OtherPerson;
};

/** GET /api/conversations/unread-count. */
export type MessagesUnreadCount = Complete<Schemas['UnreadMessages']>;

/** The live stream's `message` event: a new message of one of the signed-in person's threads. */
export interface MessageEvent {
  conversation_id: string;
  message: Message;
}
