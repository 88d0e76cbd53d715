-- Issue 36: an admin's suspension of a user is audited in the transaction that makes it.
alter table identity.admin_audit drop constraint admin_audit_action_check;
alter table identity.admin_audit add constraint admin_audit_action_check
    check (action in ('user_created', 'user_updated', 'user_deleted', 'api_token_used', 'user_suspended'));
