//! A gym's profile: its public name, a description and a phone number.

use crate::error::Error;
use platform::input::{Line, Text};

/// The fields of a gym profile, valid by construction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GymProfileFields {
    /// Required, at most 100 characters.
    pub gym_name: Line,
    /// Optional free text, at most 2000 characters.
    pub description: Text,
    /// Optional; digits with spaces and `+-().`, at most 30 characters.
    pub phone: Line,
}

impl GymProfileFields {
    pub fn parse(gym_name: &str, description: &str, phone: &str) -> Result<Self, Error> {
        let gym_name = Line::required(gym_name, "gym_name", 100)?;
        let description = Text::optional(description, "description", 2000)?;
        let phone = Line::optional(phone, "phone", 30)?;
        let digits = phone.as_str().chars().filter(char::is_ascii_digit).count();
        let allowed = phone
            .as_str()
            .chars()
            .all(|c| c.is_ascii_digit() || " +-().".contains(c));
        if !phone.as_str().is_empty() && (!allowed || digits == 0) {
            return Err(Error::Invalid(format!(
                "{:?} is not a valid phone number",
                phone.as_str()
            )));
        }
        Ok(Self {
            gym_name,
            description,
            phone,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_needs_a_gym_name() {
        let error = GymProfileFields::parse("  ", "", "").unwrap_err();
        assert_eq!(error.to_string(), "gym_name is required");
    }

    #[test]
    fn description_and_phone_are_optional() {
        let fields = GymProfileFields::parse(" Hoops Arena ", "", " ").unwrap();
        assert_eq!(fields.gym_name.as_str(), "Hoops Arena");
        assert_eq!(fields.phone.as_str(), "");
    }

    #[test]
    fn a_phone_is_digits_and_punctuation() {
        assert!(GymProfileFields::parse("Hoops", "", "+1 (512) 555-0100").is_ok());
        let error = GymProfileFields::parse("Hoops", "", "call us").unwrap_err();
        assert_eq!(error.to_string(), "\"call us\" is not a valid phone number");
    }
}
