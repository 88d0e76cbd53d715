/** Server data of the Messages page and the admin's Reports list (issue 36) for component tests. */
import type { MessageReport } from '@/features/admin/api/reports';
import type { Conversation, Message } from '@/features/messages/api/types';

export const CLIENT_ID = '11111111-1111-4111-8111-111111111111';
export const COACH_ID = '22222222-2222-4222-8222-222222222222';
export const CONVERSATION_ID = 'c0000000-0000-4000-8000-000000000001';

export function message(overrides: Partial<Message> = {}): Message {
  return {
    message_id: 'm-1',
    conversation_id: CONVERSATION_ID,
    sender: { user_id: COACH_ID, full_name: 'Carla Coach' },
    body: 'See you at 6 pm on court 2.',
    created_at: '2026-11-28T18:00:00Z',
    mine: false,
    read: true,
    ...overrides,
  };
}

export function conversation(overrides: Partial<Conversation> = {}): Conversation {
  return {
    conversation_id: CONVERSATION_ID,
    other: { user_id: COACH_ID, full_name: 'Carla Coach', role: 'coach' },
    last_message: message(),
    unread: 0,
    can_send: true,
    blocked: 'none',
    created_at: '2026-11-27T10:00:00Z',
    updated_at: '2026-11-28T18:00:00Z',
    shared: [
      {
        kind: 'booking',
        id: 'b-1',
        date: '2026-12-01',
        start_time: '18:00',
        end_time: '19:00',
        status: 'confirmed',
      },
    ],
    ...overrides,
  };
}

export function report(overrides: Partial<MessageReport> = {}): MessageReport {
  const reported = message({ message_id: 'm-2', body: 'Pay me outside the app or else.', created_at: '2026-11-28T18:01:00Z' });
  return {
    report_id: 'r-1',
    reason: 'Asked me to pay outside Courtside',
    created_at: '2026-11-28T18:05:00Z',
    reporter: { user_id: CLIENT_ID, full_name: 'Pat Morgan' },
    sender: { user_id: COACH_ID, full_name: 'Carla Coach', suspended: false },
    message: reported,
    context: [
      message({ message_id: 'm-1', body: 'Hi Carla', mine: false, sender: { user_id: CLIENT_ID, full_name: 'Pat Morgan' } }),
      reported,
      message({ message_id: 'm-3', body: 'No thanks.', created_at: '2026-11-28T18:02:00Z', sender: { user_id: CLIENT_ID, full_name: 'Pat Morgan' } }),
    ],
    ...overrides,
  };
}

/** Every call /messages/{id} makes for a thread with Carla Coach holding `messages` (newest first). */
export function threadApi(
  messages: Message[] = [message()],
  overrides: Partial<Conversation> = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const thread = conversation({ last_message: messages[0] ?? null, ...overrides });
  return {
    'GET /conversations': [thread],
    [`GET /conversations/${CONVERSATION_ID}`]: thread,
    [`GET /conversations/${CONVERSATION_ID}/messages`]: messages,
    ...extra,
  };
}
