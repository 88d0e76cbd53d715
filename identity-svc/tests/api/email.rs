//! Email: every notification also leaves by SMTP, through the mail outbox, to a real SMTP server
//! the test runs (a small catcher speaking the protocol); while the server is down the emails
//! wait and go out once it is back; a category turned off sends none.

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use chrono::{Duration as Days, SecondsFormat, Utc};
use platform::events::{BookingFact, Envelope, Event};
use proto::identity::v1 as pb;
use quoted_printable::ParseMode;
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::TcpListener,
    task::JoinHandle,
};
use uuid::Uuid;

use crate::helpers::{REDIS_URL, TestApp, authed, config, eventually, fresh_database};

/// A minimal SMTP server that keeps every message it accepts.
struct Catcher {
    port: u16,
    messages: Arc<Mutex<Vec<String>>>,
    task: JoinHandle<()>,
}

impl Catcher {
    async fn start(port: u16, messages: Arc<Mutex<Vec<String>>>) -> Catcher {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .await
            .expect("the SMTP port");
        let port = listener.local_addr().unwrap().port();
        let kept = messages.clone();
        let task = tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let kept = kept.clone();
                tokio::spawn(async move {
                    let (read, mut write) = socket.into_split();
                    let mut lines = BufReader::new(read).lines();
                    let _ = write.write_all(b"220 catcher ESMTP\r\n").await;
                    while let Ok(Some(line)) = lines.next_line().await {
                        let verb = line.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
                        let reply: &[u8] = match verb.as_str() {
                            "EHLO" | "HELO" => b"250 catcher\r\n",
                            "DATA" => {
                                let _ = write.write_all(b"354 end with .\r\n").await;
                                let mut message = String::new();
                                while let Ok(Some(line)) = lines.next_line().await {
                                    if line == "." {
                                        break;
                                    }
                                    message.push_str(&line);
                                    message.push('\n');
                                }
                                // Kept as a mail client shows it: quoted-printable decoded.
                                let shown = quoted_printable::decode(&message, ParseMode::Robust)
                                    .map_or(message, |bytes| String::from_utf8_lossy(&bytes).into_owned());
                                kept.lock().unwrap().push(shown);
                                b"250 queued\r\n"
                            }
                            "QUIT" => {
                                let _ = write.write_all(b"221 bye\r\n").await;
                                break;
                            }
                            _ => b"250 ok\r\n",
                        };
                        if write.write_all(reply).await.is_err() {
                            break;
                        }
                    }
                });
            }
        });
        Catcher { port, messages, task }
    }

    /// Stops accepting: the port refuses connections until a catcher starts on it again.
    fn stop(self) -> (u16, Arc<Mutex<Vec<String>>>) {
        self.task.abort();
        (self.port, self.messages)
    }

    fn messages(&self) -> Vec<String> {
        self.messages.lock().unwrap().clone()
    }
}

async fn app_mailing_to(port: u16) -> TestApp {
    let mut config = config(&fresh_database().await, REDIS_URL);
    config.outreach.smtp_url = Some(format!("smtp://127.0.0.1:{port}"));
    config.outreach.mail_retry_max = Duration::from_millis(200);
    TestApp::start_with(config).await
}

/// Waits until the catcher holds a message containing `needle`.
async fn received(catcher: &Catcher, needle: &str) -> String {
    eventually(&format!("an email with {needle:?}"), || async {
        catcher.messages().into_iter().find(|m| m.contains(needle))
    })
    .await
}

fn confirmed(coach: &pb::User, client: &pb::User) -> Envelope {
    let starts = Utc::now() + Days::days(5);
    let at = |t: chrono::DateTime<Utc>| t.to_rfc3339_opts(SecondsFormat::Secs, true);
    Envelope {
        event_id: Uuid::new_v4(),
        occurred_at: at(Utc::now()),
        event: Event::BookingConfirmed {
            booking: BookingFact {
                booking_id: Uuid::new_v4(),
                coach_id: coach.user_id.parse().unwrap(),
                client_id: client.user_id.parse().unwrap(),
                booking_date: starts.format("%Y-%m-%d").to_string(),
                start_time: starts.format("%H:%M").to_string(),
                end_time: (starts + Days::hours(1)).format("%H:%M").to_string(),
                time_zone: "UTC".into(),
                starts_at: at(starts),
                ends_at: at(starts + Days::hours(1)),
                location_name: "Austin Rec Center".into(),
                rescheduled_from: None,
                rescheduled_to: None,
            },
        },
    }
}

