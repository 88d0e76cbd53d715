//! Fills in the time zone of the locations saved before locations kept one (issue 16), right after
//! the migrations run and before the service serves.
//!
//! Why here and not in the migration: a location's zone is derived by the bundled gazetteer
//! (`platform::places`: the nearest place to its coordinates, else its city and state, else its
//! state's usual zone), the same rule a new location gets. SQL has no gazetteer; a state → zone
//! table in the migration would be a second, coarser copy of the data and would put El Paso, TX
//! on Central time. So the migration adds the column as nullable and this fills it in, in batches
//! (one select and one update per [`BATCH`] rows), only where it is still null: running it again,
//! or on several replicas at once, changes nothing twice. A row whose place tells no zone (no
//! coordinates, a city and state outside the US) gets UTC, what every time was read as before,
//! and a warning; its coach can name the zone on a new location.

use platform::{instants::Zone, places::Gazetteer};
use sqlx::PgPool;

use crate::{
    domain::{Coordinates, location_zone},
    error::Error,
    store::{self, LocationRow},
};

/// Locations per select and update.
const BATCH: i64 = 500;

/// The zone a stored location without one gets: derived, else UTC.
pub fn derived_zone(gazetteer: &Gazetteer, row: &LocationRow) -> Zone {
    let coordinates = row
        .latitude
        .zip(row.longitude)
        .map(|(latitude, longitude)| Coordinates { latitude, longitude });
    location_zone(gazetteer, None, coordinates, &row.city, &row.state).unwrap_or(Zone::UTC)
}

/// Fills in every location without a zone; answers how many this call filled.
pub async fn fill_in_location_zones(db: &PgPool, gazetteer: &Gazetteer) -> Result<u64, Error> {
    let mut filled = 0;
    loop {
        let rows = store::locations_without_zone(db, BATCH).await?;
        let (ids, zones): (Vec<_>, Vec<_>) = rows
            .iter()
            .map(|row| {
                let zone = derived_zone(gazetteer, row);
                if zone == Zone::UTC {
                    tracing::warn!(location_id = %row.location_id, city = %row.city, state = %row.state,
                        "no time zone could be derived for this location; UTC it is");
                }
                (row.location_id, zone.name().to_owned())
            })
            .unzip();
        filled += store::fill_location_zones(db, &ids, &zones).await?;
        if rows.len() < BATCH as usize {
            return Ok(filled);
        }
    }
}
