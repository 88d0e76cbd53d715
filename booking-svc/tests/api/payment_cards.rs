//! A client's saved cards against a real localstripe: saved as the browser saves them (a
//! SetupIntent confirmed as Stripe.js does), listed (the mirror brought in line with the
//! provider), made the default, removed, and refused when they are another client's or still pay
//! for a booking.

use chrono::Weekday;
use platform::{
    clock::Clock,
    testing::{CARD_DECLINED_ON_SAVE, CARD_OK},
};
use proto::booking::v1 as pb;
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{TestApp, User, as_user, expect_code, next};

/// Another card localstripe accepts (it reports every card as a visa).
const OTHER_CARD: &str = "5555555555554444";

async fn set_default(
    app: &TestApp,
    client: &User,
    card: &str,
) -> Result<Vec<pb::PaymentMethod>, tonic::Status> {
    let request = pb::SetDefaultPaymentMethodRequest {
        payment_method_id: card.into(),
    };
    Ok(app
        .booking
        .clone()
        .set_default_payment_method(as_user(client, request))
        .await?
        .into_inner()
        .payment_methods)
}

async fn remove(app: &TestApp, client: &User, card: &str) -> Result<(), tonic::Status> {
    let request = pb::RemovePaymentMethodRequest {
        payment_method_id: card.into(),
    };
    app.booking
        .clone()
        .remove_payment_method(as_user(client, request))
        .await?;
    Ok(())
}

fn ids(cards: &[pb::PaymentMethod]) -> Vec<(&str, bool)> {
    cards
        .iter()
        .map(|c| (c.payment_method_id.as_str(), c.is_default))
        .collect()
}

#[tokio::test]
async fn a_saved_card_is_listed_as_the_clients_default() {
    let app = TestApp::spawn_with_payments().await;
    let client = app.client();
    assert!(
        app.cards(&client).await.unwrap().is_empty(),
        "no card before the first"
    );

    let setup = app
        .booking
        .clone()
        .setup_payment_method(as_user(&client, pb::SetupPaymentMethodRequest {}))
        .await
        .unwrap()
        .into_inner();
    assert!(setup.setup_intent_id.starts_with("seti_"), "{setup:?}");
    assert!(
        setup.client_secret.starts_with(&setup.setup_intent_id),
        "{setup:?}"
    );
    let card = app
        .stripe()
        .confirm_card(&setup.client_secret, CARD_OK)
        .await
        .unwrap();

    let cards = app.cards(&client).await.unwrap();
    assert_eq!(
        cards,
        vec![pb::PaymentMethod {
            payment_method_id: card.clone(),
            brand: "visa".into(),
            last4: "4242".into(),
            exp_month: 12,
            exp_year: 2034,
            is_default: true,
        }]
    );
    // The customer is made once, on the first card, and kept.
    let customers: i64 =
        sqlx::query_scalar("select count(*) from booking.payment_customer where client_id = $1")
            .bind(client.id)
            .fetch_one(&app.db)
            .await
            .unwrap();
    assert_eq!(customers, 1);
    app.add_card(&client, OTHER_CARD).await.unwrap();
    let customers: i64 =
        sqlx::query_scalar("select count(*) from booking.payment_customer where client_id = $1")
            .bind(client.id)
            .fetch_one(&app.db)
            .await
            .unwrap();
    assert_eq!(customers, 1);
}

#[tokio::test]
async fn a_declined_card_is_not_saved() {
    let app = TestApp::spawn_with_payments().await;
    let client = app.client();

    let refused = app.add_card(&client, CARD_DECLINED_ON_SAVE).await;

    assert_eq!(refused, Err("Your card was declined.".to_owned()));
    assert!(app.cards(&client).await.unwrap().is_empty());
}

#[tokio::test]
async fn a_second_card_is_listed_after_the_default_until_it_is_made_the_default() {
    let app = TestApp::spawn_with_payments().await;
    let (client, first) = app.client_with_card(CARD_OK).await;

    let second = app.add_card(&client, OTHER_CARD).await.unwrap();
    let cards = app.cards(&client).await.unwrap();
    assert_eq!(
        ids(&cards),
        vec![(first.as_str(), true), (second.as_str(), false)]
    );
    assert_eq!(cards[1].last4, "4444");

    let answered = set_default(&app, &client, &second).await.unwrap();
    assert_eq!(
        ids(&answered),
        vec![(second.as_str(), true), (first.as_str(), false)]
    );
    assert_eq!(app.cards(&client).await.unwrap(), answered, "the default is kept");
}

#[tokio::test]
async fn a_removed_card_is_gone_here_and_at_the_provider_and_the_other_becomes_the_default() {
    let app = TestApp::spawn_with_payments().await;
    let (client, first) = app.client_with_card(CARD_OK).await;
    let second = app.add_card(&client, OTHER_CARD).await.unwrap();

    remove(&app, &client, &first).await.unwrap();

    // Listing asks the provider again: a card still attached there would come back.
    let cards = app.cards(&client).await.unwrap();
    assert_eq!(ids(&cards), vec![(second.as_str(), true)]);
    remove(&app, &client, &second).await.unwrap();
    assert!(app.cards(&client).await.unwrap().is_empty());
    let again = remove(&app, &client, &second).await;
    expect_code(again, Code::NotFound);
}

