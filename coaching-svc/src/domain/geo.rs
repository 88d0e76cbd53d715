//! Nearby search geometry: great-circle distance in miles and the bounding box that lets the
//! database pick candidate locations from an index before measuring them exactly.

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

/// Latitude and longitude ranges holding every point within a radius. The longitude range is
/// split in two where it crosses the antimeridian; an unused second range is empty (lo > hi).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundingBox {
    pub min_latitude: f64,
    pub max_latitude: f64,
    pub longitudes: [(f64, f64); 2],
}

const EMPTY: (f64, f64) = (1.0, 0.0);
/// Slack so rounding never drops a place that is exactly on the edge; the exact distance decides.
const MARGIN_DEGREES: f64 = 1e-6;
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

    /// The box around the circle (J. P. Matuschek's method): near a pole or for a huge radius
    /// every longitude is in.
    pub fn bounding_box(&self) -> BoundingBox {
        let angle = self.radius_miles / EARTH_RADIUS_MILES;
        let lat = self.latitude.to_radians();
        let min_lat = lat - angle;
        let max_lat = lat + angle;
        let all_longitudes = BoundingBox {
            min_latitude: min_lat.to_degrees().max(-90.0) - MARGIN_DEGREES,
            max_latitude: max_lat.to_degrees().min(90.0) + MARGIN_DEGREES,
            longitudes: [(-180.0, 180.0), EMPTY],
        };
        if min_lat <= -std::f64::consts::FRAC_PI_2 || max_lat >= std::f64::consts::FRAC_PI_2 {
            return all_longitudes;
        }
        let ratio = angle.sin() / lat.cos();
        if ratio >= 1.0 {
            return all_longitudes;
        }
        let delta = ratio.asin().to_degrees() + MARGIN_DEGREES;
        let (lo, hi) = (self.longitude - delta, self.longitude + delta);
        let longitudes = if lo < -180.0 {
            [(lo + 360.0, 180.0), (-180.0, hi)]
        } else if hi > 180.0 {
            [(lo, 180.0), (-180.0, hi - 360.0)]
        } else {
            [(lo, hi), EMPTY]
        };
        BoundingBox {
            longitudes,
            ..all_longitudes
        }
    }
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

    fn inside(bbox: &BoundingBox, (lat, lng): (f64, f64)) -> bool {
        (bbox.min_latitude..=bbox.max_latitude).contains(&lat)
            && bbox.longitudes.iter().any(|(lo, hi)| (*lo..=*hi).contains(&lng))
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
    fn the_box_holds_every_point_on_the_circle() {
        for (lat, lng, radius) in [
            (30.27, -97.74, 25.0),
            (64.8, -147.7, 100.0),
            (51.8, 179.9, 60.0),
            (-33.9, -179.95, 30.0),
        ] {
            let query = NearbyQuery::parse(lat, lng, radius).unwrap();
            let bbox = query.bounding_box();
            for step in 0..360 {
                // A point `radius` miles away on the bearing `step` degrees.
                let bearing = f64::from(step).to_radians();
                let angle = radius / EARTH_RADIUS_MILES;
                let (phi, lambda) = (lat.to_radians(), lng.to_radians());
                let phi2 = (phi.sin() * angle.cos() + phi.cos() * angle.sin() * bearing.cos()).asin();
                let lambda2 = lambda
                    + (bearing.sin() * angle.sin() * phi.cos()).atan2(angle.cos() - phi.sin() * phi2.sin());
                let mut lng2 = lambda2.to_degrees();
                if lng2 > 180.0 {
                    lng2 -= 360.0;
                } else if lng2 < -180.0 {
                    lng2 += 360.0;
                }
                let point = (phi2.to_degrees(), lng2);
                assert!(
                    inside(&bbox, point),
                    "{point:?} outside the box of {query:?}: {bbox:?}"
                );
            }
        }
    }

    #[test]
    fn the_box_leaves_out_far_away_places() {
        let bbox = NearbyQuery::parse(30.27, -97.74, 25.0).unwrap().bounding_box();
        assert!(!inside(&bbox, (32.78, -96.81)));
        assert!(!inside(&bbox, (30.27, -100.0)));
    }

    #[test]
    fn a_box_near_the_pole_takes_every_longitude() {
        let bbox = NearbyQuery::parse(89.9, 0.0, 25.0).unwrap().bounding_box();
        assert_eq!(bbox.longitudes[0], (-180.0, 180.0));
    }

    #[test]
    fn miles_are_shown_with_two_decimals() {
        assert_eq!(round_miles(12.3456), 12.35);
    }
}
