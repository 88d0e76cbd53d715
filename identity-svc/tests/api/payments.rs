//! A booking's money in its client's inbox and mail (issue 33): a declined hold asks them to fix
//! their card, a capture leaves a receipt, a refund says how much and why; each event once, the
//! email with the notification's own text and links (read from the mail outbox: without
//! `SMTP_URL` nothing sends it, so it stays as written).

use chrono::{SecondsFormat, Utc};
use platform::events::{BookingFact, Envelope, Event};
use proto::identity::v1 as pb;
use uuid::Uuid;

use crate::helpers::{TestApp, eventually};

struct People {
    coach: (String, pb::User),
    client: (String, pb::User),
}

async fn people(app: &TestApp) -> People {
    People {
        coach: app.register("coach").await,
        client: app.register("client").await,
    }
}

fn id(user: &pb::User) -> Uuid {
    user.user_id.parse().expect("a user id")
}

/// A session on 2030-06-04 from 10:00 to 11:00 in Chicago (daylight time, UTC−5).
fn session(people: &People) -> BookingFact {
    BookingFact {
        booking_id: Uuid::new_v4(),
        coach_id: id(&people.coach.1),
        client_id: id(&people.client.1),
        booking_date: "2030-06-04".into(),
        start_time: "10:00".into(),
        end_time: "11:00".into(),
        time_zone: "America/Chicago".into(),
        starts_at: "2030-06-04T15:00:00Z".into(),
        ends_at: "2030-06-04T16:00:00Z".into(),
        location_name: "Court A".into(),
        rescheduled_from: None,
        rescheduled_to: None,
    }
}

const WHEN: &str = "on 2030-06-04 from 10:00 to 11:00 at Court A (America/Chicago)";

fn envelope(event: Event) -> Envelope {
    Envelope {
        event_id: Uuid::new_v4(),
        occurred_at: Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true),
        event,
    }
}

fn declined(booking: &BookingFact) -> Event {
    Event::PaymentFailed {
        booking: booking.clone(),
        reason: "Your card was declined.".into(),
    }
}

fn captured(booking: &BookingFact, amount_cents: i64) -> Event {
    Event::PaymentCaptured {
        booking: booking.clone(),
        amount_cents,
        currency: "usd".into(),
    }
}

fn refunded(booking: &BookingFact, amount_cents: i64, reason: &str) -> Event {
    Event::PaymentRefunded {
        booking: booking.clone(),
        amount_cents,
        currency: "usd".into(),
        reason: reason.into(),
    }
}

/// Waits until the user's inbox holds `n` notifications; returns it oldest first.
async fn inbox_of(app: &TestApp, token: &str, n: usize) -> Vec<pb::Notification> {
    eventually(&format!("{n} notifications"), || async {
        let mut inbox = app.inbox(token).await;
        inbox.reverse();
        (inbox.len() >= n).then_some(inbox)
    })
    .await
}

/// The email written with a notification: (to, subject, text, html).
async fn email_of(app: &TestApp, notification: &pb::Notification) -> (String, String, String, String) {
    let mail_id: Uuid = notification.notification_id.parse().unwrap();
    sqlx::query_as("select to_address, subject, text_body, html_body from identity.mail where mail_id = $1")
        .bind(mail_id)
        .fetch_one(&app.db)
        .await
        .expect("the notification's email")
}

#[tokio::test]
async fn a_declined_card_asks_the_client_to_fix_it_by_a_day_before_in_the_app_and_by_email() {
    let app = TestApp::start().await;
    let people = people(&app).await;
    let booking = session(&people);

    app.publish(&envelope(declined(&booking))).await;

    let inbox = inbox_of(&app, &people.client.0, 2).await;
    let notice = &inbox[1];
    assert_eq!(notice.kind, "payment_failed");
    assert_eq!(notice.title, "Your card was declined");
    assert_eq!(
        notice.body,
        format!(
            "Your card was declined for your session with Test Person {WHEN}. The card's bank \
             said: Your card was declined. Add a card or choose another one under Payment methods \
             on your dashboard, and we try again at once. If the payment is not fixed by \
             2030-06-03 10:00 (America/Chicago), a day before the session, the booking is \
             released and nothing is charged."
        )
    );
    assert_eq!(notice.link, "/client/dashboard#payment-methods");

    let (to, subject, text, html) = email_of(&app, notice).await;
    assert_eq!(to, people.client.1.email);
    assert_eq!(subject, "Your card was declined");
    assert!(text.contains(&notice.body), "{text}");
    assert!(
        text.contains("Open Courtside: http://courtside.test/client/dashboard#payment-methods"),
        "{text}"
    );
    assert!(
        text.contains("http://courtside.test/client/dashboard#email-preferences"),
        "{text}"
    );
    assert!(
        html.contains("href=\"http://courtside.test/client/dashboard#payment-methods\""),
        "{html}"
    );
    // The coach is not told: the card is the client's to fix.
    assert_eq!(inbox_of(&app, &people.coach.0, 1).await.len(), 1);
}

