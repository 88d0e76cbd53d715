//! Payments (issue 33): an admin's refunds (whole and partial, audited, never beyond what was
//! paid), receipts, a coach's earnings, the admin's payments list and the platform's totals, each
//! agreeing with the ledger and with localstripe.

use chrono::Duration;
use platform::clock::Clock;
use proto::booking::v1 as pb;
use tonic::{Code, Status};

use crate::{
    helpers::{TestApp, User, as_user, expect_code},
    payments::{AtProvider, Session, at_provider, ledger, money, wait_payment},
};

async fn refund(
    app: &TestApp,
    admin: &User,
    booking_id: &str,
    amount: i64,
    reason: &str,
) -> Result<pb::BookingRecord, Status> {
    Ok(app
        .booking
        .clone()
        .refund_booking(as_user(
            admin,
            pb::RefundBookingRequest {
                booking_id: booking_id.into(),
                amount_cents: amount,
                reason: reason.into(),
            },
        ))
        .await?
        .into_inner()
        .booking
        .unwrap())
}

async fn receipt(app: &TestApp, user: &User, booking_id: &str) -> Result<pb::Receipt, Status> {
    Ok(app
        .booking
        .clone()
        .get_receipt(as_user(
            user,
            pb::GetReceiptRequest {
                booking_id: booking_id.into(),
            },
        ))
        .await?
        .into_inner()
        .receipt
        .unwrap())
}

async fn earnings(app: &TestApp, coach: &User, month: &str) -> Result<pb::GetEarningsResponse, Status> {
    Ok(app
        .booking
        .clone()
        .get_earnings(as_user(coach, pb::GetEarningsRequest { month: month.into() }))
        .await?
        .into_inner())
}

/// A session completed and captured in full; its id.
async fn paid(app: &TestApp, s: &Session) -> String {
    let id = s.confirmed(app).await;
    app.clock.advance(Duration::days(4));
    wait_payment(app, &id, "paid").await;
    id
}

#[tokio::test]
async fn an_admin_refunds_part_then_the_rest_and_the_fee_comes_back_in_proportion() {
    let app = TestApp::spawn_with_payments().await;
    let s = Session::new(&app, 3).await;
    let admin = app.admin();
    let id = paid(&app, &s).await;

    // What cannot be accepted, with what to do instead.
    let message = expect_code(
        refund(&app, &admin, &id, 0, "goodwill").await,
        Code::InvalidArgument,
    );
    assert!(message.contains("at least 1"), "{message}");
    let message = expect_code(refund(&app, &admin, &id, 100, "  ").await, Code::InvalidArgument);
    assert!(message.contains("reason is required"), "{message}");
    let message = expect_code(
        refund(&app, &admin, &id, 7501, "goodwill").await,
        Code::InvalidArgument,
    );
    assert!(message.contains("at most 7500 ($75.00)"), "{message}");
    expect_code(
        refund(&app, &s.coach, &id, 100, "goodwill").await,
        Code::PermissionDenied,
    );

    refund(&app, &admin, &id, 2500, "the court was flooded for 20 minutes")
        .await
        .unwrap();
    until_refunded(&app, &id, 2500).await;
    assert_eq!(money(&app, &id).await, ("partially_refunded".into(), 7500, 2500));
    let books = ledger(&app).await;
    // $75.00 − $25.00 at the provider; the fee $7.50 less its third, $2.50.
    assert_eq!(
        (books["provider"], books["platform:fees"], books["total"]),
        (5000, -500, 0)
    );

    // Only what is left can be refunded: $50.00.
    let message = expect_code(
        refund(&app, &admin, &id, 5001, "the rest").await,
        Code::InvalidArgument,
    );
    assert!(message.contains("at most 5000 ($50.00)"), "{message}");
    refund(&app, &admin, &id, 5000, "the rest").await.unwrap();
    until_refunded(&app, &id, 7500).await;
    assert_eq!(money(&app, &id).await, ("refunded".into(), 7500, 7500));
    let message = expect_code(
        refund(&app, &admin, &id, 1, "more").await,
        Code::FailedPrecondition,
    );
    assert!(message.contains("only a paid booking"), "{message}");

    let books = ledger(&app).await;
    assert_eq!(
        (
            books["provider"],
            books["platform:fees"],
            books[&format!("coach:{}", s.coach.id)]
        ),
        (0, 0, 0)
    );
    assert_eq!(
        at_provider(&app, &id).await,
        AtProvider {
            intents: 1,
            captured: 7500,
            refunded: 7500,
            ..AtProvider::default()
        }
    );
    // The audit: who, why, when.
    let audit: Vec<(i64, String, uuid::Uuid)> = sqlx::query_as(
        "select amount_cents, reason, requested_by from booking.refund
         where booking_id = $1::uuid order by requested_at, amount_cents",
    )
    .bind(&id)
    .fetch_all(&app.db)
    .await
    .unwrap();
    assert_eq!(
        audit,
        [
            (2500, "the court was flooded for 20 minutes".to_owned(), admin.id),
            (5000, "the rest".to_owned(), admin.id)
        ]
    );
    let refunded = app.event_of(&id, "payment_refunded").await;
    assert_eq!(refunded["reason"], "the rest");

    let receipt = receipt(&app, &s.client, &id).await.unwrap();
    let kinds: Vec<(&str, i64)> = receipt
        .lines
        .iter()
        .map(|l| (l.kind.as_str(), l.amount_cents))
        .collect();
    assert_eq!(
        kinds,
        [
            ("hold", 7500),
            ("capture", 7500),
            ("refund", 2500),
            ("refund", 5000)
        ]
    );
}

