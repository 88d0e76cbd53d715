//! The coach's time off as booking holds bookings to it, and the bookable calendar: what it calls
//! bookable is what CreateBooking accepts, and it costs a fixed number of statements whatever the
//! range.

use chrono::{Days, NaiveDate, Weekday};
use platform::clock::Clock;
use proto::{booking::v1 as pb, coaching::v1 as cpb};
use tonic::{Code, Status};

use crate::helpers::{TestApp, User, as_user, expect_code, next};

impl TestApp {
    /// Time off of `coach` from `start` to `end` through coaching-svc, with coaching's stamp
    /// renewed as the gateway does after `POST /coach/exceptions`; returns its id.
    async fn time_off(&self, coach: &User, start: NaiveDate, end: NaiveDate, reason: Option<&str>) -> String {
        let request = cpb::CreateTimeOffRequest {
            start_date: start.to_string(),
            end_date: end.to_string(),
            reason: reason.map(Into::into),
        };
        let made = self
            .coaching
            .clone()
            .create_time_off(as_user(coach, request))
            .await
            .expect("coaching-svc saves the time off")
            .into_inner()
            .time_off
            .unwrap();
        self.renew_coaching_stamp().await;
        made.time_off_id
    }

    async fn remove_time_off(&self, coach: &User, time_off_id: &str) {
        let request = cpb::DeleteTimeOffRequest {
            time_off_id: time_off_id.into(),
        };
        self.coaching
            .clone()
            .delete_time_off(as_user(coach, request))
            .await
            .expect("coaching-svc removes the time off");
        self.renew_coaching_stamp().await;
    }

    async fn calendar(
        &self,
        user: &User,
        coach: &User,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<pb::CalendarDay>, Status> {
        let request = pb::GetCoachCalendarRequest {
            coach_id: coach.id.to_string(),
            from: from.to_string(),
            to: to.to_string(),
        };
        Ok(self
            .booking
            .clone()
            .get_coach_calendar(as_user(user, request))
            .await?
            .into_inner()
            .days)
    }
}

fn reasons(days: &[pb::CalendarDay]) -> Vec<(String, Option<String>)> {
    days.iter().map(|d| (d.date.clone(), d.reason.clone())).collect()
}

#[tokio::test]
async fn a_date_of_the_coach_s_time_off_cannot_be_booked_until_the_time_off_is_removed() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    let monday = next(Weekday::Mon);
    // Booked once before the time off: the slot is remembered, and must be forgotten.
    app.book(&client, coach.id, &slot_id, monday + Days::new(21))
        .await
        .unwrap();
    let off = app
        .time_off(
            &coach,
            monday - Days::new(1),
            monday + Days::new(1),
            Some("Tournament"),
        )
        .await;

    let refused = app.book(&client, coach.id, &slot_id, monday).await;
    let detail = expect_code(refused, Code::FailedPrecondition);
    assert_eq!(
        detail,
        format!(
            "the coach is away from {} to {} and takes no bookings then; please choose another date",
            monday - Days::new(1),
            monday + Days::new(1)
        )
    );
    app.book(&client, coach.id, &slot_id, monday + Days::new(7))
        .await
        .expect("a date after the time off is bookable");

    app.remove_time_off(&coach, &off).await;
    app.book(&client, coach.id, &slot_id, monday)
        .await
        .expect("the date is bookable again");
}

#[tokio::test]
async fn the_calendar_shows_each_date_of_each_slot_bookable_or_why_not() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let monday = next(Weekday::Mon);
    let slot_id = app.weekly_slot(&coach, "Monday", "09:00", "10:00").await;
    app.book(&client, coach.id, &slot_id, monday).await.unwrap();
    app.time_off(&coach, monday + Days::new(7), monday + Days::new(7), None)
        .await;

    let days = app
        .calendar(&client, &coach, monday, monday + Days::new(20))
        .await
        .unwrap();

    assert_eq!(
        reasons(&days),
        vec![
            (monday.to_string(), Some("booked".to_owned())),
            ((monday + Days::new(7)).to_string(), Some("time_off".to_owned())),
            ((monday + Days::new(14)).to_string(), None),
        ]
    );
    let free = &days[2];
    assert!(free.bookable);
    assert_eq!(
        (free.start_time.as_str(), free.end_time.as_str()),
        ("09:00", "10:00")
    );
    assert_eq!(free.slot_id, slot_id);
    assert_eq!(free.time_zone, "UTC");
    assert_eq!(free.starts_at, format!("{}T09:00:00Z", monday + Days::new(14)));
    // What it calls bookable is booked; what it calls taken or away is refused.
    app.book(&client, coach.id, &slot_id, monday + Days::new(14))
        .await
        .unwrap();
    for day in &days[..2] {
        let date: NaiveDate = day.date.parse().unwrap();
        assert!(
            app.book(&client, coach.id, &slot_id, date).await.is_err(),
            "{}",
            day.date
        );
    }
}

