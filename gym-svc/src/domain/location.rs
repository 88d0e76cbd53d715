//! A gym location: where a gym's courts are.

use platform::{instants::Zone, places::Gazetteer};

use crate::error::Error;
use platform::input::Line;

/// A new gym location, valid by construction.
#[derive(Clone, Debug, PartialEq)]
pub struct NewLocation {
    pub name: Line,
    pub address: Line,
    pub city: Line,
    pub state: Line,
    /// Within ±90 when present.
    pub latitude: Option<f64>,
    /// Within ±180 when present.
    pub longitude: Option<f64>,
    /// The zone the gym named (an IANA name); None: derived ([`NewLocation::zone`]).
    pub time_zone: Option<Zone>,
}

impl NewLocation {
    pub fn parse(
        name: &str,
        address: &str,
        city: &str,
        state: &str,
        latitude: Option<f64>,
        longitude: Option<f64>,
        time_zone: Option<&str>,
    ) -> Result<Self, Error> {
        Ok(Self {
            name: Line::required(name, "name", 100)?,
            address: Line::required(address, "address", 200)?,
            city: Line::required(city, "city", 100)?,
            state: Line::required(state, "state", 100)?,
            latitude: coordinate(latitude, "latitude", 90.0)?,
            longitude: coordinate(longitude, "longitude", 180.0)?,
            time_zone: platform::places::parse_zone(time_zone).map_err(|e| Error::Invalid(e.to_string()))?,
        })
    }

    /// The location's zone: the one named, else derived by the gazetteer from its coordinates (both
    /// given), its city and state, or its state (`platform::places`); a place none of them tells
    /// is refused with a detail asking for `time_zone`.
    pub fn zone(&self, gazetteer: &Gazetteer) -> Result<Zone, Error> {
        if let Some(zone) = self.time_zone {
            return Ok(zone);
        }
        gazetteer
            .zone_of(
                None,
                self.latitude.zip(self.longitude),
                self.city.as_str(),
                self.state.as_str(),
            )
            .map_err(|e| Error::Unprocessable(e.to_string()))
    }
}

fn coordinate(value: Option<f64>, field: &str, bound: f64) -> Result<Option<f64>, Error> {
    match value {
        Some(v) if !v.is_finite() || v.abs() > bound => Err(Error::Invalid(format!(
            "{field} must be a number between -{bound} and {bound}"
        ))),
        other => Ok(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_coordinates(lat: Option<f64>, lng: Option<f64>) -> Result<NewLocation, Error> {
        NewLocation::parse("North Hall", "1 Main St", "Austin", "TX", lat, lng, None)
    }

    #[test]
    fn a_named_zone_is_kept_and_an_unknown_one_refused() {
        let named = |zone| NewLocation::parse("Hall", "1 Main St", "Austin", "TX", None, None, Some(zone));
        let gazetteer = platform::places::bundled();
        assert_eq!(
            named("America/Denver").unwrap().zone(gazetteer).unwrap().name(),
            "America/Denver"
        );
        assert!(
            named("Mountain")
                .unwrap_err()
                .to_string()
                .contains("\"Mountain\" is not one")
        );
    }

    #[test]
    fn a_zone_left_out_is_derived_from_coordinates_then_city_and_state() {
        let gazetteer = platform::places::bundled();
        let el_paso = NewLocation::parse(
            "Hall",
            "1 Main",
            "Anthony",
            "TX",
            Some(31.76),
            Some(-106.49),
            None,
        );
        assert_eq!(el_paso.unwrap().zone(gazetteer).unwrap().name(), "America/Denver");
        // One coordinate alone does not place it: the city does.
        let half = NewLocation::parse("Hall", "1 Main", "Austin", "TX", Some(31.76), None, None);
        assert_eq!(half.unwrap().zone(gazetteer).unwrap().name(), "America/Chicago");
        let abroad = NewLocation::parse("Hall", "1 Main", "Lyon", "Rhône", None, None, None).unwrap();
        assert!(
            abroad
                .zone(gazetteer)
                .unwrap_err()
                .to_string()
                .starts_with("time_zone is required")
        );
    }

    #[test]
    fn coordinates_are_optional() {
        let location = with_coordinates(None, None).unwrap();
        assert_eq!((location.latitude, location.longitude), (None, None));
    }

    #[test]
    fn coordinates_on_the_edge_are_accepted() {
        assert!(with_coordinates(Some(-90.0), Some(180.0)).is_ok());
    }

    #[test]
    fn coordinates_out_of_range_are_refused() {
        let error = with_coordinates(Some(90.000001), None).unwrap_err();
        assert_eq!(error.to_string(), "latitude must be a number between -90 and 90");
        assert!(with_coordinates(None, Some(-180.5)).is_err());
        assert!(with_coordinates(Some(f64::NAN), None).is_err());
    }

    #[test]
    fn name_address_city_and_state_are_required() {
        let error = NewLocation::parse("North Hall", "", "Austin", "TX", None, None, None).unwrap_err();
        assert_eq!(error.to_string(), "address is required");
        assert!(NewLocation::parse("", "1 Main St", "Austin", "TX", None, None, None).is_err());
    }
}
