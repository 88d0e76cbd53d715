//! The request side of the contract, driven by the live document: for every operation that takes
//! a JSON body, each missing required field and each enum, pattern, format, length or range
//! violation is a 400 whose detail names the field; and a body of only the required fields is
//! accepted wherever no record has to exist first.

use std::collections::BTreeMap;

use regex::Regex;
use reqwest::{Method, StatusCode};
use serde_json::{Map, Value, json};
use uuid::Uuid;

use crate::helpers::Mesh;

/// One operation with a JSON request body, as the document describes it.
struct BodyOperation {
    method: Method,
    path: String,
    /// A role `x-roles` admits (`anonymous`: no token).
    role: String,
    /// The body schema, its `$ref`s resolved one level.
    schema: Value,
    example: Value,
}

fn resolve<'a>(schema: &'a Value, components: &'a Map<String, Value>) -> &'a Value {
    schema["$ref"]
        .as_str()
        .and_then(|r| components.get(r.trim_start_matches("#/components/schemas/")))
        .unwrap_or(schema)
}

async fn body_operations(mesh: &Mesh) -> Vec<BodyOperation> {
    let (status, document) = mesh.get("/openapi.json", None).await;
    assert_eq!(status, StatusCode::OK);
    let components = document["components"]["schemas"]
        .as_object()
        .expect("components")
        .clone();
    let mut found = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("a path item") {
            let body = &operation["requestBody"]["content"]["application/json"]["schema"];
            if body.is_null() {
                continue;
            }
            // A body that may be left out is `null` or the object: the object's rules apply.
            let body = body["oneOf"]
                .as_array()
                .and_then(|branches| branches.iter().find(|b| b["type"] != "null"))
                .unwrap_or(body);
            let schema = resolve(body, &components).clone();
            let role = operation["x-roles"][0].as_str().expect("x-roles").to_owned();
            let path = path
                .split('/')
                .map(|part| {
                    if part.starts_with('{') {
                        Uuid::new_v4().to_string()
                    } else {
                        part.to_owned()
                    }
                })
                .collect::<Vec<_>>()
                .join("/");
            let example = schema.get("example").cloned().unwrap_or_else(|| json!({}));
            found.push(BodyOperation {
                method: method.to_uppercase().parse().expect("a method"),
                path,
                role,
                schema: resolve_properties(schema, &components),
                example,
            });
        }
    }
    assert!(
        found.len() >= 15,
        "every body is in the document: {}",
        found.len()
    );
    found
}

/// The schema with each property's `$ref`, and those inside its `oneOf`, resolved.
fn resolve_properties(mut schema: Value, components: &Map<String, Value>) -> Value {
    if let Some(properties) = schema["properties"].as_object_mut() {
        for property in properties.values_mut() {
            *property = resolve(property, components).clone();
            if let Some(branches) = property["oneOf"].as_array_mut() {
                for branch in branches.iter_mut() {
                    *branch = resolve(branch, components).clone();
                }
            }
        }
    }
    schema
}

/// Values a property's schema refuses, each with the rule it breaks.
fn refused_values(property: &Value) -> Vec<(Value, String)> {
    let branches: Vec<&Value> = match property["oneOf"].as_array() {
        Some(branches) => branches.iter().filter(|b| b["type"] != "null").collect(),
        None => vec![property],
    };
    let mut refused = Vec::new();
    for schema in branches {
        if let Some(allowed) = schema["enum"].as_array() {
            let _ = allowed;
            refused.push((json!("not-one-of-these"), "enum".to_owned()));
        }
        if let Some(pattern) = schema["pattern"].as_str() {
            let regex = Regex::new(pattern).expect("the pattern compiles");
            let candidates = [
                "   ",
                "10am",
                "nobody",
                "call me",
                "http://elsewhere.example/a.png",
            ];
            if let Some(bad) = candidates.iter().find(|c| !regex.is_match(c)) {
                refused.push((json!(bad), format!("pattern {pattern}")));
            }
            // Text is one line without control characters unless its schema says otherwise.
            for control in ["bell\u{7}", "nul\u{0}", "form\u{c}feed"] {
                if !regex.is_match(control) {
                    refused.push((json!(control), format!("pattern {pattern}")));
                }
            }
        }
        match schema["format"].as_str() {
            Some("uuid") => refused.push((json!("not-a-uuid"), "format uuid".to_owned())),
            Some("date") => refused.push((json!("2030-02-30"), "format date".to_owned())),
            _ => {}
        }
        if let Some(min) = schema["minimum"].as_f64() {
            refused.push((json!(min - 1.0), format!("minimum {min}")));
        }
        if let Some(max) = schema["maximum"].as_f64() {
            refused.push((json!(max + 1.0), format!("maximum {max}")));
        }
        if let Some(max) = schema["maxLength"].as_u64().filter(|m| *m > 0) {
            refused.push((json!("x".repeat(max as usize + 1)), format!("maxLength {max}")));
        }
        if let Some(min) = schema["minLength"].as_u64().filter(|m| *m > 0) {
            refused.push((json!(""), format!("minLength {min}")));
        }
    }
    refused
}

