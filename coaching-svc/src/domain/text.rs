//! Free text a person types: trimmed, bounded, and without control characters where the field is
//! a single line. Anything else (quotes, markup, SQL-looking text, emoji) is kept verbatim.

use crate::error::Error;

/// A single-line field: trimmed, at most `max` characters, no control characters. Empty is
/// refused when `required`, else kept as "".
pub fn single_line(raw: &str, field: &str, max: usize, required: bool) -> Result<String, Error> {
    let value = raw.trim();
    if required && value.is_empty() {
        return Err(Error::Invalid(format!("{field} is required")));
    }
    if value.chars().count() > max {
        return Err(Error::Invalid(format!(
            "{field} must be at most {max} characters"
        )));
    }
    if value.chars().any(char::is_control) {
        return Err(Error::Invalid(format!(
            "{field} must be a single line without control characters"
        )));
    }
    Ok(value.to_owned())
}

/// A multi-line field: trimmed, at most `max` characters; line breaks and tabs are allowed, other
/// control characters are not.
pub fn multi_line(raw: &str, field: &str, max: usize) -> Result<String, Error> {
    let value = raw.trim();
    if value.chars().count() > max {
        return Err(Error::Invalid(format!(
            "{field} must be at most {max} characters"
        )));
    }
    if value
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        return Err(Error::Invalid(format!(
            "{field} must not contain control characters"
        )));
    }
    Ok(value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_lines_are_trimmed_and_kept_verbatim() {
        let raw = "  Robert'); DROP TABLE coaching.slot;-- <script>🏀</script> ";
        assert_eq!(single_line(raw, "name", 100, true).unwrap(), raw.trim());
    }

    #[test]
    fn a_required_single_line_cannot_be_blank() {
        assert!(single_line("   ", "name", 100, true).is_err());
        assert_eq!(single_line("   ", "address", 100, false).unwrap(), "");
    }

    #[test]
    fn length_is_counted_in_characters() {
        assert!(single_line(&"é".repeat(100), "name", 100, true).is_ok());
        assert!(single_line(&"é".repeat(101), "name", 100, true).is_err());
    }

    #[test]
    fn control_characters_are_refused_in_a_single_line_but_line_breaks_allowed_in_multi_line() {
        assert!(single_line("a\nb", "name", 100, true).is_err());
        assert!(multi_line("line one\nline two", "bio", 100).is_ok());
        assert!(multi_line("bell\u{7}", "bio", 100).is_err());
    }
}
