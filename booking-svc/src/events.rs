//! What booking does when identity says a user is gone or changed role: the bookings they held in
//! that role are cancelled, so their slots are free again. Each event is applied once: its id is
//! recorded in `booking.processed_event` in the same transaction as its effect.

use platform::{
    auth::Role,
    events::{Envelope, Event},
};
use sqlx::PgPool;
use uuid::Uuid;

use crate::{
    domain::{ClientId, CoachId},
    error::Error,
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

/// Applies one event, at most once whatever how often it is delivered.
pub async fn apply(db: &PgPool, envelope: Envelope) -> Result<(), Error> {
    let Some(closes) = closes(&envelope.event) else {
        return Ok(());
    };
    let mut tx = db.begin().await?;
    if !store::mark_event_processed(&mut *tx, envelope.event_id).await? {
        return Ok(());
    }
    let cancelled = match closes {
        Closes::OfClient(client_id) => store::cancel_open_bookings_of_client(&mut *tx, client_id).await?,
        Closes::WithCoach(coach_id) => store::cancel_open_bookings_with_coach(&mut *tx, coach_id).await?,
    };
    tx.commit().await?;
    tracing::info!(event_id = %envelope.event_id, ?closes, cancelled, "event applied");
    Ok(())
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