/// Whether a detail names `field` (SPEC.md's sentences name "full name" in words).
fn names(detail: &str, field: &str) -> bool {
    detail.to_lowercase().replace(' ', "_").contains(field)
}

async fn token_for(mesh: &Mesh, tokens: &mut BTreeMap<String, Option<String>>, role: &str) -> Option<String> {
    if let Some(token) = tokens.get(role) {
        return token.clone();
    }
    let token = match role {
        "anonymous" => None,
        "admin" => Some(mesh.admin().await),
        role => Some(mesh.register(role).await.0),
    };
    tokens.insert(role.to_owned(), token.clone());
    token
}

#[tokio::test]
async fn each_missing_required_field_and_each_broken_rule_of_every_body_is_a_400_naming_the_field() {
    let mesh = Mesh::start().await;
    let mut tokens = BTreeMap::new();
    for operation in body_operations(&mesh).await {
        let token = token_for(&mesh, &mut tokens, &operation.role).await;
        let at = format!("{} {}", operation.method, operation.path);
        let required: Vec<String> = operation.schema["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f.as_str().map(str::to_owned))
            .collect();
        let mut cases: Vec<(String, Value, String)> = Vec::new();
        for field in &required {
            let mut body = operation.example.clone();
            body.as_object_mut().expect("an object example").remove(field);
            cases.push((field.clone(), body, "missing".to_owned()));
        }
        for (field, property) in operation.schema["properties"].as_object().expect("properties") {
            for (value, rule) in refused_values(property) {
                let mut body = operation.example.clone();
                body[field] = value;
                cases.push((field.clone(), body, rule));
            }
        }
        assert!(!cases.is_empty() || required.is_empty(), "{at} has rules to test");
        for (field, body, rule) in cases {
            let (status, answer) = mesh
                .call(
                    operation.method.clone(),
                    &operation.path,
                    token.as_deref(),
                    Some(body.clone()),
                )
                .await;
            assert_eq!(
                status,
                StatusCode::BAD_REQUEST,
                "{at} {field} ({rule}): {body} -> {answer}"
            );
            let detail = answer["detail"].as_str().unwrap_or_default();
            assert!(
                names(detail, &field),
                "{at} {field} ({rule}): the detail {detail:?} names it"
            );
        }
    }
}

#[tokio::test]
async fn a_body_of_only_the_required_fields_is_accepted_where_no_record_must_exist_first() {
    let mesh = Mesh::start().await;
    let mut tokens = BTreeMap::new();
    let mut accepted = 0;
    for operation in body_operations(&mesh).await {
        let needs_records = operation.path.split('/').any(|p| Uuid::parse_str(p).is_ok())
            || operation.schema["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .any(|(_, p)| p.to_string().contains("\"uuid\""))
            // A reset token exists only once a link was emailed (password_reset.rs covers it).
            || operation.path == "/auth/reset-password";
        if needs_records {
            continue;
        }
        // Updates need the record their create makes: a fresh user per operation.
        let role = operation.role.clone();
        let token = match role.as_str() {
            "anonymous" | "admin" => token_for(&mesh, &mut tokens, &role).await,
            role => Some(mesh.register(role).await.0),
        };
        if operation.method == Method::PUT && operation.path.ends_with("/profile") {
            let (status, answer) = mesh
                .call(
                    Method::POST,
                    &operation.path,
                    token.as_deref(),
                    Some(operation.example.clone()),
                )
                .await;
            assert!(
                status.is_success(),
                "create before update {}: {answer}",
                operation.path
            );
        }
        let mut body = Map::new();
        for field in operation.schema["required"].as_array().into_iter().flatten() {
            let field = field.as_str().expect("a field name");
            body.insert(field.to_owned(), operation.example[field].clone());
        }
        if operation.path == "/auth/register" || operation.path == "/admin/users" {
            body.insert(
                "email".into(),
                json!(format!("{}@contract.test", Uuid::new_v4().simple())),
            );
        }
        if operation.path == "/auth/login" {
            let (_, user) = mesh.register("client").await;
            body.insert("email".into(), user["email"].clone());
            body.insert("password".into(), json!("password1"));
        }
        let (status, answer) = mesh
            .call(
                operation.method.clone(),
                &operation.path,
                token.as_deref(),
                Some(Value::Object(body.clone())),
            )
            .await;
        assert!(
            status.is_success(),
            "{} {} with {body:?}: {status} {answer}",
            operation.method,
            operation.path
        );
        accepted += 1;
    }
    assert!(accepted >= 10, "{accepted} bodies tried");
}

