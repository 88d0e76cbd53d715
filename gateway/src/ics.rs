//! iCalendar (RFC 5545) documents of people's sessions, written with the `icalendar` crate: a
//! person's calendar feed and one booking's `.ics` file. This module only renders: the routes
//! (`routes::calendar`) compose the sessions from the contexts that own them.
//!
//! Every session is one VEVENT whose UID never changes (`booking-<id>@courtside`,
//! `court-reservation-<id>@courtside`), with its start and end as UTC instants, its STATUS
//! (TENTATIVE, CONFIRMED or CANCELLED) and its SEQUENCE: the owning service's revision of the
//! record, which grows with every change, so a subscribed calendar replaces what it holds. The
//! calendars carry no METHOD (they are published data, not scheduling messages), so DTSTAMP is
//! when the information was last revised (RFC 5545 3.8.7.2): the record's last change, like
//! LAST-MODIFIED, never the time of rendering. The same sessions always render the same bytes, so
//! the feed's ETag holds while nothing changes.

use chrono::{DateTime, Duration, Utc};
use icalendar::{Calendar, Component, Event, EventLike, EventStatus, Property};

/// The PRODID of every calendar Courtside writes.
const PRODUCT: &str = "-//Courtside//Sessions//EN";

/// How often a subscribed calendar is asked to fetch the feed again (REFRESH-INTERVAL and
/// X-PUBLISHED-TTL; calendar apps take it as a hint).
pub const REFRESH: Duration = Duration::minutes(15);

/// Where a session stands in a calendar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Asked for, not answered yet.
    Tentative,
    /// Agreed (and, once past, it took place).
    Confirmed,
    /// Called off, denied or expired: a calendar that holds it removes or strikes it.
    Cancelled,
}

impl State {
    /// A booking's status as its calendar shows it: pending is tentative; confirmed, completed
    /// and no-show are confirmed (the time was held); anything else is off.
    pub fn of_booking(status: &str) -> Self {
        match status {
            "pending" => State::Tentative,
            "confirmed" | "completed" | "no_show" => State::Confirmed,
            _ => State::Cancelled,
        }
    }

    /// A court reservation's status: approved is confirmed, pending tentative, the rest off.
    pub fn of_reservation(status: &str) -> Self {
        match status {
            "approved" => State::Confirmed,
            "pending" => State::Tentative,
            _ => State::Cancelled,
        }
    }

    fn status(self) -> EventStatus {
        match self {
            State::Tentative => EventStatus::Tentative,
            State::Confirmed => EventStatus::Confirmed,
            State::Cancelled => EventStatus::Cancelled,
        }
    }
}

/// One session, ready to be written as a VEVENT.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// Stable across every rendering and every change of the session.
    pub uid: String,
    /// The owning record's revision.
    pub sequence: i64,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub summary: String,
    /// Empty when the session has no place.
    pub location: String,
    pub description: String,
    pub state: State,
    /// When the record was made.
    pub created_at: Option<DateTime<Utc>>,
    /// When the record last changed.
    pub changed_at: DateTime<Utc>,
    /// Where the session is managed in the app.
    pub url: String,
}

/// The UID of a booking's event.
pub fn booking_uid(booking_id: &str) -> String {
    format!("booking-{booking_id}@courtside")
}

/// The UID of a court reservation's event.
pub fn reservation_uid(reservation_id: &str) -> String {
    format!("court-reservation-{reservation_id}@courtside")
}

/// Control characters (a line break in a reason, say) would end an iCalendar line early: each
/// becomes a space; the crate escapes the rest (commas, semicolons, backslashes).
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn event(session: &Session) -> Event {
    let mut event = Event::new();
    event
        .uid(&session.uid)
        .sequence(u32::try_from(session.sequence.max(0)).unwrap_or(u32::MAX))
        .timestamp(session.changed_at)
        .last_modified(session.changed_at)
        .starts(session.starts_at)
        .ends(session.ends_at)
        .summary(&one_line(&session.summary))
        .status(session.state.status());
    if let Some(created_at) = session.created_at {
        event.created(created_at);
    }
    if !session.location.trim().is_empty() {
        event.location(&one_line(&session.location));
    }
    // Descriptions may keep their line breaks (escaped as \n); other controls go.
    let description: String = session
        .description
        .chars()
        .map(|c| if c.is_control() && c != '\n' { ' ' } else { c })
        .collect();
    if !description.trim().is_empty() {
        event.description(&description);
    }
    if !session.url.is_empty() {
        event.url(&session.url);
    }
    event.done()
}

