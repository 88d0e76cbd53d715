//! Request bodies checked against their own schema in the OpenAPI document before the handler
//! runs. The DTO types and their `#[schema(...)]` attributes are the one statement of the rules:
//! they make the document, and this module enforces the document, so the two cannot drift apart.
//!
//! It knows the JSON Schema keywords the gateway's request schemas use (see [`KEYWORDS`]); a test
//! fails when a request schema uses any other, so no declared rule goes unchecked. A refused body
//! is a 400 whose detail names the field and the rule, e.g. "hourly_rate must be at most 10000".

use std::{
    collections::{BTreeSet, HashMap},
    sync::Arc,
};

use axum::{
    body::Body,
    extract::{Request, State},
    http::{Method, StatusCode},
    middleware::Next,
    response::Response,
};
use regex::Regex;
use serde_json::{Map, Value};

use crate::error::ApiError;

/// The keywords [`BodyCheck`] enforces, and the annotations it may ignore.
#[cfg(test)]
const KEYWORDS: &[&str] = &[
    "$ref",
    "oneOf",
    "anyOf",
    "allOf",
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "if",
    "then",
    "else",
    // Rules across fields JSON Schema cannot state (see [`AFTER`], [`NOT_BEFORE`]); refused
    // with 422.
    AFTER,
    NOT_BEFORE,
    // Annotations: they state no rule.
    "description",
    "title",
    "example",
    "examples",
    "default",
    "deprecated",
    "contentMediaType",
];

/// The patterns request schemas use, each with what a refusal says a value must do. A pattern
/// missing here is refused as "must match <pattern>" (and fails a test).
pub const PATTERNS: &[(&str, &str)] = &[
    (TIME, "be a time as HH:MM (24-hour), e.g. 09:30"),
    (MONTH, "be a month as YYYY-MM, e.g. 2026-11"),
    (NOT_BLANK, "not be blank"),
    (LINE, "be one line without control characters"),
    (
        LINE_NOT_BLANK,
        "not be blank, and be one line without control characters",
    ),
    (
        TEXT,
        "not contain control characters other than tabs and line breaks",
    ),
    (NO_NUL, "not contain NUL characters"),
    (EMAIL, "be an email address such as name@example.com"),
    (PHONE, "be a phone number: digits, spaces and + - ( ) ."),
    (PICTURE, "be an uploaded picture such as /uploads/<name>.png"),
    (
        CALENDAR_FILE,
        "be a calendar feed's file name: its secret, then .ics",
    ),
    (
        IDEMPOTENCY_KEY,
        "be 1 to 255 visible ASCII characters (no quote or backslash), such as a UUID",
    ),
    (
        DIRECTORY_SORT,
        "be one of rating, price, price_desc, experience or name",
    ),
    (
        NEARBY_SORT,
        "be one of distance, rating, price, price_desc, experience or name",
    ),
];
/// An `Idempotency-Key` header ([`crate::idempotency`]): visible ASCII but `"` and `\`, bare or
/// as a structured-field string.
pub const IDEMPOTENCY_KEY: &str = "^\"?[!#-\\[\\]-~]+\"?$";
/// `HH:MM`, 24-hour. (`#[schema(pattern = ...)]` takes a literal: the same text is written there.)
pub const TIME: &str = "^([01][0-9]|2[0-3]):[0-5][0-9]$";
/// `YYYY-MM`: a month (the coach's earnings).
pub const MONTH: &str = "^[0-9]{4}-(0[1-9]|1[0-2])$";
/// Some character that is not a space.
pub const NOT_BLANK: &str = "\\S";
/// One line: no control character (Unicode Cc: U+0000–U+001F, U+007F–U+009F). What every text
/// field of a request body is unless its schema says otherwise ([`crate::openapi`] writes it into
/// the document, see `text_rules`): the services refuse control characters in single-line fields,
/// and PostgreSQL cannot store NUL at all.
pub const LINE: &str = "^[^\\x00-\\x1f\\x7f-\\x9f]*$";
/// One line, and some character that is not a space: [`LINE`] and [`NOT_BLANK`] together.
pub const LINE_NOT_BLANK: &str =
    "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\s\\x00-\\x1f\\x7f-\\x9f][^\\x00-\\x1f\\x7f-\\x9f]*$";
