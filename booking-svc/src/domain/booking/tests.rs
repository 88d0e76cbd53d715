use uuid::Uuid;

use super::*;

fn at(rfc3339: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
}

/// Booked at 2026-03-01 10:00Z for 2026-03-10 15:00–16:00Z: expires (48 h window) on
/// 2026-03-03 10:00Z; a cancel after 2026-03-09 15:00Z (24 h window) is late.
fn booking(status: Status) -> Booking {
    Booking {
        client_id: ClientId(Uuid::new_v4()),
        coach_id: CoachId(Uuid::new_v4()),
        status,
        starts_at: at("2026-03-10T15:00:00Z"),
        ends_at: at("2026-03-10T16:00:00Z"),
        expires_at: at("2026-03-03T10:00:00Z"),
        cancellation_window: Duration::hours(24),
    }
}

const EARLY: &str = "2026-03-02T09:00:00Z";

fn coach(b: &Booking) -> Party {
    Party::Coach(b.coach_id)
}

fn client(b: &Booking) -> Party {
    Party::Client(b.client_id)
}

fn refused(result: Result<Move, Error>) -> String {
    match result {
        Err(Error::Transition(detail)) => detail,
        other => panic!("expected a refused transition, got {other:?}"),
    }
}

fn to(status: Status) -> Move {
    Move {
        to: status,
        late: false,
    }
}

#[test]
fn the_coach_approves_or_denies_a_pending_booking() {
    let b = booking(Status::Pending);
    assert_eq!(
        b.apply(Action::Approve, coach(&b), at(EARLY)).unwrap(),
        to(Status::Confirmed)
    );
    assert_eq!(
        b.apply(Action::Deny, coach(&b), at(EARLY)).unwrap(),
        to(Status::Denied)
    );
}

#[test]
fn only_a_pending_booking_can_be_approved_or_denied() {
    for status in Status::ALL.into_iter().filter(|s| *s != Status::Pending) {
        let b = booking(status);
        refused(b.apply(Action::Approve, coach(&b), at(EARLY)));
        refused(b.apply(Action::Deny, coach(&b), at(EARLY)));
    }
    let b = booking(Status::Confirmed);
    assert_eq!(
        refused(b.apply(Action::Approve, coach(&b), at(EARLY))),
        "only a pending booking can be approved (this one is confirmed)"
    );
}

#[test]
fn a_pending_booking_cannot_be_approved_once_its_expiry_is_due_even_before_it_is_written() {
    let b = booking(Status::Pending);
    assert!(
        b.apply(Action::Approve, coach(&b), at("2026-03-03T09:59:59Z"))
            .is_ok()
    );
    assert_eq!(
        refused(b.apply(Action::Approve, coach(&b), at("2026-03-03T10:00:00Z"))),
        "only a pending booking can be approved (this one is expired)"
    );
}

#[test]
fn another_coach_can_neither_approve_deny_cancel_nor_mark_no_show_and_learns_no_status() {
    for status in Status::ALL {
        let b = booking(status);
        let other = Party::Coach(CoachId(Uuid::new_v4()));
        for action in [
            Action::Approve,
            Action::Deny,
            Action::CoachCancel,
            Action::MarkNoShow,
        ] {
            assert!(
                matches!(b.apply(action, other, at(EARLY)), Err(Error::Forbidden(_))),
                "{action:?} on {status}"
            );
        }
    }
}

#[test]
fn the_client_cancels_a_pending_or_confirmed_booking_before_it_starts() {
    for status in Status::ACTIVE {
        let b = booking(status);
        assert_eq!(
            b.apply(Action::Cancel, client(&b), at(EARLY)).unwrap(),
            to(Status::Cancelled)
        );
    }
}

