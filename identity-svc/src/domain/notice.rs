//! What each fact tells whom: the notifications an event of the booking or gym context (a
//! booking's payment too), or an account fact of identity's own, puts in people's inboxes, and the
//! reminder it schedules or calls off. Pure: the names of the people mentioned are handed in.

use chrono::{DateTime, Duration, Utc};
use platform::events::{BookingFact, Event, Party, ReservationFact};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// How long before a session its reminder goes out.
pub const REMIND_BEFORE: Duration = Duration::hours(24);

/// The dashboards a notification links to: each shows the bookings or court reservations of its
/// role, and scrolls to the one a link names (`?booking=<id>`, `?reservation=<id>`).
const CLIENT_DASHBOARD: &str = "/client/dashboard";
const COACH_DASHBOARD: &str = "/coach/dashboard";
const GYM_DASHBOARD: &str = "/gym/dashboard";

/// Where the client's dashboard lists their saved cards (the web app's Payment methods card,
/// `PAYMENT_METHODS_ANCHOR`): where a declined card is fixed.
const PAYMENT_METHODS: &str = "/client/dashboard#payment-methods";

/// A booking's receipt page (the web app's `paths.receipt`), for its client and its coach.
fn receipt_link(booking_id: Uuid) -> String {
    format!("/bookings/{booking_id}/receipt")
}

/// The app path that shows a booking: `dashboard` (its client's or its coach's), at the booking.
fn booking_link(dashboard: &str, booking_id: Uuid) -> String {
    format!("{dashboard}?booking={booking_id}")
}

/// The app path that shows a court reservation: `dashboard` (its coach's or its gym's), at it.
fn reservation_link(dashboard: &str, reservation_id: Uuid) -> String {
    format!("{dashboard}?reservation={reservation_id}")
}

/// The kinds of notification, as the API names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    BookingRequested,
    BookingConfirmed,
    BookingDenied,
    BookingCancelled,
    BookingExpired,
    BookingRescheduled,
    BookingReminder,
    ReservationRequested,
    ReservationApproved,
    ReservationDenied,
    ReservationCancelled,
    ReservationExpired,
    ReservationReminder,
    /// A booking's hold was declined: the client is asked to fix their card.
    PaymentFailed,
    /// Money was captured for a booking: a receipt.
    PaymentReceipt,
    /// An admin refunded part or all of a booking's payment.
    PaymentRefunded,
    Welcome,
    PasswordChanged,
    RoleChanged,
}

/// Which email preference governs a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    Bookings,
    Reminders,
    Account,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Bookings => "bookings",
            Category::Reminders => "reminders",
            Category::Account => "account",
        }
    }
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::BookingRequested => "booking_requested",
            Kind::BookingConfirmed => "booking_confirmed",
            Kind::BookingDenied => "booking_denied",
            Kind::BookingCancelled => "booking_cancelled",
            Kind::BookingExpired => "booking_expired",
            Kind::BookingRescheduled => "booking_rescheduled",
            Kind::BookingReminder => "booking_reminder",
            Kind::ReservationRequested => "reservation_requested",
            Kind::ReservationApproved => "reservation_approved",
            Kind::ReservationDenied => "reservation_denied",
            Kind::ReservationCancelled => "reservation_cancelled",
            Kind::ReservationExpired => "reservation_expired",
            Kind::ReservationReminder => "reservation_reminder",
            Kind::PaymentFailed => "payment_failed",
            Kind::PaymentReceipt => "payment_receipt",
            Kind::PaymentRefunded => "payment_refunded",
            Kind::Welcome => "welcome",
            Kind::PasswordChanged => "password_changed",
            Kind::RoleChanged => "role_changed",
        }
    }

    pub fn category(self) -> Category {
        match self {
            Kind::BookingReminder | Kind::ReservationReminder => Category::Reminders,
            Kind::Welcome | Kind::PasswordChanged | Kind::RoleChanged => Category::Account,
            _ => Category::Bookings,
        }
    }
}

/// One notification to write for one person.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Notice {
    pub user_id: Uuid,
    pub kind: Kind,
    pub title: String,
    pub body: String,
    pub link: String,
    /// An iCalendar event its email carries (a confirmed session).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ics: Option<String>,
}

