//! Reservation transitions as events: each one is written to `gym.outbox` in the transaction that
//! makes it (`platform::outbox`), and the relay appends it to the Redis stream after the commit.

use platform::{
    events::{Event, Party, ReservationFact},
    instants::rfc3339,
    outbox::{Outbox, envelope},
};
use sqlx::PgConnection;

use crate::{domain::format_date, domain::format_time, error::Error, store::ReservationRow};

/// gym's outbox table.
pub const OUTBOX: Outbox = Outbox::of("gym");

/// What every event says about a reservation.
pub fn fact(row: &ReservationRow) -> ReservationFact {
    let instants = row.instants();
    ReservationFact {
        reservation_id: row.reservation_id,
        coach_id: row.coach_id,
        gym_id: row.gym_id,
        gym_name: row.gym_name.clone(),
        location_name: row.location_name.clone(),
        court_name: row.court_name.clone(),
        date: format_date(row.date),
        start_time: format_time(row.start_time),
        end_time: format_time(row.end_time),
        time_zone: instants.zone.name().to_owned(),
        starts_at: rfc3339(instants.starts_at),
        ends_at: rfc3339(instants.ends_at),
    }
}

/// A transition that happened to a reservation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Transition {
    Requested,
    Approved,
    Denied { reason: Option<String> },
    Cancelled { by: Party, reason: Option<String> },
    Expired,
}

impl Transition {
    /// The event telling it.
    pub fn event(&self, row: &ReservationRow) -> Event {
        let reservation = fact(row);
        match self.clone() {
            Transition::Requested => Event::ReservationRequested { reservation },
            Transition::Approved => Event::ReservationApproved { reservation },
            Transition::Denied { reason } => Event::ReservationDenied { reservation, reason },
            Transition::Cancelled { by, reason } => Event::ReservationCancelled {
                reservation,
                by,
                reason,
            },
            Transition::Expired => Event::ReservationExpired { reservation },
        }
    }
}

/// Records `transition` of every reservation in `rows`; call it in the transaction that made it.
pub async fn record(
    tx: &mut PgConnection,
    transition: &Transition,
    rows: &[ReservationRow],
) -> Result<(), Error> {
    for row in rows {
        OUTBOX.record(&mut *tx, &envelope(transition.event(row))).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, NaiveTime};
    use uuid::Uuid;

    use super::*;
    use crate::store::Place;

    fn row() -> ReservationRow {
        ReservationRow {
            reservation_id: Uuid::new_v4(),
            availability_id: Uuid::new_v4(),
            coach_id: Uuid::new_v4(),
            gym_id: Uuid::new_v4(),
            gym_name: "Hoops".into(),
            location_name: "North Hall".into(),
            court_name: "Court 1".into(),
            date: NaiveDate::from_ymd_opt(2026, 7, 1).unwrap(),
            start_time: NaiveTime::from_hms_opt(18, 0, 0).unwrap(),
            end_time: NaiveTime::from_hms_opt(19, 30, 0).unwrap(),
            status: "pending".into(),
            cancellation_reason: None,
            created_at: chrono::Utc::now(),
            place: Place {
                time_zone: Some("America/Denver".into()),
                city: "Denver".into(),
                state: "CO".into(),
                latitude: None,
                longitude: None,
            },
        }
    }

    #[test]
    fn a_fact_carries_the_wall_clock_the_zone_and_the_instants() {
        let row = row();
        let fact = fact(&row);
        assert_eq!(fact.reservation_id, row.reservation_id);
        assert_eq!(
            (
                fact.date.as_str(),
                fact.start_time.as_str(),
                fact.end_time.as_str()
            ),
            ("2026-07-01", "18:00", "19:30")
        );
        assert_eq!(fact.time_zone, "America/Denver");
        assert_eq!(
            (fact.starts_at.as_str(), fact.ends_at.as_str()),
            ("2026-07-02T00:00:00Z", "2026-07-02T01:30:00Z")
        );
    }

    #[test]
    fn each_transition_is_told_by_its_own_event() {
        let row = row();
        let cancelled = Transition::Cancelled {
            by: Party::Gym,
            reason: Some("Flooded".into()),
        }
        .event(&row);
        assert!(
            matches!(cancelled, Event::ReservationCancelled { by: Party::Gym, reason: Some(ref r), .. } if r == "Flooded")
        );
        assert!(matches!(
            Transition::Expired.event(&row),
            Event::ReservationExpired { .. }
        ));
        assert!(matches!(
            Transition::Requested.event(&row),
            Event::ReservationRequested { .. }
        ));
        assert!(matches!(
            Transition::Approved.event(&row),
            Event::ReservationApproved { .. }
        ));
        assert!(matches!(
            Transition::Denied { reason: None }.event(&row),
            Event::ReservationDenied { reason: None, .. }
        ));
    }
}