async fn until_refunded(app: &TestApp, id: &str, cents: i64) {
    platform::testing::until("the refund booked", || async { money(app, id).await.2 == cents }).await;
}

#[tokio::test]
async fn a_booking_not_yet_charged_cannot_be_refunded_and_has_no_receipt() {
    let app = TestApp::spawn_with_payments().await;
    let s = Session::new(&app, 3).await;
    let id = s.confirmed(&app).await;
    let message = expect_code(
        refund(&app, &app.admin(), &id, 100, "goodwill").await,
        Code::FailedPrecondition,
    );
    assert!(
        message.contains("(this one's payment is authorized)"),
        "{message}"
    );
    let message = expect_code(receipt(&app, &s.client, &id).await, Code::NotFound);
    assert!(message.contains("nothing has been charged"), "{message}");
}

#[tokio::test]
async fn the_client_and_the_coach_read_the_receipt_and_nobody_else() {
    let app = TestApp::spawn_with_payments().await;
    let s = Session::new(&app, 3).await;
    let id = paid(&app, &s).await;

    for reader in [&s.client, &s.coach] {
        let receipt = receipt(&app, reader, &id).await.unwrap();
        assert_eq!(
            (receipt.amount_paid_cents, receipt.currency.as_str()),
            (7500, "usd")
        );
        assert_eq!(
            (receipt.card_brand.as_str(), receipt.card_last4.as_str()),
            ("visa", "4242")
        );
        assert!(!receipt.issued_at.is_empty());
        assert_eq!(receipt.booking.unwrap().booking_id, id);
    }
    expect_code(receipt(&app, &app.client(), &id).await, Code::NotFound);
    expect_code(receipt(&app, &app.coach(), &id).await, Code::NotFound);
}

#[tokio::test]
async fn a_coachs_earnings_agree_with_the_ledger_and_what_is_held() {
    let app = TestApp::spawn_with_payments().await;
    let s = Session::new(&app, 3).await;
    let held_slot = app.one_time_slot(&s.coach, s.date, "17:00", "18:00").await;
    let held = app
        .book(&s.client, s.coach.id, &held_slot, s.date)
        .await
        .unwrap()
        .booking_id;
    wait_payment(&app, &held, "authorized").await;

    let open = earnings(&app, &s.coach, &app.clock.now().format("%Y-%m").to_string())
        .await
        .unwrap();
    assert_eq!((open.held_cents, open.paid_cents), (7500, 0));

    let id = s.confirmed(&app).await;
    app.clock.advance(Duration::days(4));
    wait_payment(&app, &id, "paid").await;
    let month = app.clock.now().format("%Y-%m").to_string();
    let report = earnings(&app, &s.coach, &month).await.unwrap();
    assert_eq!(
        (report.paid_cents, report.fees_cents, report.net_cents),
        (7500, 750, 6750)
    );
    assert_eq!(report.lines.len(), 1);
    assert_eq!(report.lines[0].booking_id, id);
    assert_eq!(report.lines[0].client_id, s.client.id.to_string());
    let books = ledger(&app).await;
    assert_eq!(-books[&format!("coach:{}", s.coach.id)], report.net_cents);

    for bad in ["2026", "2026-13", "march"] {
        expect_code(earnings(&app, &s.coach, bad).await, Code::InvalidArgument);
    }
    expect_code(earnings(&app, &s.client, &month).await, Code::PermissionDenied);
    let other = earnings(&app, &app.coach(), &month).await.unwrap();
    assert_eq!((other.held_cents, other.paid_cents, other.lines.len()), (0, 0, 0));
}