/// What an event does to the reminder of the session it concerns.
#[derive(Clone, Debug, PartialEq)]
pub enum Reminder {
    Keep,
    /// Send `notices` at `due_at` (unless the session is called off first).
    Schedule {
        subject_id: Uuid,
        due_at: DateTime<Utc>,
        notices: Vec<Notice>,
    },
    /// The session will not take place: its reminder, sent or not, is never sent.
    CallOff(Uuid),
}

/// An event's notifications now and its effect on a reminder.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub now: Vec<Notice>,
    pub reminder: Reminder,
}

/// The people whose names the texts of `event` mention.
pub fn named_in(event: &Event) -> Vec<Uuid> {
    match event {
        Event::BookingRequested { booking }
        | Event::BookingConfirmed { booking }
        | Event::BookingDenied { booking }
        | Event::BookingCancelled { booking, .. }
        | Event::BookingExpired { booking }
        | Event::BookingCompleted { booking }
        | Event::BookingNoShow { booking }
        | Event::PaymentFailed { booking, .. }
        | Event::PaymentCaptured { booking, .. }
        | Event::PaymentRefunded { booking, .. } => vec![booking.coach_id, booking.client_id],
        Event::ReservationRequested { reservation }
        | Event::ReservationApproved { reservation }
        | Event::ReservationDenied { reservation, .. }
        | Event::ReservationCancelled { reservation, .. }
        | Event::ReservationExpired { reservation } => vec![reservation.coach_id],
        Event::UserDeleted { .. }
        | Event::UserRenamed { .. }
        | Event::RoleChanged { .. }
        | Event::CoachRatingChanged { .. }
        | Event::ReviewPosted { .. } => vec![],
    }
}

fn when(b: &BookingFact) -> String {
    let place = if b.location_name.is_empty() {
        String::new()
    } else {
        format!(" at {}", b.location_name)
    };
    format!(
        "{} from {} to {}{place} ({})",
        b.booking_date, b.start_time, b.end_time, b.time_zone
    )
}

/// An amount of whole cents as people read it: `$75.00` in US dollars, `12.50 EUR` otherwise.
pub fn money(cents: i64, currency: &str) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let (units, rest) = (cents.unsigned_abs() / 100, cents.unsigned_abs() % 100);
    if currency.eq_ignore_ascii_case("usd") {
        format!("{sign}${units}.{rest:02}")
    } else {
        format!("{sign}{units}.{rest:02} {}", currency.to_uppercase())
    }
}

/// How long before a session a declined card must be fixed: booking-svc releases a booking whose
/// payment still failed this close to its start.
pub const FIX_CARD_BEFORE: Duration = Duration::hours(24);

/// When a declined card must be fixed by, on the place's wall clock (`2030-06-02 10:00 (UTC)`);
/// "a day before the session" when the booking's instants or zone cannot be read.
fn fix_card_by(b: &BookingFact) -> String {
    let zone = b.time_zone.parse::<platform::instants::Zone>().ok();
    match (starts(&b.starts_at), zone) {
        (Some(starts_at), Some(zone)) => format!(
            "{} ({})",
            (starts_at - FIX_CARD_BEFORE)
                .with_timezone(&zone.tz())
                .format("%Y-%m-%d %H:%M"),
            b.time_zone
        ),
        _ => "a day before the session".to_owned(),
    }
}

fn court(r: &ReservationFact) -> String {
    format!(
        "{} at {}, {}, on {} from {} to {} ({})",
        r.court_name, r.gym_name, r.location_name, r.date, r.start_time, r.end_time, r.time_zone
    )
}

fn notice(user_id: Uuid, kind: Kind, title: &str, body: String, link: String) -> Notice {
    Notice {
        user_id,
        kind,
        title: title.to_owned(),
        body,
        link,
        ics: None,
    }
}

fn because(reason: Option<&String>) -> String {
    match reason.map(|r| r.trim()).filter(|r| !r.is_empty()) {
        Some(reason) => format!(" Reason: {reason}"),
        None => String::new(),
    }
}

/// What the provider said of a declined card, as a sentence; nothing when it said nothing.
fn said(reason: &str) -> String {
    match reason.trim().trim_end_matches('.') {
        "" => String::new(),
        reason => format!(" The card's bank said: {reason}."),
    }
}

