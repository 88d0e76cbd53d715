//! A coach's location: where sessions happen, with optional coordinates for nearby search.

use super::text::single_line;
use crate::error::Error;

/// A point on the earth, in degrees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coordinates {
    pub latitude: f64,
    pub longitude: f64,
}

impl Coordinates {
    /// Both or neither: one without the other is refused.
    pub fn parse(latitude: Option<f64>, longitude: Option<f64>) -> Result<Option<Self>, Error> {
        match (latitude, longitude) {
            (None, None) => Ok(None),
            (Some(latitude), Some(longitude)) => {
                if !latitude.is_finite() || !(-90.0..=90.0).contains(&latitude) {
                    return Err(Error::Invalid("latitude must be between -90 and 90".into()));
                }
                if !longitude.is_finite() || !(-180.0..=180.0).contains(&longitude) {
                    return Err(Error::Invalid("longitude must be between -180 and 180".into()));
                }
                Ok(Some(Self { latitude, longitude }))
            }
            _ => Err(Error::Invalid(
                "give both latitude and longitude, or leave both empty".into(),
            )),
        }
    }
}

/// A new location, validated. `coordinates` are what the coach typed; when absent the
/// service fills them from the gazetteer.
#[derive(Clone, Debug, PartialEq)]
pub struct NewLocation {
    pub name: String,
    pub address: String,
    pub court_number: String,
    pub city: String,
    pub state: String,
    pub coordinates: Option<Coordinates>,
}

impl NewLocation {
    /// Name, city and state are required; address and court number may be empty.
    pub fn parse(
        name: &str,
        address: &str,
        court_number: &str,
        city: &str,
        state: &str,
        latitude: Option<f64>,
        longitude: Option<f64>,
    ) -> Result<Self, Error> {
        Ok(Self {
            name: single_line(name, "name", 100, true)?,
            address: single_line(address, "address", 200, false)?,
            court_number: single_line(court_number, "court_number", 50, false)?,
            city: single_line(city, "city", 100, true)?,
            state: single_line(state, "state", 50, true)?,
            coordinates: Coordinates::parse(latitude, longitude)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(latitude: Option<f64>, longitude: Option<f64>) -> Result<NewLocation, Error> {
        NewLocation::parse(
            " Eastside Rec ",
            "12 Main St",
            "3",
            "Austin",
            "TX",
            latitude,
            longitude,
        )
    }

    #[test]
    fn fields_are_trimmed() {
        assert_eq!(parse(None, None).unwrap().name, "Eastside Rec");
    }

    #[test]
    fn coordinates_at_the_limits_are_accepted() {
        assert!(parse(Some(90.0), Some(-180.0)).is_ok());
        assert!(parse(Some(-90.0), Some(180.0)).is_ok());
    }

    #[test]
    fn coordinates_out_of_range_are_refused() {
        for (lat, lng) in [
            (90.1, 0.0),
            (-91.0, 0.0),
            (0.0, 180.5),
            (0.0, -181.0),
            (f64::NAN, 0.0),
        ] {
            assert!(parse(Some(lat), Some(lng)).is_err(), "{lat} {lng}");
        }
    }

    #[test]
    fn one_coordinate_without_the_other_is_refused() {
        assert!(parse(Some(30.0), None).is_err());
        assert!(parse(None, Some(-97.0)).is_err());
    }

    #[test]
    fn name_city_and_state_are_required() {
        assert!(NewLocation::parse("", "", "", "Austin", "TX", None, None).is_err());
        assert!(NewLocation::parse("Gym", "", "", " ", "TX", None, None).is_err());
        assert!(NewLocation::parse("Gym", "", "", "Austin", "", None, None).is_err());
        assert!(NewLocation::parse("Gym", "", "", "Austin", "TX", None, None).is_ok());
    }
}
