//! What booking does when identity says a user is gone or changed role: the bookings they held in
//! that role are cancelled (by that side, with the reason), so their slots are free again, and
//! each cancel leaves as a `booking_cancelled` event. Each event is applied once: its id is
//! recorded in `booking.processed_event` in the same transaction as its effect. Their held prices
//! are released ([`settle::settle`]: a cancel by the system charges nothing).

use chrono::{DateTime, Utc};
use platform::{
    auth::Role,
    events::{Applied, Envelope, Event},
};
use uuid::Uuid;

use crate::{
    domain::{ClientId, CoachId},
    error::Error,
    facts::envelope_of,
    lifecycle::Lifecycle,
    payments::settle,
    store,
};

/// Whose open bookings an event closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closes {
    /// The bookings this user made as a client.
    OfClient(ClientId),
    /// The bookings with this user as the coach.
    WithCoach(CoachId),
}

/// The effect of an event on bookings, if any: a deleted user, or one whose role changed, leaves
/// the bookings of their (old) role.
pub fn closes(event: &Event) -> Option<Closes> {
    let (user_id, role): (Uuid, Role) = match *event {
        Event::UserDeleted { user_id, role } => (user_id, role),
        Event::RoleChanged {
            user_id,
            old_role,
            new_role,
        } if old_role != new_role => (user_id, old_role),
        _ => return None,
    };
    match role {
        Role::Client => Some(Closes::OfClient(ClientId(user_id))),
        Role::Coach => Some(Closes::WithCoach(CoachId(user_id))),
        Role::Admin | Role::Gym => None,
    }
}

/// Why the bookings an event closes were cancelled, as their other side reads it.
fn reason(event: &Event, closes: Closes) -> &'static str {
    match (event, closes) {
        (Event::UserDeleted { .. }, Closes::OfClient(_)) => "the client's account was closed",
        (Event::UserDeleted { .. }, Closes::WithCoach(_)) => "the coach's account was closed",
        (_, Closes::OfClient(_)) => "the client's account is no longer a client account",
        (_, Closes::WithCoach(_)) => "the coach's account is no longer a coach account",
    }
}

/// Applies one event at `now`, at most once whatever how often it is delivered.
pub async fn apply(lifecycle: &Lifecycle, envelope: Envelope, now: DateTime<Utc>) -> Result<Applied, Error> {
    let Some(closes) = closes(&envelope.event) else {
        return Ok(Applied::Nothing);
    };
    let reason = reason(&envelope.event, closes);
    let mut tx = lifecycle.db().begin().await?;
    if !store::mark_event_processed(&mut *tx, envelope.event_id).await? {
        return Ok(Applied::Nothing);
    }
    let cancelled = match closes {
        Closes::OfClient(client_id) => {
            store::cancel_open_bookings_of_client(&mut tx, client_id, reason, now).await?
        }
        Closes::WithCoach(coach_id) => {
            store::cancel_open_bookings_with_coach(&mut tx, coach_id, reason, now).await?
        }
    };
    let events = cancelled.iter().map(envelope_of).collect::<Result<Vec<_>, _>>()?;
    store::record_events(&mut tx, &events).await?;
    settle::settle(&mut tx, &cancelled, now).await?;
    tx.commit().await?;
    if !events.is_empty() {
        lifecycle.wake_payments();
    }
    tracing::info!(event_id = %envelope.event_id, ?closes, cancelled = cancelled.len(), "event applied");
    Ok(Applied::Changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deleted_client_loses_their_bookings() {
        let user_id = Uuid::new_v4();
        let event = Event::UserDeleted {
            user_id,
            role: Role::Client,
        };
        assert_eq!(closes(&event), Some(Closes::OfClient(ClientId(user_id))));
    }

    #[test]
    fn a_deleted_coach_loses_the_bookings_with_them() {
        let user_id = Uuid::new_v4();
        let event = Event::UserDeleted {
            user_id,
            role: Role::Coach,
        };
        assert_eq!(closes(&event), Some(Closes::WithCoach(CoachId(user_id))));
    }

    #[test]
    fn a_role_change_closes_the_bookings_of_the_old_role() {
        let user_id = Uuid::new_v4();
        let event = Event::RoleChanged {
            user_id,
            old_role: Role::Coach,
            new_role: Role::Client,
        };
        assert_eq!(closes(&event), Some(Closes::WithCoach(CoachId(user_id))));
    }

    #[test]
    fn renames_and_other_roles_touch_no_booking() {
        let user_id = Uuid::new_v4();
        for event in [
            Event::UserRenamed {
                user_id,
                full_name: "Ann".into(),
            },
            Event::UserDeleted {
                user_id,
                role: Role::Gym,
            },
            Event::RoleChanged {
                user_id,
                old_role: Role::Admin,
                new_role: Role::Coach,
            },
            Event::RoleChanged {
                user_id,
                old_role: Role::Client,
                new_role: Role::Client,
            },
        ] {
            assert_eq!(closes(&event), None, "{event:?}");
        }
    }
}