/// Text that may span lines: tabs and line breaks allowed, other control characters not.
pub const TEXT: &str = "^[^\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f]*$";
/// Anything but NUL (a password: never stored as text, but no text may hold NUL).
pub const NO_NUL: &str = "^[^\\x00]*$";
/// One `@` with text on both sides and a dot inside the domain, no spaces.
pub const EMAIL: &str = "^[^@\\s\\x00-\\x1f\\x7f-\\x9f]+@[^@\\s.\\x00-\\x1f\\x7f-\\x9f][^@\\s\\x00-\\x1f\\x7f-\\x9f]*\\.[^@\\s\\x00-\\x1f\\x7f-\\x9f]*[^@\\s.\\x00-\\x1f\\x7f-\\x9f]$";
/// Blank (no phone), or digits with spaces and `+-().`, at least one digit.
pub const PHONE: &str = "^[^\\S\\x1c-\\x1f]*$|^[0-9 +().-]*[0-9][0-9 +().-]*$";

/// The coach directory's and the city search's order (`sort`, `routes::coaching::directory`), or
/// none. (`#[param(pattern = ...)]` takes a literal: the same text is written there.)
pub const DIRECTORY_SORT: &str = "^(rating|price|price_desc|experience|name)?$";
/// The nearby search's order: the directory's, or `distance` (`routes::coaching::search`).
pub const NEARBY_SORT: &str = "^(rating|price|price_desc|experience|name|distance)?$";

/// A calendar feed's file in its address (a path parameter, `routes::calendar`): the feed's
/// secret, 43 URL-safe characters, then `.ics`.
pub const CALENDAR_FILE: &str = "^[A-Za-z0-9_-]{43}\\.ics$";

/// A picture the gateway stored (`/uploads/<name>.<image type>`), or blank for none.
pub const PICTURE: &str = "^[^\\S\\x1c-\\x1f]*$|^/uploads/[A-Za-z0-9_-]{1,128}\\.(png|jpg|jpeg|webp|gif)$";

/// SPEC.md words two refusals of the account fields its own way (the rules are the schema's).
const REQUIRED_FIELDS: &str = "Email, password, and full name are required";
const SHORT_PASSWORD: &str = "Password must be at least 10 characters.";

fn spec_wording(detail: String) -> String {
    let account_field_missing = ["email", "password", "full_name"].iter().any(|field| {
        [" is required", " must not be empty", " must not be blank"]
            .iter()
            .any(|rule| detail == format!("{field}{rule}"))
    });
    if account_field_missing {
        REQUIRED_FIELDS.to_owned()
    } else if detail == "password must be at least 10 characters" {
        SHORT_PASSWORD.to_owned()
    } else {
        detail
    }
}

/// The formats [`BodyCheck`] checks (the numeric ones by their range).
#[cfg(test)]
const FORMATS: &[&str] = &["uuid", "date", "date-time", "int32", "int64", "double", "float"];

/// The schemas the operations' JSON request bodies must match, by method and path.
#[derive(Default)]
pub struct BodyChecks(HashMap<(Method, String), Arc<BodyCheck>>);

impl BodyChecks {
    /// One check per operation with a JSON request body in `document` (the whole OpenAPI document
    /// as JSON).
    pub fn new(document: &Value) -> Self {
        let components = Arc::new(
            document["components"]["schemas"]
                .as_object()
                .cloned()
                .unwrap_or_default(),
        );
        let patterns = Arc::new(patterns(document));
        let mut checks = HashMap::new();
        for (path, item) in document["paths"].as_object().into_iter().flatten() {
            for (method, operation) in item.as_object().into_iter().flatten() {
                let schema = &operation["requestBody"]["content"]["application/json"]["schema"];
                let Ok(method) = method.to_uppercase().parse::<Method>() else {
                    continue;
                };
                if !schema.is_null() {
                    let check = BodyCheck {
                        schema: schema.clone(),
                        components: Arc::clone(&components),
                        patterns: Arc::clone(&patterns),
                    };
                    checks.insert((method, path.clone()), Arc::new(check));
                }
            }
        }
        Self(checks)
    }