#[tokio::test]
async fn the_admin_pages_through_payments_filtered_and_reads_the_totals() {
    let app = TestApp::spawn_with_payments().await;
    let s = Session::new(&app, 3).await;
    let admin = app.admin();
    let mut ids = Vec::new();
    for start in ["09:00", "11:00", "13:00"] {
        let end = format!("{:02}:00", start[..2].parse::<u32>().unwrap() + 1);
        let slot = app.one_time_slot(&s.coach, s.date, start, &end).await;
        ids.push(
            app.book(&s.client, s.coach.id, &slot, s.date)
                .await
                .unwrap()
                .booking_id,
        );
    }
    let free_coach = app.coach();
    let free_slot = app.one_time_slot(&free_coach, s.date, "09:00", "10:00").await;
    app.book(&s.client, free_coach.id, &free_slot, s.date)
        .await
        .unwrap();
    for id in &ids {
        wait_payment(&app, id, "authorized").await;
    }
    app.deny(&s.coach, &ids[0]).await.unwrap();
    wait_payment(&app, &ids[0], "released").await;

    let list = |request: pb::ListPaymentsRequest| {
        let mut booking = app.booking.clone();
        let admin = admin.clone();
        async move {
            booking
                .list_payments(as_user(&admin, request))
                .await
                .map(|r| r.into_inner())
        }
    };
    let first = list(pb::ListPaymentsRequest {
        limit: 2,
        ..Default::default()
    })
    .await
    .unwrap();
    assert_eq!(first.bookings.len(), 2);
    assert!(!first.next.is_empty());
    let second = list(pb::ListPaymentsRequest {
        limit: 2,
        after: first.next.clone(),
        ..Default::default()
    })
    .await
    .unwrap();
    assert_eq!((second.bookings.len(), second.next.as_str()), (1, ""));
    let mut seen: Vec<String> = first
        .bookings
        .iter()
        .chain(&second.bookings)
        .map(|b| b.booking_id.clone())
        .collect();
    seen.sort();
    let mut expected = ids.clone();
    expected.sort();
    assert_eq!(seen, expected, "only the bookings that carry money, each once");

    let released = list(pb::ListPaymentsRequest {
        payment_status: Some("released".into()),
        coach_id: Some(s.coach.id.to_string()),
        from: Some(s.date.to_string()),
        to: Some(s.date.to_string()),
        ..Default::default()
    })
    .await
    .unwrap();
    assert_eq!(
        released
            .bookings
            .iter()
            .map(|b| b.booking_id.clone())
            .collect::<Vec<_>>(),
        [ids[0].clone()]
    );
    let message = expect_code(
        list(pb::ListPaymentsRequest {
            payment_status: Some("settled".into()),
            ..Default::default()
        })
        .await,
        Code::InvalidArgument,
    );
    assert!(message.contains("payment_status must be one of"), "{message}");
    expect_code(
        app.booking
            .clone()
            .list_payments(as_user(&s.coach, pb::ListPaymentsRequest::default()))
            .await,
        Code::PermissionDenied,
    );

    for id in &ids[1..] {
        app.approve(&s.coach, id).await.unwrap();
    }
    app.clock.advance(Duration::days(4));
    for id in &ids[1..] {
        wait_payment(&app, id, "paid").await;
    }
    refund(&app, &admin, &ids[1], 1000, "late start").await.unwrap();
    until_refunded(&app, &ids[1], 1000).await;
    let totals = app
        .booking
        .clone()
        .get_payment_totals(as_user(&admin, pb::GetPaymentTotalsRequest {}))
        .await
        .unwrap()
        .into_inner();
    // Two captures of $75.00, fees $15.00 less the $1.00 the refund returned.
    assert_eq!(
        (totals.gross_cents, totals.fees_cents, totals.refunds_cents),
        (15_000, 1400, 1000)
    );
    assert_eq!(ledger(&app).await["total"], 0);
}
