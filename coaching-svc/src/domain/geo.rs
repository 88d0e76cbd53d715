//! Nearby search geometry: great-circle distance in miles and the box that lets the database pick
//! candidate locations from its spatial index before measuring them exactly. Places are points on
//! the unit sphere (x, y, z), as the `location_sphere_idx` GiST index of `cube`s holds them: every
//! place within a radius is within one small axis-aligned box around the centre, at the poles and
//! across the antimeridian alike.

use crate::error::Error;

/// The earth's mean radius in miles.
pub const EARTH_RADIUS_MILES: f64 = 3958.8;
/// The radius when the caller gives none (SPEC.md: 25 miles).
pub const DEFAULT_RADIUS_MILES: f64 = 25.0;
/// Half the earth's circumference: every place is within it.
pub const MAX_RADIUS_MILES: f64 = 12_500.0;

/// A validated nearby search: a centre and a radius in miles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NearbyQuery {
    pub latitude: f64,
    pub longitude: f64,
    pub radius_miles: f64,
}

/// The corners of an axis-aligned box in (x, y, z) on the unit sphere holding every place within
/// a radius (a `cube` for the `<@` operator of the spatial index).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SphereBox {
    pub low: [f64; 3],
    pub high: [f64; 3],
}

/// Slack so rounding never drops a place that is exactly on the edge (about 6 m on the unit
/// sphere); the exact distance decides.
const MARGIN: f64 = 1e-6;
/// A coordinate closer to 0 than this (a billionth of a degree, about 0.1 mm) is taken as 0: finer
/// is noise, and values down to subnormal floats would underflow PostgreSQL's trigonometry, which
/// raises an error instead of giving 0.
const COORDINATE_RESOLUTION: f64 = 1e-9;
/// The smallest radius searched (about 1.6 mm); a smaller positive radius is taken as this, for
/// the same reason.
const MIN_RADIUS_MILES: f64 = 1e-6;

fn flush_tiny(coordinate: f64) -> f64 {
    if coordinate.abs() < COORDINATE_RESOLUTION {
        0.0
    } else {
        coordinate
    }
}

impl NearbyQuery {
    /// A radius of 0 means the default of 25 miles.
    pub fn parse(latitude: f64, longitude: f64, radius_miles: f64) -> Result<Self, Error> {
        if !latitude.is_finite() || !(-90.0..=90.0).contains(&latitude) {
            return Err(Error::Invalid("lat must be between -90 and 90".into()));
        }
        if !longitude.is_finite() || !(-180.0..=180.0).contains(&longitude) {
            return Err(Error::Invalid("lng must be between -180 and 180".into()));
        }
        if !radius_miles.is_finite() || radius_miles < 0.0 {
            return Err(Error::Invalid("radius must be a positive number of miles".into()));
        }
        if radius_miles > MAX_RADIUS_MILES {
            return Err(Error::Invalid(format!(
                "radius must be at most {MAX_RADIUS_MILES} miles"
            )));
        }
        Ok(Self {
            latitude: flush_tiny(latitude),
            longitude: flush_tiny(longitude),
            radius_miles: if radius_miles == 0.0 {
                DEFAULT_RADIUS_MILES
            } else {
                radius_miles.max(MIN_RADIUS_MILES)
            },
        })
    }

    /// The box around the circle: a place at most `radius` miles away is at most the chord
    /// `2 sin(angle / 2)` from the centre in a straight line, so at most that far along each axis.
    /// Its share of the index is about the circle's: nothing else the box holds is far beyond it.
    pub fn sphere_box(&self) -> SphereBox {
        let angle = (self.radius_miles / EARTH_RADIUS_MILES).min(std::f64::consts::PI);
        let chord = 2.0 * (angle / 2.0).sin() + MARGIN;
        let centre = unit_vector(self.latitude, self.longitude);
        SphereBox {
            low: centre.map(|c| c - chord),
            high: centre.map(|c| c + chord),
        }
    }
}

/// A place in degrees as a point on the unit sphere, as the spatial index computes it.
pub fn unit_vector(latitude: f64, longitude: f64) -> [f64; 3] {
    let (lat, lng) = (latitude.to_radians(), longitude.to_radians());
    [lat.cos() * lng.cos(), lat.cos() * lng.sin(), lat.sin()]
}

