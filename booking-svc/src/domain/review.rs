//! Reviews of sessions that took place: who may review which booking and when, what a review, a
//! reply and a reason to hide may say.

use chrono::{DateTime, Duration, Utc};

use super::{ClientId, Status};
use crate::error::Error;

/// How long after posting a review its client may still edit it.
pub const EDIT_WINDOW_DAYS: i64 = 14;
/// The longest comment or reply, in characters.
pub const TEXT_MAX: usize = 2000;
/// The longest reason an admin gives for hiding a review, in characters.
pub const HIDE_REASON_MAX: usize = 500;

/// A rating of one to five stars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating(i16);

impl Rating {
    pub fn parse(raw: i32) -> Result<Self, Error> {
        match i16::try_from(raw) {
            Ok(stars @ 1..=5) => Ok(Self(stars)),
            _ => Err(Error::Invalid(format!(
                "rating must be a whole number of stars from 1 to 5 (not {raw})"
            ))),
        }
    }

    pub fn get(self) -> i16 {
        self.0
    }
}

/// Trims `raw`; blank is none; longer than `most` characters is refused naming `field`.
fn text(field: &str, raw: Option<String>, most: usize) -> Result<Option<String>, Error> {
    let Some(text) = raw.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let length = text.chars().count();
    if length > most {
        return Err(Error::Invalid(format!(
            "{field} must be at most {most} characters (this one has {length})"
        )));
    }
    Ok(Some(text))
}

/// A review's optional comment.
pub fn parse_comment(raw: Option<String>) -> Result<Option<String>, Error> {
    text("comment", raw, TEXT_MAX)
}

/// A coach's reply: some text, at most [`TEXT_MAX`] characters.
pub fn parse_reply(raw: String) -> Result<String, Error> {
    text("reply", Some(raw), TEXT_MAX)?.ok_or_else(|| Error::Invalid("reply must not be empty".into()))
}

/// Why an admin hides a review: some text, at most [`HIDE_REASON_MAX`] characters.
pub fn parse_hide_reason(raw: String) -> Result<String, Error> {
    text("reason", Some(raw), HIDE_REASON_MAX)?.ok_or_else(|| {
        Error::Invalid("reason must say why the review is hidden; it is kept with the review".into())
    })
}

/// What the review rules need to know of a booking.
#[derive(Clone, Copy, Debug)]
pub struct Reviewed {
    pub client_id: ClientId,
    pub status: Status,
}

/// Whether `client` may review the booking: only its own client, only once the session took
/// place (`completed`). Someone else's booking is as absent as one that never was.
pub fn may_review(booking: Reviewed, client: ClientId) -> Result<(), Error> {
    if booking.client_id != client {
        return Err(Error::NotFound("this booking does not exist".into()));
    }
    if booking.status != Status::Completed {
        return Err(Error::Transition(format!(
            "only a completed session can be reviewed; this booking is {}",
            booking.status
        )));
    }
    Ok(())
}

/// Whether a review posted at `created_at` may still be edited at `now`, and not hidden.
pub fn may_edit(created_at: DateTime<Utc>, hidden: bool, now: DateTime<Utc>) -> Result<(), Error> {
    if hidden {
        return Err(Error::Transition(
            "this review was hidden by an administrator and can no longer be edited".into(),
        ));
    }
    if now - created_at > Duration::days(EDIT_WINDOW_DAYS) {
        return Err(Error::Transition(format!(
            "a review can be edited for {EDIT_WINDOW_DAYS} days after it was posted; this one was \
             posted on {}",
            created_at.format("%Y-%m-%d")
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

    use super::*;

    fn completed_by(client: ClientId) -> Reviewed {
        Reviewed {
            client_id: client,
            status: Status::Completed,
        }
    }

    #[test]
    fn the_client_of_a_completed_session_may_review_it() {
        let client = ClientId(Uuid::new_v4());
        assert!(may_review(completed_by(client), client).is_ok());
    }

    #[test]
    fn someone_else_s_booking_is_not_found() {
        let booking = completed_by(ClientId(Uuid::new_v4()));
        let refused = may_review(booking, ClientId(Uuid::new_v4())).unwrap_err();
        assert!(matches!(refused, Error::NotFound(_)));
    }

    #[test]
    fn a_session_that_did_not_take_place_cannot_be_reviewed() {
        let client = ClientId(Uuid::new_v4());
        for status in [
            Status::Pending,
            Status::Confirmed,
            Status::Denied,
            Status::Cancelled,
            Status::Expired,
            Status::NoShow,
        ] {
            let refused = may_review(
                Reviewed {
                    client_id: client,
                    status,
                },
                client,
            )
            .unwrap_err();
            assert!(matches!(refused, Error::Transition(_)), "{status}");
            assert!(refused.to_string().contains("completed"), "{status}");
        }
    }

    #[test]
    fn a_review_is_editable_for_fourteen_days_and_not_after() {
        let posted = Utc::now();
        assert!(may_edit(posted, false, posted + Duration::days(14)).is_ok());
        let late = may_edit(posted, false, posted + Duration::days(14) + Duration::seconds(1)).unwrap_err();
        assert!(late.to_string().contains("14 days"), "{late}");
    }

    #[test]
    fn a_hidden_review_cannot_be_edited() {
        let posted = Utc::now();
        assert!(matches!(
            may_edit(posted, true, posted),
            Err(Error::Transition(_))
        ));
    }

    #[test]
    fn ratings_are_one_to_five_stars() {
        assert_eq!(Rating::parse(1).unwrap().get(), 1);
        assert_eq!(Rating::parse(5).unwrap().get(), 5);
        for bad in [0, 6, -1, 70_000] {
            assert!(Rating::parse(bad).unwrap_err().to_string().contains("1 to 5"));
        }
    }

    #[test]
    fn a_comment_is_trimmed_optional_and_at_most_2000_characters() {
        assert_eq!(
            parse_comment(Some("  Great  ".into())).unwrap(),
            Some("Great".into())
        );
        assert_eq!(parse_comment(Some("   ".into())).unwrap(), None);
        assert_eq!(parse_comment(None).unwrap(), None);
        assert!(parse_comment(Some("é".repeat(2000))).is_ok());
        assert!(parse_comment(Some("é".repeat(2001))).is_err());
    }

    #[test]
    fn a_reply_and_a_reason_to_hide_must_say_something() {
        assert!(parse_reply(" ".into()).is_err());
        assert_eq!(parse_reply(" Thanks ".into()).unwrap(), "Thanks");
        assert!(parse_hide_reason("".into()).is_err());
        assert!(parse_hide_reason("x".repeat(501)).is_err());
    }
}