#[test]
fn a_client_cancel_of_a_confirmed_booking_inside_the_window_is_late() {
    let b = booking(Status::Confirmed);
    // Exactly 24 hours before the start is still free.
    assert_eq!(
        b.apply(Action::Cancel, client(&b), at("2026-03-09T15:00:00Z"))
            .unwrap(),
        to(Status::Cancelled)
    );
    assert_eq!(
        b.apply(Action::Cancel, client(&b), at("2026-03-09T15:00:01Z"))
            .unwrap(),
        Move {
            to: Status::Cancelled,
            late: true
        }
    );
}

#[test]
fn a_cancel_is_never_late_with_a_zero_window_nor_for_a_pending_booking() {
    let b = Booking {
        cancellation_window: Duration::zero(),
        ..booking(Status::Confirmed)
    };
    assert!(
        !b.apply(Action::Cancel, client(&b), at("2026-03-10T14:59:59Z"))
            .unwrap()
            .late
    );
    // A booking made an hour before its start is still pending (expires at the start).
    let b = Booking {
        expires_at: at("2026-03-10T15:00:00Z"),
        ..booking(Status::Pending)
    };
    assert!(
        !b.apply(Action::Cancel, client(&b), at("2026-03-10T14:30:00Z"))
            .unwrap()
            .late
    );
}

#[test]
fn a_session_that_has_started_can_no_longer_be_cancelled_by_either_side() {
    let b = booking(Status::Confirmed);
    let started = at("2026-03-10T15:00:00Z");
    let detail = refused(b.apply(Action::Cancel, client(&b), started));
    assert!(detail.contains("can no longer be cancelled"), "{detail}");
    refused(b.apply(Action::CoachCancel, coach(&b), started));
    // After its end it is completed.
    assert_eq!(
        refused(b.apply(Action::Cancel, client(&b), at("2026-03-10T16:00:00Z"))),
        "only a pending or confirmed booking can be cancelled (this one is completed)"
    );
}

#[test]
fn a_finished_booking_cannot_be_cancelled() {
    for status in [
        Status::Denied,
        Status::Cancelled,
        Status::Expired,
        Status::Completed,
        Status::NoShow,
    ] {
        let b = booking(status);
        refused(b.apply(Action::Cancel, client(&b), at(EARLY)));
    }
}

#[test]
fn the_coach_cancels_only_a_confirmed_booking_before_it_starts() {
    let b = booking(Status::Confirmed);
    assert_eq!(
        b.apply(Action::CoachCancel, coach(&b), at("2026-03-10T14:59:59Z"))
            .unwrap(),
        to(Status::Cancelled)
    );
    let b = booking(Status::Pending);
    assert_eq!(
        refused(b.apply(Action::CoachCancel, coach(&b), at(EARLY))),
        "only a confirmed booking can be cancelled by its coach (this one is pending)"
    );
}

#[test]
fn a_client_cannot_coach_cancel_approve_or_mark_no_show_and_a_coach_cannot_client_cancel() {
    let b = booking(Status::Confirmed);
    for action in [
        Action::Approve,
        Action::Deny,
        Action::CoachCancel,
        Action::MarkNoShow,
    ] {
        assert!(matches!(
            b.apply(action, client(&b), at(EARLY)),
            Err(Error::Forbidden(_))
        ));
    }
    assert!(matches!(
        b.apply(Action::Cancel, coach(&b), at(EARLY)),
        Err(Error::Forbidden(_))
    ));
    assert!(matches!(
        b.apply(Action::Cancel, Party::Client(ClientId(Uuid::new_v4())), at(EARLY)),
        Err(Error::Forbidden(_))
    ));
}

#[test]
fn the_coach_marks_a_completed_booking_no_show_within_seven_days_of_its_end() {
    let b = booking(Status::Completed);
    assert_eq!(
        b.apply(Action::MarkNoShow, coach(&b), at("2026-03-17T16:00:00Z"))
            .unwrap(),
        to(Status::NoShow)
    );
    let detail = refused(b.apply(Action::MarkNoShow, coach(&b), at("2026-03-17T16:00:01Z")));
    assert!(detail.contains("within 7 days"), "{detail}");
}