/// A calendar of `sessions`, named `name` for the apps that show it.
fn calendar(name: &str, sessions: &[Session]) -> Calendar {
    let mut calendar = Calendar::empty();
    calendar
        .append_property(Property::new("VERSION", "2.0"))
        .append_property(Property::new("PRODID", PRODUCT))
        .append_property(Property::new("CALSCALE", "GREGORIAN"))
        .append_property(Property::new("X-WR-CALNAME", one_line(name)));
    calendar.ttl(&REFRESH);
    for session in sessions {
        calendar.push(event(session));
    }
    calendar.done()
}

/// A person's calendar feed: every session of theirs the feed shows, soonest first.
pub fn feed(name: &str, sessions: &[Session]) -> String {
    calendar(name, sessions).to_string()
}

/// One session's `.ics` file, to add it to a calendar by hand.
pub fn single(session: &Session) -> String {
    calendar("Courtside", std::slice::from_ref(session)).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(rfc3339: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
    }

    fn session() -> Session {
        Session {
            uid: booking_uid("0191a2b3-c4d5-7e6f-8a9b-0c1d2e3f4a5b"),
            sequence: 2,
            starts_at: at("2030-06-05T22:00:00Z"),
            ends_at: at("2030-06-05T23:00:00Z"),
            summary: "Coaching session with Ann Lee".into(),
            location: "Court 1, Zilker Park; north side".into(),
            description: "Confirmed.\nManage it on Courtside.".into(),
            state: State::Confirmed,
            created_at: Some(at("2030-06-01T10:00:00Z")),
            changed_at: at("2030-06-02T09:30:00Z"),
            url: "https://courtside.test/client/dashboard".into(),
        }
    }

    /// The document's lines, unfolded (RFC 5545 3.1: a line break followed by a space continues).
    fn lines(ics: &str) -> Vec<String> {
        ics.replace("\r\n ", "")
            .split("\r\n")
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn a_session_is_one_event_with_its_instants_in_utc_and_its_revision_as_sequence() {
        let ics = single(&session());
        let lines = lines(&ics);

        for expected in [
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//Courtside//Sessions//EN",
            "CALSCALE:GREGORIAN",
            "X-WR-CALNAME:Courtside",
            "REFRESH-INTERVAL;VALUE=DURATION:PT900S",
            "BEGIN:VEVENT",
            "UID:booking-0191a2b3-c4d5-7e6f-8a9b-0c1d2e3f4a5b@courtside",
            "DTSTART:20300605T220000Z",
            "DTEND:20300605T230000Z",
            "SEQUENCE:2",
            "STATUS:CONFIRMED",
            "DTSTAMP:20300602T093000Z",
            "SUMMARY:Coaching session with Ann Lee",
            "END:VEVENT",
            "END:VCALENDAR",
        ] {
            assert!(lines.iter().any(|l| l == expected), "{expected} in\n{ics}");
        }
        assert_eq!(lines.iter().filter(|l| *l == "BEGIN:VEVENT").count(), 1);
        assert!(ics.ends_with("\r\n"));
    }

    #[test]
    fn text_is_escaped_and_kept_on_its_line() {
        let mut session = session();
        session.summary = "Session with Ann\r\nBEGIN:VEVENT".into();
        let ics = single(&session);
        let lines = lines(&ics);

        assert!(
            lines.contains(&r"LOCATION:Court 1\, Zilker Park\; north side".to_owned()),
            "{ics}"
        );
        assert!(
            lines.contains(&r"DESCRIPTION:Confirmed.\nManage it on Courtside.".to_owned()),
            "{ics}"
        );
        assert!(
            lines.contains(&"SUMMARY:Session with Ann  BEGIN:VEVENT".to_owned()),
            "{ics}"
        );
        assert_eq!(lines.iter().filter(|l| *l == "BEGIN:VEVENT").count(), 1);
    }

    #[test]
    fn the_same_sessions_render_the_same_bytes() {
        let sessions = [session(), session()];
        assert_eq!(feed("Courtside", &sessions), feed("Courtside", &sessions));
    }

    #[test]
    fn statuses_map_to_what_calendars_know() {
        assert_eq!(State::of_booking("pending"), State::Tentative);
        for held in ["confirmed", "completed", "no_show"] {
            assert_eq!(State::of_booking(held), State::Confirmed, "{held}");
        }
        for off in ["cancelled", "denied", "expired", "anything new"] {
            assert_eq!(State::of_booking(off), State::Cancelled, "{off}");
        }
        assert_eq!(State::of_reservation("approved"), State::Confirmed);
        for off in ["cancelled", "denied", "expired"] {
            assert_eq!(State::of_reservation(off), State::Cancelled, "{off}");
        }
    }

    #[test]
    fn a_session_without_a_place_has_no_location() {
        let mut session = session();
        session.location = "  ".into();
        assert!(!single(&session).contains("LOCATION"));
    }
}
