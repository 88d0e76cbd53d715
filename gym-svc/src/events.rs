//! How gym reacts to identity's facts. A gym that is deleted or leaves the gym role withdraws its
//! open court time, denies the requests still pending on its courts and leaves the directory (its
//! rows stay, so coaches' past reservations keep their names); a coach that is deleted or leaves
//! the coach role has their pending requests cancelled.
//!
//! Each event is applied at most once: its id is recorded in `gym.processed_event` in the same
//! transaction as its effect, and a redelivered event is skipped. The requests it denies or
//! cancels leave their own events through the outbox, in the same transaction.

use chrono::Utc;
use platform::{
    auth::Role,
    events::{Applied, Envelope, Event, Party},
};
use sqlx::PgPool;
use uuid::Uuid;

use crate::{
    domain::earliest_open_date,
    error::Error,
    outbox::{self, Transition},
    store,
};

/// Why a gone gym's pending requests are denied.
const GYM_GONE: &str = "the gym no longer offers court time on Courtside";
/// Why a gone coach's pending requests are cancelled.
const COACH_GONE: &str = "the coach's account was closed";

/// What an event means here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Effect {
    GymGone(Uuid),
    CoachGone(Uuid),
    Nothing,
}

fn effect(event: &Event) -> Effect {
    match *event {
        Event::UserDeleted {
            user_id,
            role: Role::Gym,
        } => Effect::GymGone(user_id),
        Event::UserDeleted {
            user_id,
            role: Role::Coach,
        } => Effect::CoachGone(user_id),
        Event::RoleChanged {
            user_id,
            old_role: Role::Gym,
            new_role,
        } if new_role != Role::Gym => Effect::GymGone(user_id),
        Event::RoleChanged {
            user_id,
            old_role: Role::Coach,
            new_role,
        } if new_role != Role::Coach => Effect::CoachGone(user_id),
        _ => Effect::Nothing,
    }
}

/// Applies one event, once; says whether it changed gym's data.
pub async fn apply(db: &PgPool, envelope: Envelope) -> Result<Applied, Error> {
    let effect = effect(&envelope.event);
    if effect == Effect::Nothing {
        return Ok(Applied::Nothing);
    }
    let mut tx = db.begin().await?;
    if !store::record_event(&mut *tx, envelope.event_id).await? {
        return Ok(Applied::Nothing);
    }
    match effect {
        Effect::GymGone(gym_id) => {
            let today = earliest_open_date(Utc::now());
            // Court time before requests: the order approvals lock them in.
            let withdrawn = store::withdraw_open_availability(&mut *tx, gym_id, today).await?;
            let denied = store::deny_gym_pending(&mut *tx, gym_id).await?;
            let rows = store::reservations(&mut *tx, &denied).await?;
            let transition = Transition::Denied {
                reason: Some(GYM_GONE.into()),
            };
            outbox::record(&mut tx, &transition, &rows).await?;
            store::delist_locations(&mut *tx, gym_id).await?;
            tracing::info!(%gym_id, withdrawn, denied = denied.len(), "gym left: court time withdrawn");
        }
        Effect::CoachGone(coach_id) => {
            let cancelled = store::cancel_coach_pending(&mut *tx, coach_id).await?;
            let rows = store::reservations(&mut *tx, &cancelled).await?;
            let transition = Transition::Cancelled {
                by: Party::Coach,
                reason: Some(COACH_GONE.into()),
            };
            outbox::record(&mut tx, &transition, &rows).await?;
            tracing::info!(%coach_id, cancelled = cancelled.len(), "coach left: pending court requests cancelled");
        }
        Effect::Nothing => {}
    }
    tx.commit().await?;
    Ok(Applied::Changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deleted_gym_or_coach_has_an_effect_and_others_do_not() {
        let id = Uuid::new_v4();
        let deleted = |role| Event::UserDeleted { user_id: id, role };
        assert_eq!(effect(&deleted(Role::Gym)), Effect::GymGone(id));
        assert_eq!(effect(&deleted(Role::Coach)), Effect::CoachGone(id));
        assert_eq!(effect(&deleted(Role::Client)), Effect::Nothing);
        let renamed = Event::UserRenamed {
            user_id: id,
            full_name: "Ann".into(),
        };
        assert_eq!(effect(&renamed), Effect::Nothing);
    }

    #[test]
    fn leaving_the_gym_or_coach_role_counts_as_leaving() {
        let id = Uuid::new_v4();
        let changed = |old_role, new_role| Event::RoleChanged {
            user_id: id,
            old_role,
            new_role,
        };
        assert_eq!(effect(&changed(Role::Gym, Role::Client)), Effect::GymGone(id));
        assert_eq!(effect(&changed(Role::Coach, Role::Gym)), Effect::CoachGone(id));
        assert_eq!(effect(&changed(Role::Client, Role::Gym)), Effect::Nothing);
    }
}
