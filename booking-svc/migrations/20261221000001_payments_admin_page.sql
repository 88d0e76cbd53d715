-- The admin's payments list (issue 33): bookings that carry money, newest first, a page at a time
-- (payments::reports::payments reads one range of it, filters applied on the way).
create index booking_payments_page_idx on booking.booking (created_at desc, booking_id desc)
    where price_cents > 0;

-- The bookings whose price is held now, per coach (a coach's earnings: held_cents).
create index booking_authorized_coach_idx on booking.booking (coach_id)
    where payment_status = 'authorized';