#[tokio::test]
async fn notifications_are_emailed_and_wait_out_an_smtp_outage_without_loss() {
    let catcher = Catcher::start(0, Arc::default()).await;
    let app = app_mailing_to(catcher.port).await;
    let (_, coach) = app.register("coach").await;
    let (client_token, client) = app.register("client").await;

    // The welcome, as text and HTML, its Message-ID made from the notification's id.
    let welcome = received(&catcher, &format!("To: {}", client.email)).await;
    let id = app.inbox(&client_token).await[0].notification_id.clone();
    assert!(
        welcome.contains(&format!("Message-ID: <{id}@courtside.local>")),
        "{welcome}"
    );
    assert!(welcome.contains("Subject: Welcome to Courtside"), "{welcome}");
    assert!(
        welcome.contains("text/plain") && welcome.contains("text/html"),
        "{welcome}"
    );

    // The server goes away; a confirmation's email waits in the outbox.
    let (port, messages) = catcher.stop();
    app.publish(&confirmed(&coach, &client)).await;
    eventually("a failed attempt", || async {
        let tried: i64 = sqlx::query_scalar(
            "select count(*) from identity.mail where subject = 'Booking confirmed' and sent_at is null and attempts > 0",
        )
        .fetch_one(&app.db)
        .await
        .unwrap();
        (tried > 0).then_some(())
    })
    .await;

    // Back: it goes out, with the session attached and a link built from PUBLIC_URL.
    let catcher = Catcher::start(port, messages).await;
    let confirmation = received(&catcher, "Subject: Booking confirmed").await;
    assert!(confirmation.contains("text/calendar"), "{confirmation}");
    assert!(confirmation.contains("BEGIN:VCALENDAR"), "{confirmation}");
    assert!(
        confirmation.contains("http://courtside.test/client/dashboard?booking="),
        "{confirmation}"
    );
    assert!(
        confirmation.contains("http://courtside.test/client/dashboard#email-preferences"),
        "{confirmation}"
    );
    // The catcher keeps a message before it answers 250, and the outbox marks it sent only on
    // that answer: the row follows the message by a moment.
    eventually("every email marked sent", || async {
        let unsent: i64 = sqlx::query_scalar("select count(*) from identity.mail where sent_at is null")
            .fetch_one(&app.db)
            .await
            .unwrap();
        (unsent == 0).then_some(())
    })
    .await;
    assert_eq!(
        catcher
            .messages()
            .iter()
            .filter(|m| m.contains("Subject: Booking confirmed"))
            .count(),
        1
    );
}

#[tokio::test]
async fn a_category_turned_off_is_not_emailed_but_still_in_the_inbox() {
    let catcher = Catcher::start(0, Arc::default()).await;
    let app = app_mailing_to(catcher.port).await;
    let (_, coach) = app.register("coach").await;
    let (token, client) = app.register("client").await;
    received(&catcher, &format!("To: {}", client.email)).await;

    let updated = app
        .client()
        .update_notification_preferences(authed(
            pb::UpdateNotificationPreferencesRequest {
                preferences: Some(pb::NotificationPreferences {
                    email_bookings: false,
                    email_reminders: true,
                    email_account: true,
                    email_messages: None,
                }),
            },
            &token,
        ))
        .await
        .expect("preferences saved")
        .into_inner();
    assert_eq!(updated.preferences.map(|p| p.email_bookings), Some(false));
    app.publish(&confirmed(&coach, &client)).await;

    eventually("the confirmation in the inbox", || async {
        app.inbox(&token)
            .await
            .into_iter()
            .find(|n| n.kind == "booking_confirmed")
    })
    .await;
    let letters: i64 =
        sqlx::query_scalar("select count(*) from identity.mail where subject = 'Booking confirmed'")
            .fetch_one(&app.db)
            .await
            .unwrap();
    assert_eq!(letters, 0);
    let read = app
        .client()
        .get_notification_preferences(authed(pb::GetNotificationPreferencesRequest {}, &token))
        .await
        .unwrap()
        .into_inner()
        .preferences
        .unwrap();
    assert!(!read.email_bookings && read.email_reminders && read.email_account);
}

#[tokio::test]
async fn a_sent_reset_letter_keeps_no_link_in_the_outbox() {
    let catcher = Catcher::start(0, Arc::default()).await;
    let app = app_mailing_to(catcher.port).await;
    let (_, user) = app.register("client").await;

    app.client()
        .forgot_password(pb::ForgotPasswordRequest {
            email: user.email.clone(),
        })
        .await
        .expect("ForgotPassword answers");

    let letter = received(&catcher, "/reset-password#token=").await;
    assert!(
        !letter.contains("?token="),
        "the link uses the fragment only: {letter}"
    );
    eventually("the letter marked sent with its body emptied", || async {
        let (text, html, sent): (String, String, bool) = sqlx::query_as(
            "select text_body, html_body, sent_at is not null from identity.mail
             where to_address = $1 and reset_for is not null",
        )
        .bind(&user.email)
        .fetch_one(&app.db)
        .await
        .unwrap();
        (sent && text.is_empty() && html.is_empty()).then_some(())
    })
    .await;
}
