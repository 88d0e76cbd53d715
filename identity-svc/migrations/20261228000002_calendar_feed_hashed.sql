-- Issue 32, no feed secret at rest in clear: a calendar feed keeps only the SHA-256 (hex) of its
-- secret, and a fetch looks the feed up by the hash of the secret in its address. Existing feeds
-- keep working: their secrets are hashed in place. Since the secret can no longer be read back,
-- the owner sees the address when the feed is made or reset (identity-svc/src/feeds.rs).
alter table identity.calendar_feed add column secret_hash text;
update identity.calendar_feed set secret_hash = encode(sha256(convert_to(secret, 'UTF8')), 'hex');
alter table identity.calendar_feed
    alter column secret_hash set not null,
    drop constraint calendar_feed_secret_key,
    drop column secret,
    add constraint calendar_feed_secret_hash_key unique (secret_hash);
