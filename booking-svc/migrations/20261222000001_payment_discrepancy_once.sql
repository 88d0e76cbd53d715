-- The reconciliation (issue 33) records each difference between the books and the provider once
-- per booking, however many replicas compare at once.
create unique index payment_discrepancy_once on booking.payment_discrepancy (booking_id, ours, theirs);
