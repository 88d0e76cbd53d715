-- The relay delivers events in the order they were written: created_at (the transaction's start)
-- ties within one transaction and can run backwards across concurrent ones, a sequence does not.
alter table identity.outbox add column seq bigint generated always as identity;
drop index identity.outbox_unpublished_idx;
create index outbox_unpublished_idx on identity.outbox (seq) where published_at is null;
-- Published rows are deleted after a day.
create index outbox_published_at_idx on identity.outbox (published_at) where published_at is not null;

-- Revocations are forgotten once the token would have expired anyway.
create index revoked_token_expires_at_idx on identity.revoked_token (expires_at);
