-- Payments (issue 33): what a booking costs and what became of its money, the client's cards as
-- the provider reports them, admin refunds, the double-entry ledger, and the provider's webhook
-- events already applied. Amounts are whole cents.

-- A booking's price and fee policy are kept when it is made: a later change of the coach's rate
-- or policy never changes them. Its payment is driven by the payment worker (payments::worker):
-- `charge_cents` is the decided outcome (null while the booking is open: hold the price; a number:
-- capture that much and release the rest), `payment_due_at` when the worker acts next (null:
-- nothing to do), under a lease (`payment_lease_until`) so two replicas never act on one booking
-- at once.
alter table booking.booking
    add column price_cents bigint not null default 0 check (price_cents >= 0),
    add column currency text not null default 'usd',
    add column amount_paid_cents bigint not null default 0 check (amount_paid_cents >= 0),
    add column amount_refunded_cents bigint not null default 0
        check (amount_refunded_cents >= 0 and amount_refunded_cents <= amount_paid_cents),
    add column late_cancellation_fee_percent int not null default 50
        check (late_cancellation_fee_percent between 0 and 100),
    add column no_show_fee_percent int not null default 100
        check (no_show_fee_percent between 0 and 100),
    add column payment_method_id text,
    add column payment_intent_id text,
    -- Bumped when a declined hold is tried again with another card: a new intent, a new key.
    add column payment_generation int not null default 0,
    add column charge_cents bigint check (charge_cents >= 0),
    add column payment_due_at timestamptz,
    add column payment_lease_until timestamptz,
    add column payment_attempts int not null default 0,
    add column payment_error text;

-- Every booking made before payments was free of charge.
update booking.booking set payment_status = 'none' where payment_status = 'pending';

alter table booking.booking add constraint booking_payment_status_check check (payment_status in (
    'none', 'pending', 'authorized', 'paid', 'partially_paid', 'released', 'refunded',
    'partially_refunded', 'failed'));

create index booking_payment_due_idx on booking.booking (payment_due_at)
    where payment_due_at is not null;
create unique index booking_payment_intent_key on booking.booking (payment_intent_id)
    where payment_intent_id is not null;

-- A client's customer at the provider.
create table booking.payment_customer (
    client_id uuid primary key,
    customer_id text not null unique,
    created_at timestamptz not null default now()
);

-- A client's saved cards, as the provider last reported them (booking creation reads these and
-- never waits on the provider).
create table booking.payment_method (
    payment_method_id text primary key,
    client_id uuid not null,
    brand text not null,
    last4 text not null,
    exp_month int not null,
    exp_year int not null,
    is_default boolean not null default false,
    created_at timestamptz not null default now()
);
create index payment_method_client_idx on booking.payment_method (client_id);
create unique index payment_method_one_default on booking.payment_method (client_id)
    where is_default;

-- Every movement of a booking's money, as its receipt lists it.
create table booking.payment_line (
    line_id uuid primary key,
    booking_id uuid not null references booking.booking (booking_id),
    kind text not null check (kind in ('hold', 'capture', 'release', 'refund')),
    amount_cents bigint not null check (amount_cents >= 0),
    reason text,
    provider_ref text,
    at timestamptz not null
);
create index payment_line_booking_idx on booking.payment_line (booking_id, at);

-- An admin's refund: recorded (and audited: who, why, when) in the transaction that accepts it,
-- sent to the provider by the payment worker.
create table booking.refund (
    refund_id uuid primary key,
    booking_id uuid not null references booking.booking (booking_id),
    amount_cents bigint not null check (amount_cents > 0),
    reason text not null,
    requested_by uuid not null,
    requested_at timestamptz not null,
    provider_refund_id text,
    done_at timestamptz,
    due_at timestamptz,
    lease_until timestamptz,
    attempts int not null default 0,
    error text
);
create index refund_booking_idx on booking.refund (booking_id);
create index refund_due_idx on booking.refund (due_at) where done_at is null;

-- The books: every capture and refund is a transaction whose entries sum to zero. Entries are
-- positive for a debit, negative for a credit. Accounts: 'provider' (money at the provider),
-- 'coach:<uuid>' (what the platform owes a coach), 'platform:fees' (the platform's fees).
create table booking.ledger_txn (
    txn_id uuid primary key,
    booking_id uuid not null references booking.booking (booking_id),
    kind text not null check (kind in ('capture', 'refund')),
    at timestamptz not null,
    -- What moved it: a booking's capture, or a refund's id; one transaction each.
    source text not null unique
);
create index ledger_txn_booking_idx on booking.ledger_txn (booking_id);
create index ledger_txn_at_idx on booking.ledger_txn (at);

create table booking.ledger_entry (
    txn_id uuid not null references booking.ledger_txn (txn_id),
    account text not null,
    amount_cents bigint not null,
    primary key (txn_id, account)
);
create index ledger_entry_account_idx on booking.ledger_entry (account);

-- Checked at commit: a transaction whose entries do not sum to zero is refused.
create function booking.ledger_txn_balances() returns trigger language plpgsql as $$
declare
    total bigint;
begin
    select coalesce(sum(amount_cents), 0) into total
        from booking.ledger_entry where txn_id = new.txn_id;
    if total <> 0 then
        raise exception 'ledger transaction % does not balance (sums to %)', new.txn_id, total
            using errcode = '23514';
    end if;
    return null;
end;
$$;
create constraint trigger ledger_entry_balances
    after insert or update on booking.ledger_entry
    deferrable initially deferred
    for each row execute function booking.ledger_txn_balances();

-- Provider events already applied (a replayed webhook changes nothing).
create table booking.webhook_event (
    event_id text primary key,
    kind text not null,
    received_at timestamptz not null default now()
);

-- What the reconciliation job found different between the books and the provider.
create table booking.payment_discrepancy (
    discrepancy_id uuid primary key,
    booking_id uuid not null,
    found_at timestamptz not null,
    ours text not null,
    theirs text not null
);
create index payment_discrepancy_found_idx on booking.payment_discrepancy (found_at);
