//! Fills in what rows saved before issue 16 lack: the time zone of gym locations, and when each
//! court request is due to expire (the start instant of its court time). Run right after the
//! migrations and before serving, and again on every scheduler tick, which catches a row an older
//! replica writes during a rolling deploy.
//!
//! Why here and not in the migration: a location's zone is derived by the bundled gazetteer
//! (`platform::places`: the nearest place to its coordinates, else its city and state, else its
//! state's usual zone), the rule a new location gets, and a start instant by `platform::instants`
//! (the daylight-saving gap and repeat rule booking-svc shares). SQL has neither; a state → zone
//! table in the migration would be a second, coarser copy of the data and would put El Paso, TX
//! on Central time. The fill-in goes in batches (one select and one update per [`BATCH`] rows)
//! and only where the column is still null, so running it again, or on several replicas at once,
//! changes nothing twice. A location whose place tells no zone gets UTC, what every time was read
//! as before, and a warning.

use platform::{instants::Zone, places};
use sqlx::PgPool;

use crate::{
    error::Error,
    store::{self, Place},
};

/// Rows per select and update.
const BATCH: i64 = 500;

/// The zone of a place saved without one: derived by the gazetteer, else UTC.
pub fn derived_zone(place: &Place) -> Zone {
    let coordinates = place.latitude.zip(place.longitude);
    places::bundled()
        .zone_of(None, coordinates, &place.city, &place.state)
        .unwrap_or(Zone::UTC)
}

/// What one fill-in did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filled {
    pub locations: u64,
    pub reservations: u64,
}

/// Fills in every location without a zone, then every reservation without a due time.
pub async fn fill_in(db: &PgPool) -> Result<Filled, Error> {
    let mut filled = Filled::default();
    loop {
        let rows = store::locations_without_zone(db, BATCH).await?;
        let (ids, zones): (Vec<_>, Vec<_>) = rows
            .iter()
            .map(|(location_id, place)| {
                let zone = derived_zone(place);
                if zone == Zone::UTC {
                    tracing::warn!(%location_id, city = %place.city, state = %place.state,
                        "no time zone could be derived for this gym location; UTC it is");
                }
                (*location_id, zone.name().to_owned())
            })
            .unzip();
        filled.locations += store::fill_location_zones(db, &ids, &zones).await?;
        if rows.len() < BATCH as usize {
            break;
        }
    }
    loop {
        let rows = store::reservations_without_due(db, BATCH).await?;
        let (ids, due): (Vec<_>, Vec<_>) = rows
            .iter()
            .map(|(reservation_id, date, start, place)| {
                (*reservation_id, place.zone().instant(*date, *start))
            })
            .unzip();
        filled.reservations += store::fill_reservation_due(db, &ids, &due).await?;
        if rows.len() < BATCH as usize {
            break;
        }
    }
    Ok(filled)
}