    /// The check of the operation at `method` `path`, if it takes a JSON body.
    pub fn get(&self, method: &Method, path: &str) -> Option<Arc<BodyCheck>> {
        self.0.get(&(method.clone(), path.to_owned())).cloned()
    }
}

/// Every `pattern` in the document, compiled once.
fn patterns(document: &Value) -> HashMap<String, Regex> {
    let mut found = BTreeSet::new();
    collect_patterns(document, &mut found);
    found
        .into_iter()
        .filter_map(|p| Regex::new(&p).ok().map(|regex| (p, regex)))
        .collect()
}

fn collect_patterns(value: &Value, found: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(pattern)) = map.get("pattern") {
                found.insert(pattern.clone());
            }
            map.values().for_each(|v| collect_patterns(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_patterns(v, found)),
        _ => {}
    }
}

/// The keyword of a rule across fields that JSON Schema cannot state: on an object,
/// `"x-after": {"end_time": "start_time"}` says that `end_time`, when both are given, comes after
/// `start_time` (times as `HH:MM` or dates as `YYYY-MM-DD`, compared as written). A body that
/// keeps every rule of its schema but breaks this one is refused with 422 Unprocessable Content,
/// and the operations whose body has such a rule document that 422 ([`crate::openapi`]).
pub const AFTER: &str = "x-after";

/// As [`AFTER`], but the later field may equal the earlier one: `"x-not-before": {"end_date":
/// "start_date"}` says a range's last date is not before its first (a one-day range has both the
/// same). Refused and documented as [`AFTER`] is.
pub const NOT_BEFORE: &str = "x-not-before";

/// One operation's request body schema, with the components it refers to.
pub struct BodyCheck {
    schema: Value,
    components: Arc<Map<String, Value>>,
    patterns: Arc<HashMap<String, Regex>>,
}

