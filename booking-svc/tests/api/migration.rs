//! The migration of issue 16 on bookings made before it: their zone was never recorded, so they are
//! read as UTC under the default policy, and those the clock has already passed are moved quietly
//! (no event), as the scheduler would have left them.

use std::borrow::Cow;

use platform::testing;
use sqlx::PgPool;
use uuid::Uuid;

#[tokio::test]
async fn bookings_made_before_zones_were_kept_are_read_as_utc_and_past_ones_move_without_events() {
    let db = PgPool::connect(&testing::fresh_database("booking").await)
        .await
        .unwrap();
    let mut before = sqlx::migrate!();
    before.migrations = Cow::Owned(before.migrations.iter().take(1).cloned().collect());
    before.run(&db).await.unwrap();
    let rows = [
        ("future pending", "2030-06-03", "pending", "2030-05-20T10:00:00Z"),
        (
            "future confirmed",
            "2030-06-10",
            "confirmed",
            "2030-06-09T10:00:00Z",
        ),
        ("past pending", "2020-06-03", "pending", "2020-05-20T10:00:00Z"),
        (
            "past confirmed",
            "2020-06-10",
            "confirmed",
            "2020-06-01T10:00:00Z",
        ),
        (
            "past cancelled",
            "2020-06-17",
            "cancelled",
            "2020-06-01T10:00:00Z",
        ),
    ];
    for (name, date, status, created_at) in rows {
        sqlx::query(
            "insert into booking.booking (booking_id, client_id, coach_id, slot_id, booking_date,
                 start_time, end_time, location_name, status, created_at)
             values ($1, $2, $3, $4, $5::date, '09:00', '10:00', $6, $7, $8::timestamptz)",
        )
        .bind(Uuid::new_v4())
        .bind(Uuid::new_v4())
        .bind(Uuid::new_v4())
        .bind(Uuid::new_v4())
        .bind(date)
        .bind(name)
        .bind(status)
        .bind(created_at)
        .execute(&db)
        .await
        .unwrap();
    }

    sqlx::migrate!().run(&db).await.unwrap();

    let migrated: Vec<(String, String, String, String, String, i32)> = sqlx::query_as(
        "select location_name, status, time_zone,
                to_char(starts_at at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI\"Z\"'),
                to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI\"Z\"'),
                cancellation_window_minutes
         from booking.booking order by booking_date",
    )
    .fetch_all(&db)
    .await
    .unwrap();
    let expect = |name: &str, status: &str, starts: &str, expires: &str| {
        (
            name.to_owned(),
            status.to_owned(),
            "UTC".to_owned(),
            starts.to_owned(),
            expires.to_owned(),
            1440,
        )
    };
    assert_eq!(
        migrated,
        [
            expect(
                "past pending",
                "expired",
                "2020-06-03T09:00Z",
                "2020-05-22T10:00Z"
            ),
            expect(
                "past confirmed",
                "completed",
                "2020-06-10T09:00Z",
                "2020-06-03T10:00Z"
            ),
            expect(
                "past cancelled",
                "cancelled",
                "2020-06-17T09:00Z",
                "2020-06-03T10:00Z"
            ),
            expect(
                "future pending",
                "pending",
                "2030-06-03T09:00Z",
                "2030-05-22T10:00Z"
            ),
            // Made the day before: the 48-hour window would end after its start.
            expect(
                "future confirmed",
                "confirmed",
                "2030-06-10T09:00Z",
                "2030-06-10T09:00Z"
            ),
        ]
    );
    let events: i64 = sqlx::query_scalar("select count(*) from booking.outbox")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(events, 0, "the migration tells nobody");
}
