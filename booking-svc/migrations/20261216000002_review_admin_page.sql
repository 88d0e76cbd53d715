-- Issue 19: the admin's list of every review (hidden ones too), newest first: one range of this
-- index a page, keyset (created_at, review_id) as a coach's list.
create index review_admin_page_idx on booking.review (created_at desc, review_id desc);