impl BodyCheck {
    /// The first rule `body` breaks, as a sentence naming the field.
    pub fn check(&self, body: &Value) -> Result<(), String> {
        let refusal = self.matches(&self.schema, body, "");
        // SPEC.md's sentences are those of the account forms (register, create a user).
        let account_form = self.object_schemas(&self.schema).iter().any(|schema| {
            schema
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| p.contains_key("full_name"))
        });
        if account_form {
            refusal.map_err(spec_wording)
        } else {
            refusal
        }
    }

    /// The first rule across fields ([`AFTER`], [`NOT_BEFORE`]) that `body`, which
    /// [`check`](Self::check) passed, breaks.
    pub fn check_across(&self, body: &Value) -> Result<(), String> {
        for schema in self.object_schemas(&self.schema) {
            if let Some(not_before) = schema.get(NOT_BEFORE).and_then(Value::as_object) {
                for (later, earlier) in not_before {
                    let Some(earlier) = earlier.as_str() else {
                        continue;
                    };
                    if let (Some(Value::String(l)), Some(Value::String(e))) =
                        (body.get(later), body.get(earlier))
                        && l < e
                    {
                        return Err(format!("{later} must not be before {earlier}"));
                    }
                }
            }
            let Some(after) = schema.get(AFTER).and_then(Value::as_object) else {
                continue;
            };
            for (later, earlier) in after {
                let Some(earlier) = earlier.as_str() else {
                    continue;
                };
                if let (Some(Value::String(l)), Some(Value::String(e))) = (body.get(later), body.get(earlier))
                    && l <= e
                {
                    return Err(format!("{later} must be after {earlier}"));
                }
            }
        }
        Ok(())
    }

    /// What the handler reads of a `body` that [`check`](Self::check) passed: fields the schema
    /// does not name are left out (as the handler would ignore them, so nothing in them, such as
    /// a NUL the text check refuses, can matter), and whole numbers written with a zero fraction
    /// (`52.0`) are written as integers, which JSON and JSON Schema's `integer` take them for.
    /// `None` when the body is already what the handler reads.
    pub fn prepare(&self, body: &Value) -> Option<Value> {
        let schemas = self.object_schemas(&self.schema);
        let known: BTreeSet<&str> = schemas
            .iter()
            .filter_map(|schema| schema.get("properties").and_then(Value::as_object))
            .flat_map(|properties| properties.keys().map(String::as_str))
            .collect();
        let mut prepared = body.clone();
        let mut changed = false;
        if let Value::Object(object) = &mut prepared
            && !known.is_empty()
        {
            let before = object.len();
            object.retain(|name, _| known.contains(name.as_str()));
            changed |= object.len() != before;
        }
        changed |= whole_numbers_as_integers(&mut prepared);
        changed.then_some(prepared)
    }

    /// The object schemas that apply to a body at the top: the schema, what its `$ref`s name, its
    /// `allOf` branches and the branches of a `oneOf`/`anyOf` (an optional body is `null` or its
    /// object).
    fn object_schemas<'a>(&'a self, schema: &'a Value) -> Vec<&'a Map<String, Value>> {
        let Some(object) = schema.as_object() else {
            return Vec::new();
        };
        let mut found = vec![object];
        if let Some(target) = object
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/components/schemas/"))
            .and_then(|name| self.components.get(name))
        {
            found.extend(self.object_schemas(target));
        }
        for keyword in ["allOf", "oneOf", "anyOf"] {
            for branch in object
                .get(keyword)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                found.extend(self.object_schemas(branch));
            }
        }
        found
    }

    fn matches(&self, schema: &Value, value: &Value, field: &str) -> Result<(), String> {
        let Some(schema) = schema.as_object() else {
            return Ok(());
        };
        if let Some(name) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/components/schemas/"))
        {
            let target = self
                .components
                .get(name)
                .ok_or_else(|| format!("{} cannot be checked", named(field)))?;
            self.matches(target, value, field)?;
        }
        if let Some(branches) = schema.get("allOf").and_then(Value::as_array) {
            for branch in branches {
                self.matches(branch, value, field)?;
            }
        }
        if let Some(condition) = schema.get("if") {
            let branch = if self.matches(condition, value, field).is_ok() {
                schema.get("then")
            } else {
                schema.get("else")
            };
            if let Some(branch) = branch {
                self.matches(branch, value, field)?;
            }
        }
        for (keyword, exactly_one) in [("oneOf", true), ("anyOf", false)] {
            if let Some(branches) = schema.get(keyword).and_then(Value::as_array) {
                self.one_of(branches, value, field, exactly_one)?;
            }
        }
        if let Some(types) = schema.get("type") {
            let types: Vec<&str> = match types {
                Value::String(t) => vec![t.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if !types.iter().any(|t| is_type(value, t)) {
                return Err(format!("{} must be {}", named(field), kinds(&types)));
            }
        }
        if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
            && !allowed.contains(value)
        {
            // A long list (the time zones) is for the document, not for a sentence.
            if allowed.len() > 20 {
                return Err(format!(
                    "{} must be one of the {} values the API document lists for it; {value} is not one",
                    named(field),
                    allowed.len()
                ));
            }
            return Err(format!("{} must be {}", named(field), choices(allowed)));
        }
        if let Some(constant) = schema.get("const")
            && constant != value
        {
            return Err(format!("{} must be {constant}", named(field)));
        }
        match value {
            Value::String(text) => self.text(schema, text, field),
            Value::Number(_) => number(schema, value, field),
            Value::Array(items) => self.list(schema, items, field),
            Value::Object(object) => self.object(schema, object, field),
            _ => Ok(()),
        }
    }

    /// `oneOf` (exactly one branch) or `anyOf` (at least one); when none matches, the refusal of
    /// the first branch that is not merely `null` explains best.
    fn one_of(
        &self,
        branches: &[Value],
        value: &Value,
        field: &str,
        exactly_one: bool,
    ) -> Result<(), String> {
        let outcomes: Vec<Result<(), String>> = branches
            .iter()
            .map(|branch| self.matches(branch, value, field))
            .collect();
        let matched = outcomes.iter().filter(|o| o.is_ok()).count();
        if matched == 1 || (matched > 1 && !exactly_one) {
            return Ok(());
        }
        if matched > 1 {
            return Err(format!("{} is ambiguous", named(field)));
        }
        let explains = branches
            .iter()
            .zip(outcomes)
            .filter(|(branch, _)| branch.get("type") != Some(&Value::from("null")))
            .find_map(|(_, outcome)| outcome.err());
        Err(explains.unwrap_or_else(|| format!("{} must be null", named(field))))
    }

    fn text(&self, schema: &Map<String, Value>, text: &str, field: &str) -> Result<(), String> {
        let chars = text.chars().count() as u64;
        let pattern = schema.get("pattern").and_then(Value::as_str);
        let empty_refused = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0) > 0
            || pattern
                .and_then(|p| self.patterns.get(p))
                .is_some_and(|regex| !regex.is_match(""));
        if text.is_empty() && empty_refused {
            return Err(format!("{} must not be empty", named(field)));
        }
        if let Some(min) = schema.get("minLength").and_then(Value::as_u64)
            && chars < min
        {
            return Err(format!("{} must be at least {min} characters", named(field)));
        }
        if let Some(max) = schema.get("maxLength").and_then(Value::as_u64)
            && chars > max
        {
            return Err(format!("{} must be at most {max} characters", named(field)));
        }
        if let Some(pattern) = pattern {
            let regex = self
                .patterns
                .get(pattern)
                .ok_or_else(|| format!("{} cannot be checked", named(field)))?;
            if !regex.is_match(text) {
                let what = PATTERNS
                    .iter()
                    .find(|(known, _)| *known == pattern)
                    .map_or_else(|| format!("match {pattern}"), |(_, what)| (*what).to_owned());
                return Err(format!("{} must {what}", named(field)));
            }
        }
        match schema.get("format").and_then(Value::as_str) {
            Some("uuid") if !is_uuid(text) => Err(format!("{} must be a UUID", named(field))),
            Some("date") if !is_date(text) => Err(format!("{} must be a date as YYYY-MM-DD", named(field))),
            Some("date-time") if chrono::DateTime::parse_from_rfc3339(text).is_err() => {
                Err(format!("{} must be a date and time as RFC 3339", named(field)))
            }
            _ => Ok(()),
        }
    }

    fn list(&self, schema: &Map<String, Value>, items: &[Value], field: &str) -> Result<(), String> {
        let count = items.len() as u64;
        if let Some(min) = schema.get("minItems").and_then(Value::as_u64)
            && count < min
        {
            return Err(format!("{} must have at least {min} items", named(field)));
        }
        if let Some(max) = schema.get("maxItems").and_then(Value::as_u64)
            && count > max
        {
            return Err(format!("{} must have at most {max} items", named(field)));
        }
        if let Some(item) = schema.get("items") {
            for (index, value) in items.iter().enumerate() {
                self.matches(item, value, &format!("{field}[{index}]"))?;
            }
        }
        Ok(())
    }

    fn object(
        &self,
        schema: &Map<String, Value>,
        object: &Map<String, Value>,
        field: &str,
    ) -> Result<(), String> {
        let inner = |name: &str| {
            if field.is_empty() {
                name.to_owned()
            } else {
                format!("{field}.{name}")
            }
        };
        for name in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if !object.contains_key(name) {
                return Err(format!("{} is required", inner(name)));
            }
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        for (name, value) in object {
            match properties.and_then(|p| p.get(name)) {
                Some(property) => self.matches(property, value, &inner(name))?,
                None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    return Err(format!("{} is not a field of this body", inner(name)));
                }
                None => {}
            }
        }
        Ok(())
    }
}