#[tokio::test]
async fn a_capture_leaves_a_receipt_with_the_amount_in_dollars_and_a_link_to_the_receipt_page() {
    let app = TestApp::start().await;
    let people = people(&app).await;
    let booking = session(&people);

    app.publish(&envelope(captured(&booking, 7500))).await;
    // A late cancellation's fee: half of it.
    app.publish(&envelope(captured(&booking, 3750))).await;

    let inbox = inbox_of(&app, &people.client.0, 3).await;
    let receipt_page = format!("/bookings/{}/receipt", booking.booking_id);
    let (paid, fee) = (&inbox[1], &inbox[2]);
    assert_eq!(
        (paid.kind.as_str(), paid.title.as_str()),
        ("payment_receipt", "Your receipt")
    );
    assert_eq!(
        paid.body,
        format!("You paid $75.00 for your session with Test Person {WHEN}. Your receipt has every detail.")
    );
    assert_eq!(paid.link, receipt_page);
    assert!(fee.body.starts_with("You paid $37.50 for"), "{}", fee.body);

    let (to, subject, text, html) = email_of(&app, paid).await;
    assert_eq!(to, people.client.1.email);
    assert_eq!(subject, "Your receipt");
    assert!(text.contains(&paid.body), "{text}");
    assert!(
        text.contains(&format!("Open Courtside: http://courtside.test{receipt_page}")),
        "{text}"
    );
    // The preferences are on the reader's dashboard, not on the receipt page.
    assert!(
        text.contains(
            "Choose which emails you get: http://courtside.test/client/dashboard#email-preferences"
        ),
        "{text}"
    );
    assert!(html.contains("You paid $75.00"), "{html}");
    assert_eq!(inbox_of(&app, &people.coach.0, 1).await.len(), 1);
}

#[tokio::test]
async fn a_refund_tells_the_client_how_much_and_why_in_the_app_and_by_email() {
    let app = TestApp::start().await;
    let people = people(&app).await;
    let booking = session(&people);

    app.publish(&envelope(refunded(
        &booking,
        2005,
        "The court was closed <early>",
    )))
    .await;

    let inbox = inbox_of(&app, &people.client.0, 2).await;
    let notice = &inbox[1];
    assert_eq!(notice.kind, "payment_refunded");
    assert_eq!(notice.title, "Your refund");
    assert_eq!(
        notice.body,
        format!(
            "We refunded $20.05 of what you paid for your session with Test Person {WHEN} to the \
             card you paid with. Reason: The court was closed <early>"
        )
    );
    assert_eq!(notice.link, format!("/bookings/{}/receipt", booking.booking_id));

    let (_, subject, text, html) = email_of(&app, notice).await;
    assert_eq!(subject, "Your refund");
    assert!(text.contains(&notice.body), "{text}");
    assert!(
        html.contains("Reason: The court was closed &lt;early&gt;"),
        "{html}"
    );
}

#[tokio::test]
async fn each_payment_event_is_applied_once_however_often_it_arrives() {
    let app = TestApp::start().await;
    let people = people(&app).await;
    let booking = session(&people);
    let envelopes = [
        envelope(declined(&booking)),
        envelope(captured(&booking, 7500)),
        envelope(refunded(&booking, 7500, "Coach was ill")),
    ];
    for envelope in &envelopes {
        app.publish(envelope).await;
    }
    inbox_of(&app, &people.client.0, 4).await;

    // Replayed, they change nothing; a new fact after them shows they were read.
    for envelope in &envelopes {
        app.publish(envelope).await;
    }
    app.publish(&envelope(Event::BookingDenied {
        booking: BookingFact {
            booking_id: Uuid::new_v4(),
            ..session(&people)
        },
    }))
    .await;
    let kinds: Vec<String> = inbox_of(&app, &people.client.0, 5)
        .await
        .into_iter()
        .map(|n| n.kind)
        .collect();

    assert_eq!(
        kinds,
        [
            "welcome",
            "payment_failed",
            "payment_receipt",
            "payment_refunded",
            "booking_denied"
        ]
    );
    let emails: i64 = sqlx::query_scalar(
        "select count(*) from identity.mail
         where to_address = $1 and subject in ('Your card was declined', 'Your receipt', 'Your refund')",
    )
    .bind(&people.client.1.email)
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!(emails, 3);
}