fn starts(raw: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(raw).ok().map(|t| t.to_utc())
}

/// The reminder of a session starting at `starts_at`, when the fact that made it certain
/// (`occurred_at`) came more than [`REMIND_BEFORE`] ahead; a session confirmed later needs none.
fn schedule(subject_id: Uuid, starts_at: &str, occurred_at: DateTime<Utc>, notices: Vec<Notice>) -> Reminder {
    match starts(starts_at).map(|s| s - REMIND_BEFORE) {
        Some(due_at) if due_at > occurred_at => Reminder::Schedule {
            subject_id,
            due_at,
            notices,
        },
        _ => Reminder::Keep,
    }
}

/// What `event` (which happened at `occurred_at`) tells whom; `name` gives a person's full name.
pub fn plan(event: &Event, occurred_at: DateTime<Utc>, name: impl Fn(Uuid) -> String) -> Plan {
    let keep = |now| Plan {
        now,
        reminder: Reminder::Keep,
    };
    match event {
        // A reschedule is told once, by the booking it made: the old one's cancel tells nobody.
        Event::BookingRequested { booking: b } if b.rescheduled_from.is_some() => keep(vec![notice(
            b.coach_id,
            Kind::BookingRescheduled,
            "Booking moved",
            format!(
                "{} moved their session to {}; the new time waits for your answer.",
                name(b.client_id),
                when(b)
            ),
            booking_link(COACH_DASHBOARD, b.booking_id),
        )]),
        Event::BookingRequested { booking: b } => keep(vec![notice(
            b.coach_id,
            Kind::BookingRequested,
            "New booking request",
            format!("{} asked to book {}.", name(b.client_id), when(b)),
            booking_link(COACH_DASHBOARD, b.booking_id),
        )]),
        Event::BookingCancelled { booking: b, .. } if b.rescheduled_to.is_some() => Plan {
            now: vec![],
            reminder: Reminder::CallOff(b.booking_id),
        },
        Event::BookingConfirmed { booking: b } => {
            let reminders = vec![
                notice(
                    b.client_id,
                    Kind::BookingReminder,
                    "Session tomorrow",
                    format!("Your session with {} is on {}.", name(b.coach_id), when(b)),
                    booking_link(CLIENT_DASHBOARD, b.booking_id),
                ),
                notice(
                    b.coach_id,
                    Kind::BookingReminder,
                    "Session tomorrow",
                    format!("Your session with {} is on {}.", name(b.client_id), when(b)),
                    booking_link(COACH_DASHBOARD, b.booking_id),
                ),
            ];
            Plan {
                now: vec![notice(
                    b.client_id,
                    Kind::BookingConfirmed,
                    "Booking confirmed",
                    format!("{} confirmed your session on {}.", name(b.coach_id), when(b)),
                    booking_link(CLIENT_DASHBOARD, b.booking_id),
                )],
                reminder: schedule(b.booking_id, &b.starts_at, occurred_at, reminders),
            }
        }
        Event::BookingDenied { booking: b } => Plan {
            now: vec![notice(
                b.client_id,
                Kind::BookingDenied,
                "Booking declined",
                format!("{} declined your request for {}.", name(b.coach_id), when(b)),
                booking_link(CLIENT_DASHBOARD, b.booking_id),
            )],
            reminder: Reminder::CallOff(b.booking_id),
        },
        Event::BookingCancelled {
            booking: b,
            by,
            reason,
            late,
        } => {
            let late = if *late {
                " This is a late cancellation (inside the cancellation window)."
            } else {
                ""
            };
            let to_coach = || {
                notice(
                    b.coach_id,
                    Kind::BookingCancelled,
                    "Booking cancelled",
                    format!(
                        "{} cancelled the session on {}.{late}{}",
                        name(b.client_id),
                        when(b),
                        because(reason.as_ref())
                    ),
                    booking_link(COACH_DASHBOARD, b.booking_id),
                )
            };
            let to_client = || {
                notice(
                    b.client_id,
                    Kind::BookingCancelled,
                    "Booking cancelled",
                    format!(
                        "{} cancelled your session on {}.{}",
                        name(b.coach_id),
                        when(b),
                        because(reason.as_ref())
                    ),
                    booking_link(CLIENT_DASHBOARD, b.booking_id),
                )
            };
            Plan {
                now: match by {
                    Party::Client => vec![to_coach()],
                    Party::Coach => vec![to_client()],
                    Party::Gym => vec![to_client(), to_coach()],
                },
                reminder: Reminder::CallOff(b.booking_id),
            }
        }
        Event::BookingExpired { booking: b } => Plan {
            now: vec![
                notice(
                    b.client_id,
                    Kind::BookingExpired,
                    "Booking request expired",
                    format!(
                        "{} did not answer your request for {} in time.",
                        name(b.coach_id),
                        when(b)
                    ),
                    booking_link(CLIENT_DASHBOARD, b.booking_id),
                ),
                notice(
                    b.coach_id,
                    Kind::BookingExpired,
                    "Booking request expired",
                    format!(
                        "The request of {} for {} expired unanswered.",
                        name(b.client_id),
                        when(b)
                    ),
                    booking_link(COACH_DASHBOARD, b.booking_id),
                ),
            ],
            reminder: Reminder::CallOff(b.booking_id),
        },
        Event::BookingCompleted { booking: b } | Event::BookingNoShow { booking: b } => Plan {
            now: vec![],
            reminder: Reminder::CallOff(b.booking_id),
        },
        Event::PaymentFailed { booking: b, reason } => keep(vec![notice(
            b.client_id,
            Kind::PaymentFailed,
            "Your card was declined",
            format!(
                "Your card was declined for your session with {} on {}.{} Add a card or choose \
                 another one under Payment methods on your dashboard, and we try again at once. If \
                 the payment is not fixed by {}, a day before the session, the booking is released \
                 and nothing is charged.",
                name(b.coach_id),
                when(b),
                said(reason),
                fix_card_by(b)
            ),
            PAYMENT_METHODS.to_owned(),
        )]),
        Event::PaymentCaptured {
            booking: b,
            amount_cents,
            currency,
        } => keep(vec![notice(
            b.client_id,
            Kind::PaymentReceipt,
            "Your receipt",
            format!(
                "You paid {} for your session with {} on {}. Your receipt has every detail.",
                money(*amount_cents, currency),
                name(b.coach_id),
                when(b)
            ),
            receipt_link(b.booking_id),
        )]),
        Event::PaymentRefunded {
            booking: b,
            amount_cents,
            currency,
            reason,
        } => keep(vec![notice(
            b.client_id,
            Kind::PaymentRefunded,
            "Your refund",
            format!(
                "We refunded {} of what you paid for your session with {} on {} to the card you \
                 paid with.{}",
                money(*amount_cents, currency),
                name(b.coach_id),
                when(b),
                because(Some(reason))
            ),
            receipt_link(b.booking_id),
        )]),
        Event::ReservationRequested { reservation: r } => keep(vec![notice(
            r.gym_id,
            Kind::ReservationRequested,
            "New court request",
            format!("{} asked to reserve {}.", name(r.coach_id), court(r)),
            reservation_link(GYM_DASHBOARD, r.reservation_id),
        )]),
        Event::ReservationApproved { reservation: r } => Plan {
            now: vec![notice(
                r.coach_id,
                Kind::ReservationApproved,
                "Court request approved",
                format!("{} approved your reservation of {}.", r.gym_name, court(r)),
                reservation_link(COACH_DASHBOARD, r.reservation_id),
            )],
            reminder: schedule(
                r.reservation_id,
                &r.starts_at,
                occurred_at,
                vec![notice(
                    r.coach_id,
                    Kind::ReservationReminder,
                    "Court time tomorrow",
                    format!("You have {} reserved.", court(r)),
                    reservation_link(COACH_DASHBOARD, r.reservation_id),
                )],
            ),
        },
        Event::ReservationDenied {
            reservation: r,
            reason,
        } => Plan {
            now: vec![notice(
                r.coach_id,
                Kind::ReservationDenied,
                "Court request declined",
                format!(
                    "{} declined your request for {}.{}",
                    r.gym_name,
                    court(r),
                    because(reason.as_ref())
                ),
                reservation_link(COACH_DASHBOARD, r.reservation_id),
            )],
            reminder: Reminder::CallOff(r.reservation_id),
        },
        Event::ReservationCancelled {
            reservation: r,
            by,
            reason,
        } => Plan {
            now: vec![match by {
                Party::Coach => notice(
                    r.gym_id,
                    Kind::ReservationCancelled,
                    "Court reservation cancelled",
                    format!(
                        "{} cancelled their reservation of {}.{}",
                        name(r.coach_id),
                        court(r),
                        because(reason.as_ref())
                    ),
                    reservation_link(GYM_DASHBOARD, r.reservation_id),
                ),
                Party::Gym | Party::Client => notice(
                    r.coach_id,
                    Kind::ReservationCancelled,
                    "Court reservation cancelled",
                    format!(
                        "{} cancelled your reservation of {}.{}",
                        r.gym_name,
                        court(r),
                        because(reason.as_ref())
                    ),
                    reservation_link(COACH_DASHBOARD, r.reservation_id),
                ),
            }],
            reminder: Reminder::CallOff(r.reservation_id),
        },
        Event::ReservationExpired { reservation: r } => Plan {
            now: vec![notice(
                r.coach_id,
                Kind::ReservationExpired,
                "Court request expired",
                format!(
                    "{} did not answer your request for {} in time.",
                    r.gym_name,
                    court(r)
                ),
                reservation_link(COACH_DASHBOARD, r.reservation_id),
            )],
            reminder: Reminder::CallOff(r.reservation_id),
        },
        Event::UserDeleted { .. }
        | Event::UserRenamed { .. }
        | Event::RoleChanged { .. }
        | Event::CoachRatingChanged { .. }
        | Event::ReviewPosted { .. } => keep(vec![]),
    }
}

