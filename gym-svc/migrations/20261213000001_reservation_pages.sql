-- Pages of a coach's court reservations (GET /coach/court-reservations?limit=&cursor=) are read by
-- keyset: (created_at desc, reservation_id) after the last row shown. This index holds that whole
-- order, so a page is one range scan wherever it starts; it replaces the index that stopped at the
-- request's time.
create index court_reservation_coach_page_idx
    on gym.court_reservation (coach_id, created_at desc, reservation_id);
drop index gym.court_reservation_coach_idx;
