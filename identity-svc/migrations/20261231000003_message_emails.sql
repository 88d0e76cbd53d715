-- Issue 36: a message unread for 15 minutes is emailed to its reader (at most one email per
-- thread per hour), unless they turned the `messages` category off.
alter table identity.notification_preference add column email_messages boolean not null default true;
-- The scheduler's search: the threads whose reader has unread messages.
create index message_unread_idx on identity.message (conversation_id, created_at);