/// The dashboard of a role (by its name), for account notices.
pub fn dashboard_of(role: &str) -> String {
    format!("/{role}/dashboard")
}

/// The welcome a new account finds in its inbox.
pub fn welcome(user_id: Uuid, full_name: &str, role: &str) -> Notice {
    notice(
        user_id,
        Kind::Welcome,
        "Welcome to Courtside",
        format!("Hi {full_name}, your {role} account is ready."),
        dashboard_of(role),
    )
}

/// The notice that an account's password was changed.
pub fn password_changed(user_id: Uuid, role: &str) -> Notice {
    notice(
        user_id,
        Kind::PasswordChanged,
        "Password changed",
        "Your password was changed and every earlier session signed out. If this was not you, reset your password now."
            .to_owned(),
        dashboard_of(role),
    )
}

/// The notice that an admin changed an account's role.
pub fn role_changed(user_id: Uuid, new_role: &str) -> Notice {
    notice(
        user_id,
        Kind::RoleChanged,
        "Your role changed",
        format!("An administrator made your account a {new_role} account. Please sign in again."),
        dashboard_of(new_role),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn booking(starts_at: &str) -> BookingFact {
        BookingFact {
            booking_id: Uuid::new_v4(),
            coach_id: Uuid::new_v4(),
            client_id: Uuid::new_v4(),
            booking_date: "2030-06-03".into(),
            start_time: "10:00".into(),
            end_time: "11:00".into(),
            time_zone: "UTC".into(),
            starts_at: starts_at.into(),
            ends_at: "2030-06-03T11:00:00Z".into(),
            location_name: "Court A".into(),
            rescheduled_from: None,
            rescheduled_to: None,
        }
    }

    fn at(raw: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(raw).unwrap().to_utc()
    }

    #[test]
    fn a_confirmation_days_ahead_schedules_both_reminders_a_day_before() {
        let b = booking("2030-06-03T10:00:00Z");
        let plan = plan(
            &Event::BookingConfirmed { booking: b.clone() },
            at("2030-06-01T00:00:00Z"),
            |_| "Ann".into(),
        );
        assert_eq!(plan.now.len(), 1);
        assert_eq!(plan.now[0].user_id, b.client_id);
        let Reminder::Schedule { due_at, notices, .. } = plan.reminder else {
            panic!("no reminder scheduled")
        };
        assert_eq!(due_at, at("2030-06-02T10:00:00Z"));
        let to: Vec<_> = notices.iter().map(|n| n.user_id).collect();
        assert_eq!(to, vec![b.client_id, b.coach_id]);
    }

    #[test]
    fn a_confirmation_inside_the_last_day_schedules_no_reminder() {
        let plan = plan(
            &Event::BookingConfirmed {
                booking: booking("2030-06-03T10:00:00Z"),
            },
            at("2030-06-02T12:00:00Z"),
            |_| "Ann".into(),
        );
        assert_eq!(plan.reminder, Reminder::Keep);
    }

    #[test]
    fn a_late_cancellation_by_the_client_tells_the_coach_why_and_that_it_was_late() {
        let b = booking("2030-06-03T10:00:00Z");
        let plan = plan(
            &Event::BookingCancelled {
                booking: b.clone(),
                by: Party::Client,
                reason: Some("sick".into()),
                late: true,
            },
            at("2030-06-03T09:00:00Z"),
            |_| "Ann".into(),
        );
        assert_eq!(plan.now.len(), 1);
        assert_eq!(plan.now[0].user_id, b.coach_id);
        assert!(plan.now[0].body.contains("late cancellation"));
        assert!(plan.now[0].body.contains("Reason: sick"));
        assert_eq!(plan.reminder, Reminder::CallOff(b.booking_id));
    }

    #[test]
    fn a_reschedule_tells_the_coach_once_that_the_booking_moved() {
        let old = booking("2030-06-03T10:00:00Z");
        let new = BookingFact {
            booking_id: Uuid::new_v4(),
            booking_date: "2030-06-05".into(),
            rescheduled_from: Some(old.booking_id),
            ..old.clone()
        };
        let made = plan(
            &Event::BookingRequested { booking: new.clone() },
            at("2030-06-01T00:00:00Z"),
            |_| "Ann".into(),
        );
        assert_eq!(made.now.len(), 1);
        assert_eq!(made.now[0].user_id, new.coach_id);
        assert_eq!(made.now[0].kind, Kind::BookingRescheduled);
        assert!(made.now[0].body.contains("2030-06-05"), "{}", made.now[0].body);

        let replaced = plan(
            &Event::BookingCancelled {
                booking: BookingFact {
                    rescheduled_to: Some(new.booking_id),
                    ..old.clone()
                },
                by: Party::Client,
                reason: None,
                late: false,
            },
            at("2030-06-01T00:00:00Z"),
            |_| "Ann".into(),
        );
        assert!(replaced.now.is_empty(), "the move was told by the new booking");
        assert_eq!(replaced.reminder, Reminder::CallOff(old.booking_id));
    }

    #[test]
    fn a_notice_links_to_the_dashboard_of_its_reader_at_the_thing_it_concerns() {
        let b = booking("2030-06-03T10:00:00Z");
        let expired = plan(
            &Event::BookingExpired { booking: b.clone() },
            at("2030-06-01T00:00:00Z"),
            |_| "Ann".into(),
        );
        let links: Vec<_> = expired.now.iter().map(|n| n.link.clone()).collect();
        assert_eq!(
            links,
            vec![
                format!("/client/dashboard?booking={}", b.booking_id),
                format!("/coach/dashboard?booking={}", b.booking_id),
            ]
        );

        let r = ReservationFact {
            reservation_id: Uuid::new_v4(),
            coach_id: Uuid::new_v4(),
            gym_id: Uuid::new_v4(),
            gym_name: "Hoops".into(),
            location_name: "Downtown".into(),
            court_name: "Court 1".into(),
            date: "2030-06-03".into(),
            start_time: "10:00".into(),
            end_time: "11:00".into(),
            time_zone: "UTC".into(),
            starts_at: "2030-06-03T10:00:00Z".into(),
            ends_at: "2030-06-03T11:00:00Z".into(),
        };
        let requested = plan(
            &Event::ReservationRequested {
                reservation: r.clone(),
            },
            at("2030-06-01T00:00:00Z"),
            |_| "Ann".into(),
        );
        assert_eq!(
            requested.now[0].link,
            format!("/gym/dashboard?reservation={}", r.reservation_id)
        );
        let approved = plan(
            &Event::ReservationApproved {
                reservation: r.clone(),
            },
            at("2030-06-01T00:00:00Z"),
            |_| "Ann".into(),
        );
        assert_eq!(
            approved.now[0].link,
            format!("/coach/dashboard?reservation={}", r.reservation_id)
        );
        assert_eq!(welcome(r.coach_id, "Ann", "coach").link, "/coach/dashboard");
    }

    #[test]
    fn money_reads_as_dollars_and_cents() {
        assert_eq!(money(7500, "usd"), "$75.00");
        assert_eq!(money(3750, "USD"), "$37.50");
        assert_eq!(money(5, "usd"), "$0.05");
        assert_eq!(money(0, "usd"), "$0.00");
        assert_eq!(money(123_456_789, "usd"), "$1234567.89");
        assert_eq!(money(-2005, "usd"), "-$20.05");
        assert_eq!(money(1250, "eur"), "12.50 EUR");
    }

    #[test]
    fn a_declined_card_must_be_fixed_a_day_before_on_the_place_s_clock_across_a_clock_change() {
        // Chicago springs forward at 02:00 on 2030-03-10. A session at 10:00 CDT on the 11th is
        // to be fixed by 10:00 CDT on the 10th (after the change).
        let b = BookingFact {
            booking_date: "2030-03-11".into(),
            time_zone: "America/Chicago".into(),
            starts_at: "2030-03-11T15:00:00Z".into(),
            ..booking("2030-03-11T15:00:00Z")
        };
        assert_eq!(fix_card_by(&b), "2030-03-10 10:00 (America/Chicago)");
        // A session at 10:00 CDT on the 10th itself: 24 hours earlier is 09:00 CST on the 9th,
        // still standard time (UTC−6).
        let b = BookingFact {
            starts_at: "2030-03-10T15:00:00Z".into(),
            ..b
        };
        assert_eq!(fix_card_by(&b), "2030-03-09 09:00 (America/Chicago)");
        let unreadable = BookingFact {
            time_zone: "Mars/Olympus".into(),
            ..b
        };
        assert_eq!(fix_card_by(&unreadable), "a day before the session");
    }

    #[test]
    fn payment_events_tell_the_client_alone_and_call_nothing_off() {
        let b = booking("2030-06-03T10:00:00Z");
        let events = [
            Event::PaymentFailed {
                booking: b.clone(),
                reason: String::new(),
            },
            Event::PaymentCaptured {
                booking: b.clone(),
                amount_cents: 7500,
                currency: "usd".into(),
            },
            Event::PaymentRefunded {
                booking: b.clone(),
                amount_cents: 100,
                currency: "usd".into(),
                reason: "goodwill".into(),
            },
        ];
        let plans: Vec<Plan> = events
            .iter()
            .map(|e| plan(e, at("2030-06-01T00:00:00Z"), |_| "Ann".into()))
            .collect();
        let told: Vec<_> = plans
            .iter()
            .map(|p| {
                assert_eq!(p.reminder, Reminder::Keep);
                assert_eq!(p.now.len(), 1);
                (p.now[0].user_id, p.now[0].kind, p.now[0].link.clone())
            })
            .collect();
        let receipt = format!("/bookings/{}/receipt", b.booking_id);
        assert_eq!(
            told,
            vec![
                (
                    b.client_id,
                    Kind::PaymentFailed,
                    "/client/dashboard#payment-methods".to_owned()
                ),
                (b.client_id, Kind::PaymentReceipt, receipt.clone()),
                (b.client_id, Kind::PaymentRefunded, receipt),
            ]
        );
        // A decline without the provider's words says nothing of them.
        assert!(!plans[0].now[0].body.contains("said"), "{}", plans[0].now[0].body);
        assert_eq!(named_in(&events[1]), vec![b.coach_id, b.client_id]);
    }

    #[test]
    fn kinds_fall_into_the_three_email_categories() {
        assert_eq!(Kind::BookingRequested.category(), Category::Bookings);
        assert_eq!(Kind::ReservationReminder.category(), Category::Reminders);
        assert_eq!(Kind::Welcome.category(), Category::Account);
        // A booking's money is the booking's business.
        assert_eq!(Kind::PaymentFailed.category(), Category::Bookings);
        assert_eq!(Kind::PaymentReceipt.category(), Category::Bookings);
        assert_eq!(Kind::PaymentRefunded.category(), Category::Bookings);
    }
}
