//! What coaching does with identity's events: a deleted user, or a coach whose role changed to
//! another, leaves the directory with their profile, locations, slots and booking policy; a renamed
//! coach's copy of their name (the directory's name search and order) is kept current. And with
//! booking's: a coach's review figures (`coach_rating_changed`) are kept for the directory.
//!
//! Each removal is applied at most once: its id is recorded in `coaching.processed_event` in the
//! same transaction as its effect, so a redelivery changes nothing. Review figures need no record:
//! the highest revision wins, so a repeated or late event changes nothing either.

use platform::{
    auth::Role,
    events::{Applied, Envelope, Event},
};
use sqlx::PgPool;
use uuid::Uuid;

use crate::{error::Error, store};

/// The consumer group coaching-svc reads the event stream in.
pub const GROUP: &str = "coaching-svc";

/// The coach whose data an event removes, if any.
fn coach_to_remove(event: &Event) -> Option<Uuid> {
    match event {
        Event::UserDeleted { user_id, .. } => Some(*user_id),
        Event::RoleChanged {
            user_id, new_role, ..
        } if *new_role != Role::Coach => Some(*user_id),
        _ => None,
    }
}

/// Applies one event, idempotently; says whether it changed coaching's data.
pub async fn apply(db: &PgPool, envelope: Envelope) -> Result<Applied, Error> {
    if let Event::CoachRatingChanged {
        coach_id,
        rating_count,
        rating_sum,
        stars,
        revision,
    } = envelope.event
    {
        let kept = store::put_rating(db, coach_id, rating_count, rating_sum, &stars, revision).await?;
        return Ok(if kept { Applied::Changed } else { Applied::Nothing });
    }
    if let Event::UserRenamed { user_id, full_name } = &envelope.event {
        let renamed = store::rename_coach(db, *user_id, full_name).await?;
        return Ok(if renamed {
            Applied::Changed
        } else {
            Applied::Nothing
        });
    }
    let Some(coach_id) = coach_to_remove(&envelope.event) else {
        return Ok(Applied::Nothing);
    };
    let mut tx = db.begin().await?;
    if !store::record_event(&mut *tx, envelope.event_id).await? {
        return Ok(Applied::Nothing);
    }
    let slots = store::delete_slots_of(&mut *tx, coach_id).await?;
    let locations = store::delete_locations_of(&mut *tx, coach_id).await?;
    let profiles = store::delete_profile(&mut *tx, coach_id).await?;
    store::delete_booking_policy(&mut *tx, coach_id).await?;
    store::delete_time_off_of(&mut *tx, coach_id).await?;
    tx.commit().await?;
    tracing::info!(
        event_id = %envelope.event_id,
        %coach_id,
        slots,
        locations,
        profiles,
        "coach removed from coaching"
    );
    Ok(Applied::Changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deleted_user_and_a_coach_who_is_no_longer_one_are_removed() {
        let id = Uuid::new_v4();
        assert_eq!(
            coach_to_remove(&Event::UserDeleted {
                user_id: id,
                role: Role::Coach
            }),
            Some(id)
        );
        assert_eq!(
            coach_to_remove(&Event::RoleChanged {
                user_id: id,
                old_role: Role::Coach,
                new_role: Role::Client
            }),
            Some(id)
        );
    }

    #[test]
    fn becoming_a_coach_or_a_rename_removes_nothing() {
        let id = Uuid::new_v4();
        assert_eq!(
            coach_to_remove(&Event::RoleChanged {
                user_id: id,
                old_role: Role::Client,
                new_role: Role::Coach
            }),
            None
        );
        assert_eq!(
            coach_to_remove(&Event::UserRenamed {
                user_id: id,
                full_name: "Ann".into()
            }),
            None
        );
    }
}
