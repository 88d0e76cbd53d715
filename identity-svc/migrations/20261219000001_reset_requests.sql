-- Issue 18, no enumeration by timing: a request for a reset link is recorded with the same one
-- insert whether or not its email has an account, so neither the answer nor how long it takes
-- tells. The reset issuer (identity-svc/src/reset.rs) turns the requests into tokens and letters
-- moments later; a request whose email has no account is dropped then.
create table identity.reset_request (
    request_id bigint generated always as identity primary key,
    email text not null,
    asked_at timestamptz not null default now()
);
