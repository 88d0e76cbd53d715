//! coaching's rules: what a valid profile, location, slot, booking policy and time off are, nearby-search
//! geometry, and a location's time zone (the bundled gazetteer of US places is
//! `platform::places`). No sqlx, no tonic.

mod geo;
mod location;
mod policy;
mod profile;
mod slot;

pub use geo::{EARTH_RADIUS_MILES, NearbyQuery, SphereBox, round_miles};
pub use location::{Coordinates, NewLocation, location_zone};
pub use platform::input::{LocalDays as NewTimeOff, parse_date};
pub use platform::places::{Gazetteer, state_forms};
pub use policy::{BookingPolicy, PolicyUpdate};
pub use profile::ProfileFields;
pub use slot::{NewSlot, SlotKind, earliest_date, format_time};

use uuid::Uuid;

use crate::error::Error;

/// An id a message carries, which must be a UUID; `field` names it in the message.
pub fn parse_id(raw: &str, field: &str) -> Result<Uuid, Error> {
    Uuid::try_parse(raw.trim()).map_err(|_| Error::Invalid(format!("{field} must be a UUID")))
}

/// An optional id: absent or blank means none.
pub fn parse_optional_id(raw: Option<&str>, field: &str) -> Result<Option<Uuid>, Error> {
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        Some(raw) => parse_id(raw, field).map(Some),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_malformed_id_names_its_field() {
        match parse_id("nope", "slot_id") {
            Err(Error::Invalid(m)) => assert_eq!(m, "slot_id must be a UUID"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_blank_optional_id_is_none() {
        assert_eq!(parse_optional_id(Some("  "), "location_id").unwrap(), None);
        assert_eq!(parse_optional_id(None, "location_id").unwrap(), None);
        let id = Uuid::new_v4();
        assert_eq!(
            parse_optional_id(Some(&id.to_string()), "location_id").unwrap(),
            Some(id)
        );
    }
}