#[test]
fn a_confirmed_booking_past_its_end_is_completed_and_so_can_be_marked_no_show() {
    let b = booking(Status::Confirmed);
    assert_eq!(
        b.apply(Action::MarkNoShow, coach(&b), at("2026-03-10T16:00:00Z"))
            .unwrap(),
        to(Status::NoShow)
    );
}

#[test]
fn a_no_show_before_the_end_or_on_another_status_is_refused() {
    let b = booking(Status::Confirmed);
    let detail = refused(b.apply(Action::MarkNoShow, coach(&b), at("2026-03-10T15:30:00Z")));
    assert!(detail.contains("only once it has ended"), "{detail}");
    for status in [
        Status::Pending,
        Status::Denied,
        Status::Cancelled,
        Status::Expired,
        Status::NoShow,
    ] {
        let b = booking(status);
        refused(b.apply(Action::MarkNoShow, coach(&b), at("2026-03-11T09:00:00Z")));
    }
    let b = booking(Status::Cancelled);
    assert_eq!(
        refused(b.apply(Action::MarkNoShow, coach(&b), at("2026-03-11T09:00:00Z"))),
        "only a completed booking can be marked no-show (this one is cancelled)"
    );
}

#[test]
fn a_pending_booking_is_due_to_expire_at_its_expiry_and_a_confirmed_one_to_complete_at_its_end() {
    let pending = booking(Status::Pending);
    assert_eq!(pending.due_at(), Some(at("2026-03-03T10:00:00Z")));
    assert_eq!(pending.due(at("2026-03-03T09:59:59Z")), None);
    assert_eq!(pending.due(at("2026-03-03T10:00:00Z")), Some(Timed::Expire));
    assert_eq!(pending.current(at("2026-03-03T10:00:00Z")), Status::Expired);

    let confirmed = booking(Status::Confirmed);
    assert_eq!(confirmed.due_at(), Some(at("2026-03-10T16:00:00Z")));
    assert_eq!(confirmed.due(at("2026-03-10T15:59:59Z")), None);
    assert_eq!(confirmed.due(at("2026-03-10T16:00:00Z")), Some(Timed::Complete));
    assert_eq!(confirmed.current(at("2026-03-11T00:00:00Z")), Status::Completed);
}

#[test]
fn the_clock_never_moves_a_booking_that_is_over() {
    for status in [
        Status::Denied,
        Status::Cancelled,
        Status::Expired,
        Status::Completed,
        Status::NoShow,
    ] {
        let b = booking(status);
        assert_eq!(b.due_at(), None, "{status}");
        assert_eq!(b.due(at("2030-01-01T00:00:00Z")), None, "{status}");
    }
}

#[test]
fn timed_transitions_go_from_an_active_status_to_a_final_one() {
    assert_eq!(
        (Timed::Expire.from(), Timed::Expire.to()),
        (Status::Pending, Status::Expired)
    );
    assert_eq!(
        (Timed::Complete.from(), Timed::Complete.to()),
        (Status::Confirmed, Status::Completed)
    );
}

#[test]
fn a_reason_is_trimmed_blank_is_none_and_a_long_one_is_refused() {
    assert_eq!(parse_reason(None).unwrap(), None);
    assert_eq!(parse_reason(Some("   ".into())).unwrap(), None);
    assert_eq!(
        parse_reason(Some("  I am ill ".into())).unwrap().as_deref(),
        Some("I am ill")
    );
    assert!(parse_reason(Some("é".repeat(500))).is_ok());
    let error = parse_reason(Some("x".repeat(501))).unwrap_err();
    assert!(matches!(error, Error::Invalid(_)));
    assert!(error.to_string().contains("at most 500 characters"), "{error}");
}

#[test]
fn statuses_round_trip_through_their_names() {
    for status in Status::ALL {
        assert_eq!(status.as_str().parse::<Status>().unwrap(), status);
    }
    assert_eq!(Status::NoShow.as_str(), "no_show");
    assert!("approved".parse::<Status>().is_err());
}
