//! Text a person typed: trimmed, bounded, single-line fields free of control characters. SQL- or
//! script-looking text and emoji are kept verbatim: they are data, never code.

use crate::error::Error;

/// A trimmed single-line field, at most its field's length, no control characters. May be empty
/// only when built with [`Line::optional`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line(String);

impl Line {
    /// A field that must not be empty.
    pub fn required(raw: &str, field: &str, max_chars: usize) -> Result<Self, Error> {
        let line = Self::optional(raw, field, max_chars)?;
        if line.0.is_empty() {
            return Err(Error::Invalid(format!("{field} is required")));
        }
        Ok(line)
    }

    /// A field that may be empty.
    pub fn optional(raw: &str, field: &str, max_chars: usize) -> Result<Self, Error> {
        let line = raw.trim();
        if line.chars().count() > max_chars {
            return Err(Error::Invalid(format!(
                "{field} must be at most {max_chars} characters"
            )));
        }
        if line.chars().any(char::is_control) {
            return Err(Error::Invalid(format!(
                "{field} must be a single line without control characters"
            )));
        }
        Ok(Self(line.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Trimmed free text that may span lines (tabs and line breaks allowed), at most its field's length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text(String);

impl Text {
    pub fn optional(raw: &str, field: &str, max_chars: usize) -> Result<Self, Error> {
        let text = raw.trim();
        if text.chars().count() > max_chars {
            return Err(Error::Invalid(format!(
                "{field} must be at most {max_chars} characters"
            )));
        }
        if text
            .chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        {
            return Err(Error::Invalid(format!(
                "{field} must not contain control characters"
            )));
        }
        Ok(Self(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_trimmed_and_kept_verbatim() {
        let line = Line::required("  Robert'); drop table gym.court;-- 🏀 ", "name", 100).unwrap();
        assert_eq!(line.as_str(), "Robert'); drop table gym.court;-- 🏀");
    }

    #[test]
    fn a_required_line_refuses_blank_text() {
        let error = Line::required("   ", "gym_name", 100).unwrap_err();
        assert_eq!(error.to_string(), "gym_name is required");
        assert_eq!(Line::optional("  ", "phone", 30).unwrap().as_str(), "");
    }

    #[test]
    fn lines_are_bounded_in_characters_not_bytes() {
        assert!(Line::required(&"é".repeat(100), "name", 100).is_ok());
        let error = Line::required(&"x".repeat(101), "name", 100).unwrap_err();
        assert_eq!(error.to_string(), "name must be at most 100 characters");
    }

    #[test]
    fn lines_refuse_control_characters_but_text_allows_line_breaks() {
        assert!(Line::required("Main\nStreet", "address", 200).is_err());
        assert!(Line::required("Main\u{7}Street", "address", 200).is_err());
        assert_eq!(
            Text::optional("Two courts.\nFree parking.", "description", 2000)
                .unwrap()
                .as_str(),
            "Two courts.\nFree parking."
        );
        assert!(Text::optional("bell\u{7}", "description", 2000).is_err());
    }
}