/// How a detail names the field: the body itself when at the top.
fn named(field: &str) -> String {
    if field.is_empty() {
        "The body".to_owned()
    } else {
        field.to_owned()
    }
}

fn is_type(value: &Value, kind: &str) -> bool {
    match kind {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|n| n.fract() == 0.0),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => false,
    }
}

fn kinds(types: &[&str]) -> String {
    let names: Vec<&str> = types
        .iter()
        .map(|t| match *t {
            "null" => "null",
            "boolean" => "true or false",
            "string" => "text",
            "number" => "a number",
            "integer" => "a whole number",
            "array" => "a list",
            "object" => "an object",
            other => other,
        })
        .collect();
    names.join(" or ")
}

fn choices(allowed: &[Value]) -> String {
    let names: Vec<String> = allowed
        .iter()
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("one of {} or {last}", rest.join(", ")),
        Some((only, _)) => only.clone(),
        None => "nothing".to_owned(),
    }
}

fn number(schema: &Map<String, Value>, value: &Value, field: &str) -> Result<(), String> {
    let Some(n) = value.as_f64() else {
        return Ok(());
    };
    let bound = |keyword: &str| schema.get(keyword).and_then(Value::as_f64);
    if let Some(min) = bound("minimum")
        && n < min
    {
        return Err(format!("{} must be at least {min}", named(field)));
    }
    if let Some(max) = bound("maximum")
        && n > max
    {
        return Err(format!("{} must be at most {max}", named(field)));
    }
    if let Some(min) = bound("exclusiveMinimum")
        && n <= min
    {
        return Err(format!("{} must be more than {min}", named(field)));
    }
    if let Some(max) = bound("exclusiveMaximum")
        && n >= max
    {
        return Err(format!("{} must be less than {max}", named(field)));
    }
    // A whole number may be written with a fraction of zero (52.0): JSON does not tell them
    // apart, and neither does JSON Schema's `integer`.
    let fits = match schema.get("format").and_then(Value::as_str) {
        Some("int32") => n.fract() == 0.0 && (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&n),
        Some("int64") => {
            n.fract() == 0.0 && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&n)
        }
        _ => true,
    };
    if fits {
        Ok(())
    } else {
        Err(format!("{} is too large", named(field)))
    }
}