/// The great-circle (haversine) distance in miles between two points in degrees: what the
/// nearby query computes in SQL, here to check the bounding box against.
#[cfg(test)]
fn distance_miles(a: (f64, f64), b: (f64, f64)) -> f64 {
    let (lat1, lat2) = (a.0.to_radians(), b.0.to_radians());
    let dlat = lat2 - lat1;
    let dlng = (b.1 - a.1).to_radians();
    let h = (dlat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlng / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_MILES * h.sqrt().min(1.0).asin()
}

/// Miles as shown: two decimals.
pub fn round_miles(miles: f64) -> f64 {
    (miles * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inside(bbox: &SphereBox, (lat, lng): (f64, f64)) -> bool {
        let point = unit_vector(lat, lng);
        (0..3).all(|axis| (bbox.low[axis]..=bbox.high[axis]).contains(&point[axis]))
    }

    #[test]
    fn austin_to_dallas_is_about_182_miles() {
        let miles = distance_miles((30.26715, -97.74306), (32.78306, -96.80667));
        assert!((miles - 182.0).abs() < 2.0, "{miles}");
    }

    #[test]
    fn a_zero_radius_means_25_miles() {
        assert_eq!(NearbyQuery::parse(30.0, -97.0, 0.0).unwrap().radius_miles, 25.0);
    }

    #[test]
    fn coordinates_and_radii_too_small_to_mean_anything_are_flushed() {
        let query = NearbyQuery::parse(5e-324, -4.9e-154, 1e-300).unwrap();
        assert_eq!((query.latitude, query.longitude), (0.0, 0.0));
        assert_eq!(query.radius_miles, MIN_RADIUS_MILES);
        let austin = NearbyQuery::parse(30.2672, -97.7431, 10.0).unwrap();
        assert_eq!(
            (austin.latitude, austin.longitude, austin.radius_miles),
            (30.2672, -97.7431, 10.0)
        );
    }

    #[test]
    fn out_of_range_centres_and_radii_are_refused() {
        assert!(NearbyQuery::parse(91.0, 0.0, 1.0).is_err());
        assert!(NearbyQuery::parse(0.0, -180.5, 1.0).is_err());
        assert!(NearbyQuery::parse(0.0, 0.0, -1.0).is_err());
        assert!(NearbyQuery::parse(0.0, 0.0, f64::NAN).is_err());
        assert!(NearbyQuery::parse(0.0, 0.0, 20_000.0).is_err());
    }

    #[test]
    fn the_box_holds_every_point_on_the_circle_at_the_poles_and_across_the_antimeridian() {
        for (lat, lng, radius) in [
            (30.27, -97.74, 25.0),
            (64.8, -147.7, 100.0),
            (51.8, 179.9, 60.0),
            (-33.9, -179.95, 30.0),
            (89.9, 0.0, 25.0),
            (-89.99, 120.0, 400.0),
            (0.0, 0.0, 12_500.0),
        ] {
            let query = NearbyQuery::parse(lat, lng, radius).unwrap();
            let bbox = query.sphere_box();
            for step in 0..360 {
                for fraction in [0.5, 1.0] {
                    // A point `fraction * radius` miles away on the bearing `step` degrees.
                    let bearing = f64::from(step).to_radians();
                    let angle = fraction * radius / EARTH_RADIUS_MILES;
                    let (phi, lambda) = (lat.to_radians(), lng.to_radians());
                    let phi2 = (phi.sin() * angle.cos() + phi.cos() * angle.sin() * bearing.cos()).asin();
                    let lambda2 = lambda
                        + (bearing.sin() * angle.sin() * phi.cos())
                            .atan2(angle.cos() - phi.sin() * phi2.sin());
                    let point = (phi2.to_degrees(), lambda2.to_degrees());
                    assert!(
                        distance_miles((lat, lng), point) <= radius * 1.000_001,
                        "the test's point is on the circle"
                    );
                    assert!(
                        inside(&bbox, point),
                        "{point:?} outside the box of {query:?}: {bbox:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_box_leaves_out_far_away_places_even_on_the_same_latitude() {
        let bbox = NearbyQuery::parse(30.27, -97.74, 25.0).unwrap().sphere_box();
        assert!(!inside(&bbox, (32.78, -96.81)));
        assert!(!inside(&bbox, (30.27, -100.0)));
        assert!(!inside(&bbox, (30.27, 82.26)), "the far side of the earth");
        assert!(inside(&bbox, (30.5, -97.6)));
    }

    #[test]
    fn miles_are_shown_with_two_decimals() {
        assert_eq!(round_miles(12.3456), 12.35);
    }
}
