//! A coach profile's fields: bio, specialties, hourly rate, years of experience and time zone.

use platform::instants::Zone;

use crate::error::Error;
use platform::input::{Line, Text};

/// The fields of a coach profile, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct ProfileFields {
    pub bio: String,
    pub specialties: Vec<String>,
    pub hourly_rate: f64,
    pub years_experience: i32,
    /// The zone of the coach's slots that have no location. None: an update keeps the current
    /// one, a new profile gets UTC (see [`ProfileFields::NEW_PROFILE_ZONE`]).
    pub time_zone: Option<Zone>,
}

impl ProfileFields {
    pub const MAX_BIO_CHARS: usize = 2000;
    pub const MAX_SPECIALTY_CHARS: usize = 50;
    pub const MAX_SPECIALTIES: usize = 20;
    pub const MAX_HOURLY_RATE: f64 = 10_000.0;
    pub const MAX_YEARS: i32 = 100;
    /// The zone of a profile created without one. The web app always sends the browser's zone; a
    /// client of the API that sends none gets UTC rather than a guess (a coach's home zone cannot
    /// be told from anything a new profile holds), and can set it at any time.
    pub const NEW_PROFILE_ZONE: Zone = Zone::UTC;

    /// Specialties are trimmed, blanks dropped and repeats (whatever their case) kept once, in
    /// the order given.
    pub fn parse(
        bio: &str,
        specialties: &[String],
        hourly_rate: f64,
        years_experience: i32,
        time_zone: Option<&str>,
    ) -> Result<Self, Error> {
        let bio = Text::optional(bio, "bio", Self::MAX_BIO_CHARS)?.into_string();
        let mut kept: Vec<String> = Vec::new();
        for raw in specialties {
            let specialty = Line::optional(raw, "each specialty", Self::MAX_SPECIALTY_CHARS)?.into_string();
            if !specialty.is_empty() && !kept.iter().any(|k| k.to_lowercase() == specialty.to_lowercase()) {
                kept.push(specialty);
            }
        }
        if kept.len() > Self::MAX_SPECIALTIES {
            return Err(Error::Invalid(format!(
                "list at most {} specialties",
                Self::MAX_SPECIALTIES
            )));
        }
        if !hourly_rate.is_finite() {
            return Err(Error::Invalid("hourly_rate must be a number".into()));
        }
        if hourly_rate < 0.0 {
            return Err(Error::Invalid("hourly_rate must not be negative".into()));
        }
        if hourly_rate > Self::MAX_HOURLY_RATE {
            return Err(Error::Invalid(format!(
                "hourly_rate must be at most {}",
                Self::MAX_HOURLY_RATE
            )));
        }
        if years_experience < 0 {
            return Err(Error::Invalid("years_experience must not be negative".into()));
        }
        if years_experience > Self::MAX_YEARS {
            return Err(Error::Invalid(format!(
                "years_experience must be at most {}",
                Self::MAX_YEARS
            )));
        }
        let time_zone = platform::places::parse_zone(time_zone).map_err(|e| Error::Invalid(e.to_string()))?;
        Ok(Self {
            bio,
            specialties: kept,
            hourly_rate,
            years_experience,
            time_zone,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    fn message(result: Result<ProfileFields, Error>) -> String {
        match result {
            Err(Error::Invalid(m)) => m,
            other => panic!("expected Invalid, got {other:?}"),
        }
    }

    #[test]
    fn specialties_are_trimmed_blanks_dropped_and_repeats_kept_once() {
        let fields = ProfileFields::parse(
            "  Former college point guard. ",
            &strings(&[" Shooting ", "", "Defense", "shooting", "  "]),
            60.0,
            8,
            None,
        )
        .unwrap();
        assert_eq!(fields.bio, "Former college point guard.");
        assert_eq!(fields.specialties, strings(&["Shooting", "Defense"]));
    }

    #[test]
    fn zero_rate_and_zero_years_are_allowed() {
        assert!(ProfileFields::parse("", &[], 0.0, 0, None).is_ok());
    }

    #[test]
    fn a_negative_rate_is_refused() {
        assert_eq!(
            message(ProfileFields::parse("", &[], -1.0, 0, None)),
            "hourly_rate must not be negative"
        );
    }

    #[test]
    fn a_rate_that_is_not_a_number_is_refused() {
        assert!(ProfileFields::parse("", &[], f64::NAN, 0, None).is_err());
        assert!(ProfileFields::parse("", &[], f64::INFINITY, 0, None).is_err());
    }

    #[test]
    fn negative_years_are_refused() {
        assert_eq!(
            message(ProfileFields::parse("", &[], 10.0, -1, None)),
            "years_experience must not be negative"
        );
    }

    #[test]
    fn a_bio_longer_than_2000_characters_is_refused() {
        assert!(ProfileFields::parse(&"a".repeat(2000), &[], 1.0, 1, None).is_ok());
        assert!(ProfileFields::parse(&"a".repeat(2001), &[], 1.0, 1, None).is_err());
    }

    #[test]
    fn a_zone_must_be_an_iana_name_and_blank_is_none() {
        let zone = |z| ProfileFields::parse("", &[], 1.0, 1, Some(z));
        assert_eq!(
            zone("America/Denver").unwrap().time_zone.unwrap().name(),
            "America/Denver"
        );
        assert_eq!(zone("  ").unwrap().time_zone, None);
        assert!(message(zone("CST")).contains("\"CST\" is not one"));
    }

    #[test]
    fn too_many_specialties_are_refused() {
        let many: Vec<String> = (0..21).map(|i| format!("skill {i}")).collect();
        assert!(ProfileFields::parse("", &many, 1.0, 1, None).is_err());
    }
}
