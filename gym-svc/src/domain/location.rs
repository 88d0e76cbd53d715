//! A gym location: where a gym's courts are.

use super::text::Line;
use crate::error::Error;

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
}

impl NewLocation {
    pub fn parse(
        name: &str,
        address: &str,
        city: &str,
        state: &str,
        latitude: Option<f64>,
        longitude: Option<f64>,
    ) -> Result<Self, Error> {
        Ok(Self {
            name: Line::required(name, "name", 100)?,
            address: Line::required(address, "address", 200)?,
            city: Line::required(city, "city", 100)?,
            state: Line::required(state, "state", 100)?,
            latitude: coordinate(latitude, "latitude", 90.0)?,
            longitude: coordinate(longitude, "longitude", 180.0)?,
        })
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
        NewLocation::parse("North Hall", "1 Main St", "Austin", "TX", lat, lng)
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
        let error = NewLocation::parse("North Hall", "", "Austin", "TX", None, None).unwrap_err();
        assert_eq!(error.to_string(), "address is required");
        assert!(NewLocation::parse("", "1 Main St", "Austin", "TX", None, None).is_err());
    }
}
