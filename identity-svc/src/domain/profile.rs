//! A client's profile as a person fills it in: every field optional, an empty field means none,
//! and what is given must make sense (an age a person can have, a known skill level, a picture
//! the gateway stored under `/uploads/`).

use std::fmt;

use crate::error::Error;

/// How far a client has come: SPEC.md's three levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkillLevel {
    Beginner,
    Intermediate,
    Advanced,
}

impl SkillLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            SkillLevel::Beginner => "beginner",
            SkillLevel::Intermediate => "intermediate",
            SkillLevel::Advanced => "advanced",
        }
    }

    /// Case-insensitive; anything else is refused with a sentence naming the choices.
    pub fn parse(raw: &str) -> Result<Self, Error> {
        match raw.trim().to_lowercase().as_str() {
            "beginner" => Ok(SkillLevel::Beginner),
            "intermediate" => Ok(SkillLevel::Intermediate),
            "advanced" => Ok(SkillLevel::Advanced),
            _ => Err(Error::Invalid(
                "skill_level must be beginner, intermediate or advanced".into(),
            )),
        }
    }
}

impl fmt::Display for SkillLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The fields of a client profile, each `None` when not given or given empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProfileFields {
    pub age: Option<i32>,
    pub grade: Option<String>,
    pub sport: Option<String>,
    pub skill_level: Option<SkillLevel>,
    pub profile_picture_url: Option<String>,
}

/// The profile fields as they arrive, before any check.
#[derive(Clone, Debug, Default)]
pub struct RawProfileFields<'a> {
    pub age: Option<i32>,
    pub grade: Option<&'a str>,
    pub sport: Option<&'a str>,
    pub skill_level: Option<&'a str>,
    pub profile_picture_url: Option<&'a str>,
}

/// The oldest and youngest ages a profile accepts.
pub const AGE_RANGE: std::ops::RangeInclusive<i32> = 1..=120;
/// The longest grade or sport, in characters.
pub const SHORT_TEXT_MAX: usize = 50;
/// The image types the gateway stores uploads as.
const PICTURE_EXTENSIONS: [&str; 5] = ["png", "jpg", "jpeg", "webp", "gif"];

impl ProfileFields {
    pub fn parse(raw: RawProfileFields<'_>) -> Result<Self, Error> {
        let age = raw.age.map(parse_age).transpose()?;
        Ok(Self {
            age,
            grade: short_text(raw.grade, "grade")?,
            sport: short_text(raw.sport, "sport")?,
            skill_level: non_empty(raw.skill_level).map(SkillLevel::parse).transpose()?,
            profile_picture_url: non_empty(raw.profile_picture_url)
                .map(parse_picture_url)
                .transpose()?,
        })
    }
}

fn parse_age(age: i32) -> Result<i32, Error> {
    if AGE_RANGE.contains(&age) {
        Ok(age)
    } else {
        Err(Error::Invalid("age must be a whole number from 1 to 120".into()))
    }
}

fn non_empty(raw: Option<&str>) -> Option<&str> {
    raw.map(str::trim).filter(|s| !s.is_empty())
}

/// A trimmed single-line text of at most [`SHORT_TEXT_MAX`] characters; empty means none.
fn short_text(raw: Option<&str>, field: &str) -> Result<Option<String>, Error> {
    let Some(text) = non_empty(raw) else {
        return Ok(None);
    };
    if text.chars().count() > SHORT_TEXT_MAX {
        return Err(Error::Invalid(format!(
            "{field} must be at most {SHORT_TEXT_MAX} characters"
        )));
    }
    if text.chars().any(char::is_control) {
        return Err(Error::Invalid(format!(
            "{field} must not contain control characters"
        )));
    }
    Ok(Some(text.to_owned()))
}

/// `/uploads/<name>.<image extension>` where the name is letters, digits, `_` or `-`: what the
/// gateway answers after an upload, and nothing that could point elsewhere (no scheme, host,
/// `..`, query or markup).
fn parse_picture_url(url: &str) -> Result<String, Error> {
    let refused = || {
        Error::Invalid("profile_picture_url must be an uploaded picture such as /uploads/<name>.png".into())
    };
    let file = url.strip_prefix("/uploads/").ok_or_else(refused)?;
    let (name, extension) = file.rsplit_once('.').ok_or_else(refused)?;
    let name_ok = !name.is_empty()
        && name.len() <= 128
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !name_ok || !PICTURE_EXTENSIONS.contains(&extension) {
        return Err(refused());
    }
    Ok(url.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_picture(url: &str) -> Result<ProfileFields, Error> {
        ProfileFields::parse(RawProfileFields {
            profile_picture_url: Some(url),
            ..Default::default()
        })
    }

    #[test]
    fn empty_fields_become_none() {
        let fields = ProfileFields::parse(RawProfileFields {
            age: None,
            grade: Some(""),
            sport: Some("   "),
            skill_level: Some(""),
            profile_picture_url: Some(""),
        })
        .unwrap();
        assert_eq!(fields, ProfileFields::default());
    }

    #[test]
    fn filled_fields_are_trimmed_and_kept() {
        let fields = ProfileFields::parse(RawProfileFields {
            age: Some(16),
            grade: Some(" 11th "),
            sport: Some("Volleyball 🏐"),
            skill_level: Some("Intermediate"),
            profile_picture_url: Some("/uploads/a1b2-c3_d4.webp"),
        })
        .unwrap();
        assert_eq!(fields.age, Some(16));
        assert_eq!(fields.grade.as_deref(), Some("11th"));
        assert_eq!(fields.sport.as_deref(), Some("Volleyball 🏐"));
        assert_eq!(fields.skill_level, Some(SkillLevel::Intermediate));
        assert_eq!(
            fields.profile_picture_url.as_deref(),
            Some("/uploads/a1b2-c3_d4.webp")
        );
    }

    #[test]
    fn ages_outside_one_to_one_hundred_twenty_are_refused() {
        for age in [0, -1, 121, i32::MAX] {
            let raw = RawProfileFields {
                age: Some(age),
                ..Default::default()
            };
            assert!(ProfileFields::parse(raw).is_err(), "{age}");
        }
        for age in [1, 120] {
            let raw = RawProfileFields {
                age: Some(age),
                ..Default::default()
            };
            assert!(ProfileFields::parse(raw).is_ok(), "{age}");
        }
    }

    #[test]
    fn unknown_skill_levels_are_refused() {
        let raw = RawProfileFields {
            skill_level: Some("expert"),
            ..Default::default()
        };
        assert!(ProfileFields::parse(raw).is_err());
    }

    #[test]
    fn long_or_multi_line_texts_are_refused() {
        let long = "x".repeat(51);
        for (grade, sport) in [(Some(long.as_str()), None), (None, Some("a\nb"))] {
            let raw = RawProfileFields {
                grade,
                sport,
                ..Default::default()
            };
            assert!(ProfileFields::parse(raw).is_err());
        }
    }

    #[test]
    fn only_uploaded_picture_paths_are_accepted() {
        for bad in [
            "https://evil.example/x.png",
            "//evil.example/x.png",
            "/uploads/../etc/passwd.png",
            "/uploads/x.svg",
            "/uploads/x.html",
            "/uploads/.png",
            "/uploads/a/b.png",
            "/uploads/x.png?y=1",
            "/uploads/x y.png",
            "javascript:alert(1)",
        ] {
            assert!(with_picture(bad).is_err(), "{bad}");
        }
        assert!(with_picture("/uploads/3f2a9c.jpeg").is_ok());
    }
}
