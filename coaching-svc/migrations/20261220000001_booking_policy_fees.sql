-- Issue 33: what a client's late cancellation and a no-show cost, each a percentage of the
-- booking's price (booking-svc keeps both on a booking when it is made). A coach without a policy
-- row has the defaults (these and BookingPolicy::DEFAULT in src/domain/policy.rs); a coach with
-- one gets them now.
alter table coaching.booking_policy
    add column late_cancellation_fee_percent integer not null default 50
        check (late_cancellation_fee_percent between 0 and 100),
    add column no_show_fee_percent integer not null default 100
        check (no_show_fee_percent between 0 and 100);
