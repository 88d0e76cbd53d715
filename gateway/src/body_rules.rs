//! The rules of request bodies that no one field's `#[schema(...)]` can state, declared here once
//! and written into the document by [`crate::openapi::finish`]; [`crate::body_check`] enforces
//! the document, so these rules are checked exactly as they read.
//!
//! - **Text** ([`text_rule`]): every text field of a request body is one line without control
//!   characters ([`LINE`]; with "not blank", [`LINE_NOT_BLANK`]) unless its schema gives a pattern
//!   of its own (multi-line text says [`TEXT`](crate::body_check::TEXT), a password
//!   [`NO_NUL`](crate::body_check::NO_NUL)). The services refuse control characters in single-line
//!   fields, and PostgreSQL cannot store NUL.
//! - **Across fields** ([`across_fields`]): one field required by another's value (`if`/`then`),
//!   two given together or not at all, and an end after its start ([`AFTER`]; a last date not
//!   before the first, [`NOT_BEFORE`]), which JSON Schema
//!   cannot state: a body breaking only that is a 422, documented on its operations).

use serde_json::{Value, json};

use crate::body_check::{AFTER, LINE, LINE_NOT_BLANK, NOT_BEFORE, NOT_BLANK};

/// The pattern a text field of a request body gets when its schema gives `pattern`: `None`
/// keeps it. (A field with a `format` or an `enum` is not free text and is left as it is.)
pub fn text_rule(pattern: Option<&str>) -> Option<&'static str> {
    match pattern {
        None => Some(LINE),
        Some(NOT_BLANK) => Some(LINE_NOT_BLANK),
        Some(_) => None,
    }
}

/// The JSON Schema keywords added to request body schemas, by component name.
pub fn across_fields() -> Vec<(&'static str, Value)> {
    vec![
        (
            "SlotBody",
            json!({
                "allOf": [
                    when("slot_type", "recurring", "day_of_week", json!({"$ref": "#/components/schemas/DayOfWeek"})),
                    when("slot_type", "one-time", "specific_date", json!({"type": "string", "format": "date"})),
                ],
                AFTER: {"end_time": "start_time"},
            }),
        ),
        (
            "CourtAvailabilityBody",
            json!({AFTER: {"end_time": "start_time"}}),
        ),
        // A range of dates: one day has the same first and last date.
        ("TimeOffBody", json!({NOT_BEFORE: {"end_date": "start_date"}})),
        ("ClosureBody", json!({NOT_BEFORE: {"end_date": "start_date"}})),
        ("LocationBody", both_or_neither("latitude", "longitude")),
        ("GymLocationBody", both_or_neither("latitude", "longitude")),
    ]
}

/// When `field` is `value`, `needed` is required and must match `schema` (not blank, not null).
fn when(field: &str, value: &str, needed: &str, schema: Value) -> Value {
    json!({"if": given(field, json!({"const": value})), "then": given(needed, schema)})
}

/// Two numbers given together or not at all (null counts as not given).
fn both_or_neither(a: &str, b: &str) -> Value {
    let number = || json!({"type": "number"});
    json!({
        "allOf": [
            {"if": given(a, number()), "then": given(b, number())},
            {"if": given(b, number()), "then": given(a, number())},
        ],
    })
}

