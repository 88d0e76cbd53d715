-- Issue 32, no reset link at rest: the sender empties a letter's body once the SMTP server took
-- it, and a reset letter names the account it is for, so the hourly limit per account
-- (RESET_LETTERS_PER_EMAIL_PER_HOUR) can count them and housekeeping can drop them after an hour.
alter table identity.mail
    add column reset_for uuid references identity.app_user (user_id) on delete cascade;
create index mail_reset_for_idx on identity.mail (reset_for, created_at) where reset_for is not null;
create index password_reset_expires_idx on identity.password_reset (expires_at);

-- Letters sent before this kept their bodies: empty them. Reset letters made before this carry
-- links in clear and cannot be told apart by account: drop them (their links lived 30 minutes).
update identity.mail set text_body = '', html_body = '', ics = null where sent_at is not null;
delete from identity.mail where subject = 'Reset your Courtside password';
