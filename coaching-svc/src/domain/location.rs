//! A coach's location: where sessions happen, with optional coordinates for nearby search.

use platform::{instants::Zone, places::Gazetteer};

use crate::error::Error;
use platform::input::Line;

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
    /// The zone the coach named (checked against the IANA database); None: derived.
    pub time_zone: Option<Zone>,
}

impl NewLocation {
    /// Name, city and state are required; address and court number may be empty; a named zone
    /// must be an IANA name (blank is none).
    #[allow(clippy::too_many_arguments)]
    pub fn parse(
        name: &str,
        address: &str,
        court_number: &str,
        city: &str,
        state: &str,
        latitude: Option<f64>,
        longitude: Option<f64>,
        time_zone: Option<&str>,
    ) -> Result<Self, Error> {
        Ok(Self {
            name: Line::required(name, "name", 100)?.into_string(),
            address: Line::optional(address, "address", 200)?.into_string(),
            court_number: Line::optional(court_number, "court_number", 50)?.into_string(),
            city: Line::required(city, "city", 100)?.into_string(),
            state: Line::required(state, "state", 50)?.into_string(),
            coordinates: Coordinates::parse(latitude, longitude)?,
            time_zone: platform::places::parse_zone(time_zone).map_err(|e| Error::Invalid(e.to_string()))?,
        })
    }
}

/// A location's zone: the one it names, else derived by the gazetteer from its coordinates, its
/// city and state, or its state (`platform::places`); a place none of them tells is refused with
/// a detail asking for `time_zone`.
pub fn location_zone(
    gazetteer: &Gazetteer,
    named: Option<Zone>,
    coordinates: Option<Coordinates>,
    city: &str,
    state: &str,
) -> Result<Zone, Error> {
    if let Some(zone) = named {
        return Ok(zone);
    }
    gazetteer
        .zone_of(None, coordinates.map(|c| (c.latitude, c.longitude)), city, state)
        .map_err(|e| Error::Unprocessable(e.to_string()))
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
            None,
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
        assert!(NewLocation::parse("", "", "", "Austin", "TX", None, None, None).is_err());
        assert!(NewLocation::parse("Gym", "", "", " ", "TX", None, None, None).is_err());
        assert!(NewLocation::parse("Gym", "", "", "Austin", "", None, None, None).is_err());
        assert!(NewLocation::parse("Gym", "", "", "Austin", "TX", None, None, None).is_ok());
    }

    #[test]
    fn a_named_zone_must_be_an_iana_name_and_blank_is_none() {
        let named = |zone| NewLocation::parse("Gym", "", "", "Austin", "TX", None, None, Some(zone));
        assert_eq!(
            named(" America/Chicago ").unwrap().time_zone.unwrap().name(),
            "America/Chicago"
        );
        assert_eq!(named("").unwrap().time_zone, None);
        match named("Central Time") {
            Err(Error::Invalid(m)) => assert!(m.contains("\"Central Time\" is not one"), "{m}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn without_a_named_zone_the_gazetteer_derives_it() {
        let gazetteer = platform::places::bundled();
        let el_paso = Coordinates {
            latitude: 31.7619,
            longitude: -106.4850,
        };
        let zone = location_zone(gazetteer, None, Some(el_paso), "El Paso", "TX").unwrap();
        assert_eq!(zone.name(), "America/Denver");
        assert_eq!(
            location_zone(gazetteer, None, None, "Dallas", "Texas")
                .unwrap()
                .name(),
            "America/Chicago"
        );
        let named = "Pacific/Honolulu".parse().ok();
        assert_eq!(
            location_zone(gazetteer, named, Some(el_paso), "El Paso", "TX")
                .unwrap()
                .name(),
            "Pacific/Honolulu"
        );
        match location_zone(gazetteer, None, None, "Toronto", "Ontario") {
            Err(Error::Unprocessable(m)) => assert!(m.starts_with("time_zone is required"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}