/// `field` is present and matches `schema`. (Its `properties` sit in an `allOf` branch: the same
/// in JSON Schema, and read so by linters that take a subschema naming `properties` to allow no
/// others, as Redocly's example check does.)
fn given(field: &str, schema: Value) -> Value {
    json!({"required": [field], "allOf": [{"properties": {field: schema}}]})
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::body_check::BodyChecks;

    fn document() -> Value {
        serde_json::to_value(crate::routes::document()).expect("the document serialises")
    }

    /// The field names a rule mentions: in `required`, as `properties` and in [`AFTER`].
    fn fields(rules: &Value, found: &mut Vec<String>) {
        match rules {
            Value::Object(map) => {
                for (key, value) in map {
                    match key.as_str() {
                        "required" => found.extend(
                            value
                                .as_array()
                                .into_iter()
                                .flatten()
                                .filter_map(|f| f.as_str().map(str::to_owned)),
                        ),
                        "properties" => {
                            found.extend(value.as_object().into_iter().flatten().map(|(f, _)| f.clone()))
                        }
                        AFTER | NOT_BEFORE => {
                            found.extend(
                                value.as_object().into_iter().flatten().flat_map(|(l, e)| {
                                    [l.clone(), e.as_str().unwrap_or_default().to_owned()]
                                }),
                            )
                        }
                        _ => {}
                    }
                    fields(value, found);
                }
            }
            Value::Array(items) => items.iter().for_each(|item| fields(item, found)),
            _ => {}
        }
    }

    #[test]
    fn every_rule_names_a_request_body_and_its_fields() {
        let document = document();
        for (name, rules) in across_fields() {
            let schema = &document["components"]["schemas"][name];
            assert!(schema.is_object(), "{name} is not a component");
            let properties = schema["properties"].as_object().expect("properties");
            let mut named = Vec::new();
            fields(&rules, &mut named);
            assert!(!named.is_empty(), "{name}'s rules name no field");
            for field in named {
                assert!(properties.contains_key(&field), "{name} has no field {field}");
            }
            for (keyword, value) in rules.as_object().expect("keywords") {
                assert_eq!(&schema[keyword], value, "{name}.{keyword} is in the document");
            }
        }
    }

    fn check(method: &str, path: &str, body: Value) -> (Result<(), String>, Result<(), String>) {
        let checks = BodyChecks::new(&document());
        let check = checks
            .get(&method.parse().unwrap(), path)
            .expect("the operation takes a body");
        let shape = check.check(&body);
        let across = if shape.is_ok() {
            check.check_across(&body)
        } else {
            Ok(())
        };
        (shape, across)
    }

    #[test]
    fn a_slot_needs_the_day_or_the_date_its_type_names_and_an_end_after_its_start() {
        let recurring = json!({"slot_type": "recurring", "start_time": "09:00", "end_time": "10:00"});
        assert_eq!(
            check("POST", "/availability", recurring).0,
            Err("day_of_week is required".to_owned())
        );
        let blank_date = json!({"slot_type": "one-time", "specific_date": "", "day_of_week": "Monday",
                                "start_time": "09:00", "end_time": "10:00"});
        assert_eq!(
            check("POST", "/availability", blank_date).0,
            Err("specific_date must be a date as YYYY-MM-DD".to_owned())
        );
        let one_time = json!({"slot_type": "one-time", "specific_date": "2030-06-03",
                              "start_time": "09:00", "end_time": "10:00"});
        assert_eq!(check("POST", "/availability", one_time), (Ok(()), Ok(())));
        let backwards = json!({"slot_type": "recurring", "day_of_week": "Monday",
                               "start_time": "10:00", "end_time": "10:00"});
        assert_eq!(
            check("POST", "/availability", backwards),
            (Ok(()), Err("end_time must be after start_time".to_owned()))
        );
    }

    #[test]
    fn coordinates_come_both_or_neither() {
        let base = json!({"name": "Gym", "city": "Austin", "state": "TX"});
        let mut only_latitude = base.clone();
        only_latitude["latitude"] = json!(30.2);
        only_latitude["longitude"] = Value::Null;
        assert_eq!(
            check("POST", "/locations", only_latitude).0,
            Err("longitude must be a number".to_owned())
        );
        let mut both = base.clone();
        both["latitude"] = json!(30.2);
        both["longitude"] = json!(-97.7);
        assert_eq!(check("POST", "/locations", both).0, Ok(()));
        assert_eq!(check("POST", "/locations", base).0, Ok(()));
    }

    #[test]
    fn text_is_one_line_without_control_characters_unless_its_schema_says_otherwise() {
        let base = json!({"name": "Gym", "city": "Austin", "state": "TX"});
        let mut bell = base.clone();
        bell["address"] = json!("12 Main St\u{7}");
        assert_eq!(
            check("POST", "/locations", bell).0,
            Err("address must be one line without control characters".to_owned())
        );
        let mut nul = base.clone();
        nul["city"] = json!("Aus\u{0}tin");
        assert_eq!(
            check("POST", "/locations", nul).0,
            Err("city must not be blank, and be one line without control characters".to_owned())
        );
        let profile = json!({"bio": "Line one\n\tline two", "hourly_rate": 50, "years_experience": 3,
                             "specialties": ["shooting"]});
        assert_eq!(check("POST", "/coach/profile", profile).0, Ok(()));
        let tab = json!({"bio": "", "hourly_rate": 50, "years_experience": 3, "specialties": ["a\tb"]});
        assert_eq!(
            check("POST", "/coach/profile", tab).0,
            Err("specialties[0] must be one line without control characters".to_owned())
        );
    }
}