#[tokio::test]
async fn the_calendar_holds_dates_to_the_coach_s_policy() {
    let app = TestApp::spawn().await;
    let (coach, client) = (app.coach(), app.client());
    let today = app.clock.now().date_naive();
    // One-time slots at 23:00 UTC: tomorrow's is too soon (a notice of three days), the one in
    // three weeks too far (at most 14 days ahead).
    for offset in [1, 7, 21] {
        app.one_time_slot(&coach, today + Days::new(offset), "23:00", "23:30")
            .await;
    }
    app.set_policy(&coach, 3 * 1440, 14, 2880, 1440).await;

    let days = app
        .calendar(&client, &coach, today, today + Days::new(30))
        .await
        .unwrap();

    assert_eq!(
        reasons(&days),
        vec![
            ((today + Days::new(1)).to_string(), Some("too_soon".to_owned())),
            ((today + Days::new(7)).to_string(), None),
            ((today + Days::new(21)).to_string(), Some("too_far".to_owned())),
        ]
    );
}

#[tokio::test]
async fn a_calendar_longer_than_62_days_or_backwards_is_refused_and_any_signed_in_user_may_read_one() {
    let app = TestApp::spawn().await;
    let (coach, gym) = (app.coach(), app.user(platform::auth::Role::Gym));
    let from = next(Weekday::Mon);

    let too_long = app.calendar(&gym, &coach, from, from + Days::new(62)).await;
    assert!(expect_code(too_long, Code::InvalidArgument).contains("at most 62 days"));
    let backwards = app.calendar(&gym, &coach, from, from - Days::new(1)).await;
    expect_code(backwards, Code::InvalidArgument);

    let empty = app
        .calendar(&gym, &coach, from, from + Days::new(61))
        .await
        .unwrap();
    assert!(empty.is_empty(), "a coach without slots has no dates");
}

#[tokio::test]
async fn a_calendar_of_62_days_costs_the_same_few_statements_as_one_of_a_week() {
    let app = TestApp::spawn_with_idle_scheduler().await;
    let (coach, client) = (app.coach(), app.client());
    let from = next(Weekday::Mon);
    for day in ["Monday", "Wednesday", "Saturday"] {
        app.weekly_slot(&coach, day, "09:00", "10:00").await;
    }
    let slot_id = app.weekly_slot(&coach, "Friday", "18:00", "19:00").await;
    for week in 0..4 {
        app.book(&client, coach.id, &slot_id, from + Days::new(4 + 7 * week))
            .await
            .unwrap();
    }
    app.time_off(&coach, from + Days::new(10), from + Days::new(20), None)
        .await;

    let week = statements(&app, &client, &coach, from, from + Days::new(6)).await;
    let two_months = statements(&app, &client, &coach, from, from + Days::new(61)).await;

    assert_eq!(
        two_months.2,
        4 * 9,
        "every occurrence of the four weekly slots is listed"
    );
    assert_eq!(
        (two_months.0, two_months.1),
        (1, 2),
        "booking's one, coaching's two"
    );
    assert_eq!((week.0, week.1), (two_months.0, two_months.1));
}

/// The fewest statements booking-svc and coaching-svc each ran for one calendar over three reads,
/// once the outbox relay has published the events of the bookings made before (its poll can then
/// only add to one of them), and how many dates it listed.
async fn statements(
    app: &TestApp,
    user: &User,
    coach: &User,
    from: NaiveDate,
    to: NaiveDate,
) -> (usize, usize, usize) {
    for _ in 0..200 {
        let unpublished =
            sqlx::query_scalar::<_, i64>("select count(*) from booking.outbox where published_at is null")
                .fetch_one(&app.db)
                .await
                .unwrap();
        if unpublished == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    let (mut booking, mut coaching, mut listed) = (usize::MAX, usize::MAX, 0);
    for _ in 0..3 {
        let (b, c) = (app.statements_run(), app.coaching_statements_run());
        listed = app.calendar(user, coach, from, to).await.unwrap().len();
        booking = booking.min(app.statements_run() - b);
        coaching = coaching.min(app.coaching_statements_run() - c);
    }
    (booking, coaching, listed)
}