#[tokio::test]
async fn a_whole_number_written_with_a_fraction_is_an_integer_and_unknown_fields_are_ignored() {
    let mesh = Mesh::start().await;
    let (token, user) = mesh.register("coach").await;
    // JSON and JSON Schema's `integer` take 52.0 for 52; a field the schema does not name is
    // ignored whatever it holds, a NUL in its name or value included.
    let body = json!({"bio": "", "specialties": [], "hourly_rate": 60, "years_experience": 52.0,
                      "x\u{0}": "\u{0}", "note": {"nested": [1.5]}});
    let (status, answer) = mesh
        .call(Method::POST, "/coach/profile", Some(&token), Some(body))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    assert_eq!(answer["years_experience"], json!(52));
    let (status, profile) = mesh
        .get(
            &format!("/coach/profile/{}", user["user_id"].as_str().expect("an id")),
            Some(&token),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{profile}");
    assert_eq!(profile["years_experience"], json!(52));

    // A fraction that is not zero is not an integer.
    let body = json!({"bio": "", "specialties": [], "hourly_rate": 60, "years_experience": 52.5});
    let (status, answer) = mesh
        .call(Method::PUT, "/coach/profile", Some(&token), Some(body))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_eq!(answer["detail"], "years_experience must be a whole number");

    // A field named twice is still refused.
    let answer = mesh
        .raw(
            Method::PUT,
            "/coach/profile",
            Some(&token),
            Some("application/json"),
            r#"{"bio": "", "hourly_rate": 60, "years_experience": 5.0, "bio": "twice", "extra": 1}"#,
        )
        .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.body);
}

#[tokio::test]
async fn a_body_whose_fields_contradict_each_other_is_a_422_naming_them() {
    let mesh = Mesh::start().await;
    let (token, _) = mesh.register("coach").await;
    let slot = json!({"slot_type": "recurring", "day_of_week": "Monday", "start_time": "10:00", "end_time": "09:30"});
    let (status, answer) = mesh
        .call(Method::POST, "/availability", Some(&token), Some(slot))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert_eq!(answer["detail"], "end_time must be after start_time");
    // The document says which operations can answer it.
    let (_, document) = mesh.get("/openapi.json", None).await;
    assert!(document["paths"]["/availability"]["post"]["responses"]["422"].is_object());
    assert!(document["paths"]["/gym/court-availability"]["post"]["responses"]["422"].is_object());
    // A location's zone the gazetteer cannot tell is one too; a body with no such rule answers
    // 422 only for an Idempotency-Key used before with another request.
    assert!(document["paths"]["/locations"]["post"]["responses"]["422"].is_object());
    let reused_key = &document["paths"]["/coach/profile"]["post"]["responses"]["422"]["description"];
    assert!(
        reused_key.as_str().is_some_and(|d| d.contains("Idempotency-Key")),
        "{reused_key}"
    );
}
