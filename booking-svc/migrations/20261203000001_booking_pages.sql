-- Pages of a client's or a coach's bookings (GET /bookings?limit=&cursor=) are read by keyset:
-- (booking_date, start_time, booking_id) after the last row shown. These indexes hold that whole
-- order, so a page is one range scan wherever it starts; they replace the indexes that stopped at
-- the start time.
create index booking_client_page_idx on booking.booking (client_id, booking_date, start_time, booking_id);
create index booking_coach_page_idx on booking.booking (coach_id, booking_date, start_time, booking_id);
drop index booking.booking_client_idx;
drop index booking.booking_coach_idx;