/// Writes every whole number with a zero fraction (`52.0`) as an integer; whether any was.
fn whole_numbers_as_integers(value: &mut Value) -> bool {
    match value {
        Value::Number(n) if !n.is_i64() && !n.is_u64() => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => {
                *value = Value::from(f as i64);
                true
            }
            _ => false,
        },
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |changed, item| whole_numbers_as_integers(item) | changed),
        Value::Object(object) => object
            .values_mut()
            .fold(false, |changed, item| whole_numbers_as_integers(item) | changed),
        _ => false,
    }
}

/// Whether a JSON text names a field twice in one object (the handler's extractor refuses that;
/// a body rewritten by [`BodyCheck::prepare`] must not lose the second name unseen).
fn has_duplicate_field(bytes: &[u8]) -> bool {
    struct Unique;

    impl<'de> serde::Deserialize<'de> for Unique {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            deserializer.deserialize_any(Unique)
        }
    }

    impl<'de> serde::de::Visitor<'de> for Unique {
        type Value = Unique;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("JSON")
        }

        fn visit_bool<E>(self, _: bool) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_str<E>(self, _: &str) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_unit<E>(self) -> Result<Unique, E> {
            Ok(Unique)
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Unique, A::Error> {
            while seq.next_element::<Unique>()?.is_some() {}
            Ok(Unique)
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Unique, A::Error> {
            let mut names = std::collections::HashSet::new();
            while let Some(name) = map.next_key::<String>()? {
                if !names.insert(name) {
                    return Err(serde::de::Error::custom("a field is named twice"));
                }
                map.next_value::<Unique>()?;
            }
            Ok(Unique)
        }
    }

    serde_json::from_slice::<Unique>(bytes).is_err()
}

