//! Conversations' unread-message email (issue 36), on an injected clock: a message unread for 15
//! minutes is emailed to its reader once, with a link into the thread; at most one email per
//! thread an hour; none for a message read in time; none once the `messages` category is off.

use std::time::Duration as Wait;

use chrono::{Duration, Utc};
use platform::clock::ManualClock;
use proto::identity::v1 as pb;

use crate::helpers::{TestApp, authed, eventually};

async fn letters(app: &TestApp, to: &str) -> Vec<(String, String)> {
    sqlx::query_as::<_, (String, String)>(
        "select subject, text_body from identity.mail
         where to_address = $1 and subject like 'New message from %' order by created_at",
    )
    .bind(to)
    .fetch_all(&app.db)
    .await
    .expect("the mail outbox reads")
}

async fn send(app: &TestApp, token: &str, conversation_id: &str, body: &str) {
    app.client()
        .send_message(authed(
            pb::SendMessageRequest {
                conversation_id: conversation_id.into(),
                body: body.into(),
            },
            token,
        ))
        .await
        .expect("SendMessage answers");
}

/// Lets the scheduler (every 100 ms) run a few times at the clock's time.
async fn ticks() {
    tokio::time::sleep(Wait::from_millis(600)).await;
}

#[tokio::test]
async fn an_unread_message_is_emailed_once_an_hour_per_thread_and_follows_the_preference() {
    let clock = ManualClock::at(Utc::now());
    let app = TestApp::start_with_clock(clock.clone()).await;
    let (client, _) = app.register("client").await;
    let (coach, coach_user) = app.register("coach").await;
    let thread = app
        .client()
        .start_conversation(authed(
            pb::StartConversationRequest {
                with_user_id: coach_user.user_id.clone(),
            },
            &client,
        ))
        .await
        .expect("StartConversation answers")
        .into_inner()
        .conversation
        .expect("a conversation");
    let id = thread.conversation_id;

    send(&app, &client, &id, "Can we work on my jump shot?").await;
    clock.advance(Duration::minutes(14));
    ticks().await;
    assert!(
        letters(&app, &coach_user.email).await.is_empty(),
        "not before 15 minutes"
    );

    clock.advance(Duration::minutes(2));
    let sent = eventually("the unread message emailed", || async {
        let sent = letters(&app, &coach_user.email).await;
        (!sent.is_empty()).then_some(sent)
    })
    .await;
    assert_eq!(sent.len(), 1);
    assert!(sent[0].0.starts_with("New message from "), "{:?}", sent[0]);
    assert!(
        sent[0]
            .1
            .contains(&format!("http://courtside.test/messages/{id}")),
        "{}",
        sent[0].1
    );
    ticks().await;
    assert_eq!(letters(&app, &coach_user.email).await.len(), 1, "once");

    // Another message within the hour: no second email until the hour has passed.
    send(&app, &client, &id, "Also my free throws").await;
    clock.advance(Duration::minutes(20));
    ticks().await;
    assert_eq!(
        letters(&app, &coach_user.email).await.len(),
        1,
        "at most one an hour"
    );
    clock.advance(Duration::minutes(45));
    eventually("the second email after the hour", || async {
        (letters(&app, &coach_user.email).await.len() == 2).then_some(())
    })
    .await;

    // Read in time: no email.
    send(&app, &client, &id, "See you Tuesday").await;
    clock.advance(Duration::minutes(5));
    app.client()
        .mark_conversation_read(authed(
            pb::MarkConversationReadRequest {
                conversation_id: id.clone(),
            },
            &coach,
        ))
        .await
        .expect("MarkConversationRead answers");
    clock.advance(Duration::hours(2));
    ticks().await;
    assert_eq!(
        letters(&app, &coach_user.email).await.len(),
        2,
        "a read message is not emailed"
    );

    // The `messages` category off: no email; the other categories are kept.
    app.client()
        .update_notification_preferences(authed(
            pb::UpdateNotificationPreferencesRequest {
                preferences: Some(pb::NotificationPreferences {
                    email_bookings: true,
                    email_reminders: false,
                    email_account: true,
                    email_messages: Some(false),
                }),
            },
            &coach,
        ))
        .await
        .expect("UpdateNotificationPreferences answers");
    send(&app, &client, &id, "Hello?").await;
    clock.advance(Duration::hours(2));
    ticks().await;
    assert_eq!(
        letters(&app, &coach_user.email).await.len(),
        2,
        "the preference is followed"
    );
    // An update that does not name the category keeps it off.
    let kept = app
        .client()
        .update_notification_preferences(authed(
            pb::UpdateNotificationPreferencesRequest {
                preferences: Some(pb::NotificationPreferences {
                    email_bookings: true,
                    email_reminders: true,
                    email_account: true,
                    email_messages: None,
                }),
            },
            &coach,
        ))
        .await
        .expect("UpdateNotificationPreferences answers")
        .into_inner()
        .preferences
        .expect("preferences");
    assert_eq!(kept.email_messages, Some(false));
}