#[tokio::test]
async fn another_clients_card_cannot_be_made_the_default_or_removed() {
    let app = TestApp::spawn_with_payments().await;
    let (owner, card) = app.client_with_card(CARD_OK).await;
    let (other, _) = app.client_with_card(OTHER_CARD).await;

    let message = expect_code(set_default(&app, &other, &card).await, Code::NotFound);
    assert!(message.contains("among yours"), "{message}");
    expect_code(remove(&app, &other, &card).await, Code::NotFound);
    expect_code(set_default(&app, &other, "pm_nonexistent").await, Code::NotFound);

    assert_eq!(
        ids(&app.cards(&owner).await.unwrap()),
        vec![(card.as_str(), true)]
    );
}

#[tokio::test]
async fn only_clients_have_cards() {
    let app = TestApp::spawn_with_payments().await;
    let coach = app.coach();

    let listed = app.cards(&coach).await;

    expect_code(listed, Code::PermissionDenied);
}

/// A booking of `client`'s (free: the coach has no rate), its payment then arranged as `status`
/// with `card`, as the payment engine would leave it.
async fn booking_paid_with(app: &TestApp, client: &User, card: &str, status: &str) -> String {
    let coach = app.coach();
    let slot = app.weekly_slot(&coach, "Wednesday", "10:00", "11:00").await;
    let booking = app
        .book(client, coach.id, &slot, next(Weekday::Wed))
        .await
        .unwrap();
    sqlx::query(
        "update booking.booking set price_cents = 7500, payment_status = $2, payment_method_id = $3, \
             payment_error = case when $2 = 'failed' then 'Your card was declined.' end \
         where booking_id = $1",
    )
    .bind(Uuid::parse_str(&booking.booking_id).unwrap())
    .bind(status)
    .bind(card)
    .execute(&app.db)
    .await
    .unwrap();
    booking.booking_id
}

#[tokio::test]
async fn a_card_that_pays_for_an_open_booking_cannot_be_removed() {
    // The payment worker stays idle: the arranged payment is not carried out under the test.
    let app = TestApp::with().payments().idle_scheduler().start().await;
    let (client, card) = app.client_with_card(CARD_OK).await;
    let booking = booking_paid_with(&app, &client, &card, "authorized").await;

    let message = expect_code(remove(&app, &client, &card).await, Code::FailedPrecondition);

    assert!(message.contains(&booking), "{message}");
    assert_eq!(
        ids(&app.cards(&client).await.unwrap()),
        vec![(card.as_str(), true)]
    );
    // Once the booking's payment is settled, the card can go.
    sqlx::query(
        "update booking.booking set payment_status = 'paid', charge_cents = 7500 where booking_id = $1::uuid",
    )
    .bind(&booking)
    .execute(&app.db)
    .await
    .unwrap();
    remove(&app, &client, &card).await.unwrap();
}

#[tokio::test]
async fn a_new_default_card_tries_the_declined_holds_again() {
    let app = TestApp::with().payments().idle_scheduler().start().await;
    let (client, declined) = app.client_with_card(CARD_OK).await;
    let booking = booking_paid_with(&app, &client, &declined, "failed").await;
    let second = app.add_card(&client, OTHER_CARD).await.unwrap();
    let row = || async {
        sqlx::query_as::<_, (i32, Option<String>, Option<String>, bool)>(
            "select payment_generation, payment_method_id, payment_error, payment_due_at is not distinct from $2 \
             from booking.booking where booking_id = $1::uuid",
        )
        .bind(&booking)
        .bind(app.clock.now())
        .fetch_one(&app.db)
        .await
        .unwrap()
    };
    let before = row().await;
    assert_eq!(
        before.1.as_deref(),
        Some(declined.as_str()),
        "a card added beside the default changes nothing"
    );
    assert!(before.2.is_some());

    set_default(&app, &client, &second).await.unwrap();

    let after = row().await;
    assert_eq!(after, (before.0 + 1, Some(second), None, true));
}

#[tokio::test]
async fn a_first_card_tries_the_declined_holds_again() {
    let app = TestApp::with().payments().idle_scheduler().start().await;
    let client = app.client();
    // Declined with a card the client no longer has (removed at the provider).
    let booking = booking_paid_with(&app, &client, "pm_removed_elsewhere", "failed").await;

    let card = app.add_card(&client, OTHER_CARD).await.unwrap();

    let (generation, method, error): (i32, Option<String>, Option<String>) = sqlx::query_as(
        "select payment_generation, payment_method_id, payment_error from booking.booking \
         where booking_id = $1::uuid",
    )
    .bind(&booking)
    .fetch_one(&app.db)
    .await
    .unwrap();
    assert_eq!((generation, method, error), (1, Some(card), None));
}

#[tokio::test]
async fn a_card_holding_a_real_booking_cannot_be_removed_until_it_is_released() {
    let app = TestApp::spawn_with_payments().await;
    let session = crate::payments::Session::new(&app, 2).await;
    let card = app.cards(&session.client).await.unwrap()[0]
        .payment_method_id
        .clone();
    let booking = session.book(&app).await.booking_id;
    crate::payments::wait_payment(&app, &booking, "authorized").await;

    let message = expect_code(
        remove(&app, &session.client, &card).await,
        Code::FailedPrecondition,
    );
    assert!(message.contains(&booking), "{message}");

    // The client cancels inside the free window: the hold is released, and the card can go.
    app.cancel(&session.client, &booking).await.unwrap();
    crate::payments::wait_payment(&app, &booking, "released").await;
    remove(&app, &session.client, &card).await.unwrap();
    assert!(app.cards(&session.client).await.unwrap().is_empty());
}