/// A UUID in its hyphenated form (RFC 9562).
fn is_uuid(text: &str) -> bool {
    text.len() == 36 && uuid::Uuid::try_parse(text).is_ok()
}

fn is_date(text: &str) -> bool {
    text.len() == 10 && chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").is_ok()
}

/// Refuses a JSON body that breaks its operation's schema with a 400 naming the field. Anything
/// that is not a JSON object is left to the handler's extractor, which answers as before (415 for
/// another media type, 400 for malformed JSON, 413 for a body over the limit).
pub async fn check_body(
    State(check): State<Arc<BodyCheck>>,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    if !crate::extract::is_json(request.headers()) {
        return Ok(next.run(request).await);
    }
    let (parts, body) = request.into_parts();
    let mut bytes = axum::body::to_bytes(body, crate::BODY_LIMIT)
        .await
        .map_err(|_| ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "The request body is too large."))?;
    if let Ok(value @ Value::Object(_)) = serde_json::from_slice::<Value>(&bytes) {
        check.check(&value).map_err(ApiError::bad_request)?;
        check
            .check_across(&value)
            .map_err(|detail| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, detail))?;
        // A body naming a field twice goes on as sent, for the handler to refuse.
        if let Some(prepared) = check.prepare(&value)
            && !has_duplicate_field(&bytes)
        {
            bytes = serde_json::to_vec(&prepared).map_err(ApiError::internal)?.into();
        }
    }
    Ok(next.run(Request::from_parts(parts, Body::from(bytes))).await)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn check(schema: Value, components: Value) -> BodyCheck {
        let document = json!({"components": {"schemas": components}, "schema": schema});
        BodyCheck {
            schema,
            components: Arc::new(components.as_object().cloned().unwrap_or_default()),
            patterns: Arc::new(patterns(&document)),
        }
    }

    fn slot() -> BodyCheck {
        check(
            json!({"$ref": "#/components/schemas/SlotBody"}),
            json!({
                "SlotType": {"type": "string", "enum": ["recurring", "one-time"]},
                "SlotBody": {
                    "type": "object",
                    "required": ["slot_type", "start_time"],
                    "properties": {
                        "slot_type": {"$ref": "#/components/schemas/SlotType"},
                        "start_time": {"type": "string", "pattern": TIME},
                        "location_id": {"oneOf": [{"type": "null"}, {"type": "string", "format": "uuid"}]},
                        "hourly_rate": {"type": "number", "minimum": 0, "maximum": 10000},
                        "specialties": {"type": "array", "items": {"type": "string", "maxLength": 3}}
                    }
                }
            }),
        )
    }

    #[test]
    fn a_body_that_keeps_every_rule_passes() {
        let body = json!({"slot_type": "one-time", "start_time": "09:30", "location_id": null,
                          "hourly_rate": 10000, "specialties": ["abc"]});
        assert_eq!(slot().check(&body), Ok(()));
    }

    #[test]
    fn a_value_outside_a_long_list_is_named_without_reciting_the_list() {
        let zones: Vec<String> = (0..30).map(|n| format!("Zone/{n}")).collect();
        let body = check(
            json!({"type": "object", "properties": {"time_zone": {"type": "string", "enum": zones}}}),
            json!({}),
        );
        assert_eq!(body.check(&json!({"time_zone": "Zone/7"})), Ok(()));
        assert_eq!(
            body.check(&json!({"time_zone": "Central Time"})),
            Err("time_zone must be one of the 30 values the API document lists for it; \"Central Time\" is not one"
                .to_owned())
        );
    }

    #[test]
    fn each_broken_rule_is_named_with_its_field() {
        let refusals = [
            (json!({"start_time": "09:30"}), "slot_type is required"),
            (
                json!({"slot_type": "weekly", "start_time": "09:30"}),
                "slot_type must be one of recurring or one-time",
            ),
            (
                json!({"slot_type": "recurring", "start_time": "9am"}),
                "start_time must be a time as HH:MM (24-hour), e.g. 09:30",
            ),
            (
                json!({"slot_type": "recurring", "start_time": "09:30", "location_id": ""}),
                "location_id must be a UUID",
            ),
            (
                json!({"slot_type": "recurring", "start_time": ""}),
                "start_time must not be empty",
            ),
            (
                json!({"slot_type": "recurring", "start_time": "09:30", "hourly_rate": 10001}),
                "hourly_rate must be at most 10000",
            ),
            (
                json!({"slot_type": "recurring", "start_time": "09:30", "hourly_rate": "5"}),
                "hourly_rate must be a number",
            ),
            (
                json!({"slot_type": "recurring", "start_time": "09:30", "specialties": ["abcd"]}),
                "specialties[0] must be at most 3 characters",
            ),
        ];
        for (body, detail) in refusals {
            assert_eq!(slot().check(&body), Err(detail.to_owned()), "{body}");
        }
    }

    /// Every keyword, format and pattern of a request schema in the document.
    fn used(value: &Value, keywords: &mut BTreeSet<String>, formats: &mut BTreeSet<String>) {
        match value {
            Value::Object(map) => {
                for (key, inner) in map {
                    keywords.insert(key.clone());
                    if key == "format"
                        && let Some(format) = inner.as_str()
                    {
                        formats.insert(format.to_owned());
                    }
                    match key.as_str() {
                        "properties" => inner
                            .as_object()
                            .into_iter()
                            .flat_map(|p| p.values())
                            .for_each(|p| used(p, keywords, formats)),
                        // Values, not schemas.
                        "example" | "examples" | "default" | "enum" | "const" | "required" | AFTER
                        | NOT_BEFORE => {}
                        _ => used(inner, keywords, formats),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|v| used(v, keywords, formats)),
            _ => {}
        }
    }

    #[test]
    fn every_rule_a_request_schema_declares_is_one_the_check_enforces() {
        let document = serde_json::to_value(crate::routes::document()).unwrap();
        let mut keywords = BTreeSet::new();
        let mut formats = BTreeSet::new();
        let mut bodies = BTreeSet::new();
        for item in document["paths"].as_object().unwrap().values() {
            for operation in item.as_object().unwrap().values() {
                let schema = &operation["requestBody"]["content"]["application/json"]["schema"];
                if let Some(name) = schema["$ref"].as_str() {
                    bodies.insert(name.trim_start_matches("#/components/schemas/").to_owned());
                }
            }
        }
        let components = document["components"]["schemas"].as_object().unwrap();
        let mut pending: Vec<String> = bodies.into_iter().collect();
        let mut seen = BTreeSet::new();
        while let Some(name) = pending.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            let schema = components
                .get(&name)
                .unwrap_or_else(|| panic!("{name} is not a component"));
            used(schema, &mut keywords, &mut formats);
            let text = schema.to_string();
            for reference in text.split("#/components/schemas/").skip(1) {
                pending.push(reference.split('"').next().unwrap().to_owned());
            }
        }
        let unknown: Vec<_> = keywords
            .iter()
            .filter(|k| !KEYWORDS.contains(&k.as_str()))
            .collect();
        assert!(
            unknown.is_empty(),
            "request schemas use unchecked keywords {unknown:?}"
        );
        let unknown: Vec<_> = formats
            .iter()
            .filter(|f| !FORMATS.contains(&f.as_str()))
            .collect();
        assert!(
            unknown.is_empty(),
            "request schemas use unchecked formats {unknown:?}"
        );
        let mut found = BTreeSet::new();
        collect_patterns(&document, &mut found);
        for pattern in found {
            assert!(
                PATTERNS.iter().any(|(known, _)| *known == pattern),
                "{pattern} has no sentence in PATTERNS"
            );
            assert!(Regex::new(&pattern).is_ok(), "{pattern} does not compile");
        }
    }
}
