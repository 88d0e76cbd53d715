//! A court at a gym location and its type.

use std::fmt;

use crate::error::Error;
use platform::input::Line;

/// What a court is built for; basketball unless the gym says otherwise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CourtType {
    #[default]
    Basketball,
    Volleyball,
    MultiPurpose,
}

impl CourtType {
    /// An empty type means basketball; matching ignores case and surrounding spaces.
    pub fn parse(raw: &str) -> Result<Self, Error> {
        match raw.trim().to_ascii_lowercase().as_str() {
            "" | "basketball" => Ok(Self::Basketball),
            "volleyball" => Ok(Self::Volleyball),
            "multi-purpose" => Ok(Self::MultiPurpose),
            _ => Err(Error::Invalid(
                "court_type must be basketball, volleyball or multi-purpose".into(),
            )),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Basketball => "basketball",
            Self::Volleyball => "volleyball",
            Self::MultiPurpose => "multi-purpose",
        }
    }
}

impl fmt::Display for CourtType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A new court, valid by construction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewCourt {
    pub court_name: Line,
    pub court_type: CourtType,
}

impl NewCourt {
    pub fn parse(court_name: &str, court_type: &str) -> Result<Self, Error> {
        Ok(Self {
            court_name: Line::required(court_name, "court_name", 100)?,
            court_type: CourtType::parse(court_type)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_court_type_means_basketball() {
        assert_eq!(CourtType::parse("").unwrap(), CourtType::Basketball);
        assert_eq!(CourtType::parse("  ").unwrap(), CourtType::Basketball);
    }

    #[test]
    fn the_three_court_types_are_accepted_in_any_case() {
        assert_eq!(CourtType::parse("Volleyball").unwrap(), CourtType::Volleyball);
        assert_eq!(
            CourtType::parse("multi-purpose").unwrap().as_str(),
            "multi-purpose"
        );
        assert_eq!(CourtType::parse("BASKETBALL").unwrap(), CourtType::Basketball);
    }

    #[test]
    fn an_unknown_court_type_is_refused() {
        let error = CourtType::parse("tennis").unwrap_err();
        assert_eq!(
            error.to_string(),
            "court_type must be basketball, volleyball or multi-purpose"
        );
    }

    #[test]
    fn a_court_needs_a_name() {
        let error = NewCourt::parse(" ", "").unwrap_err();
        assert_eq!(error.to_string(), "court_name is required");
    }
}
