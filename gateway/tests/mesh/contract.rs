//! The request side of the contract, driven by the live document: for every operation that takes
//! a JSON body, each missing required field and each enum, pattern, format, length or range
//! violation is a 400 whose detail names the field; and a body of only the required fields is
//! accepted, once the records it names (in its path or its fields) exist.

use std::collections::BTreeMap;

use chrono::{DateTime, Days, NaiveDate, Utc};
use platform::{clock::ManualClock, testing::CARD_OK};
use regex::Regex;
use reqwest::{Method, StatusCode};
use serde_json::{Map, Value, json};
use uuid::Uuid;

use crate::{
    coaching::{User, user},
    gym::{gym_with_court_time, request_court},
    helpers::Mesh,
    password_reset::mailed_token,
    payments::{add_card, until_payment},
    reviews::{confirmed, until_completed},
};

/// One operation with a JSON request body, as the document describes it.
struct BodyOperation {
    method: Method,
    /// The path as the document writes it (`/bookings/{booking_id}/cancel`).
    template: String,
    /// The path with a random id for each parameter.
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
            // The provider's webhook relays its body as sent (no schema rules; its signature is
            // the rule, tested in payments.rs).
            if body.is_null() || path == "/payments/webhook" {
                continue;
            }
            // A body that may be left out is `null` or the object: the object's rules apply.
            let body = body["oneOf"]
                .as_array()
                .and_then(|branches| branches.iter().find(|b| b["type"] != "null"))
                .unwrap_or(body);
            let schema = resolve(body, &components).clone();
            let role = operation["x-roles"][0].as_str().expect("x-roles").to_owned();
            let template = path.clone();
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
                template,
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

/// The records the bodies name, made before any body is sent. booking-svc's clock starts before
/// the sessions reviews need (only a completed session is reviewed) and moves past them once, to a
/// day still before every date the document's examples name; everything else is made fresh for
/// the operation that needs it.
struct World {
    mesh: Mesh,
    admin: String,
    /// Each operation's example body, by `METHOD /template`.
    examples: BTreeMap<String, Value>,
    /// The coach of the completed sessions.
    past_coach: User,
    /// Completed sessions nobody has reviewed yet.
    completed: Vec<Session>,
    /// A paid session, captured: what an admin refunds.
    paid_booking: String,
}

/// A completed session: its client and the booking.
struct Session {
    client: User,
    booking_id: String,
}

/// A client's pending booking of a fresh coach's slot.
struct Booked {
    coach: User,
    client: User,
    slot_id: String,
    booking_id: String,
}

/// What an operation needs before its body can succeed: the caller's token and the records made
/// for it, by path parameter or body field.
struct Arranged {
    token: Option<String>,
    ids: BTreeMap<String, Value>,
}

impl BodyOperation {
    /// `METHOD /template`, as the test names an operation.
    fn key(&self) -> String {
        format!("{} {}", self.method, self.template)
    }

    /// Whether a record must exist first: the path names one, or a required field is a uuid.
    fn names_a_record(&self) -> bool {
        self.template.contains('{')
            || strings(&self.schema["required"]).iter().any(|field| {
                let property = &self.schema["properties"][field];
                property["format"] == "uuid"
                    || property["oneOf"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .any(|branch| branch["format"] == "uuid")
            })
    }
}

fn strings(list: &Value) -> Vec<String> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect()
}

fn ids<const N: usize>(pairs: [(&str, Value); N]) -> BTreeMap<String, Value> {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

fn midday(date: NaiveDate) -> DateTime<Utc> {
    date.and_hms_opt(12, 0, 0).expect("a time").and_utc()
}

impl World {
    async fn new(mesh: Mesh, clock: &ManualClock, operations: &[BodyOperation]) -> World {
        let examples = operations.iter().map(|o| (o.key(), o.example.clone())).collect();
        let admin = mesh.admin().await;
        let past_coach = user(&mesh, "coach", "Paula Past").await;
        let mut world = World {
            mesh,
            admin,
            examples,
            past_coach,
            completed: Vec::new(),
            paid_booking: String::new(),
        };
        // Four sessions on the weekdays of the booking example's date, the last a week before it,
        // and a paid one a week before it too (another coach's, at the profile example's rate).
        let day = world.booking_date();
        clock.set(midday(day - Days::new(29)));
        let slot_id = world.example_slot(&world.past_coach).await;
        let paid_coach = user(&world.mesh, "coach", "Penny Paid").await;
        let paid_slot = world.example_slot_at(&paid_coach, None).await;
        let payer = user(&world.mesh, "client", "Pia Payer").await;
        add_card(&world.mesh, &payer, CARD_OK).await.expect("a card");
        let date = (day - Days::new(7)).to_string();
        world.paid_booking = confirmed(&world.mesh, &payer, &paid_coach, &paid_slot, &date).await;
        let mut booked = Vec::new();
        for weeks_before in [4, 3, 2, 1] {
            let client = user(&world.mesh, "client", "Pat Past").await;
            let date = (day - Days::new(7 * weeks_before)).to_string();
            let booking_id = confirmed(&world.mesh, &client, &world.past_coach, &slot_id, &date).await;
            booked.push(Session { client, booking_id });
        }
        clock.set(midday(day - Days::new(6)));
        for session in booked {
            until_completed(&world.mesh, &session.client, &session.booking_id).await;
            world.completed.push(session);
        }
        until_payment(&world.mesh, &payer, &world.paid_booking, "paid").await;
        world
    }

    fn example(&self, key: &str) -> &Value {
        self.examples
            .get(key)
            .unwrap_or_else(|| panic!("{key} is in the document"))
    }

    /// The date of the booking example.
    fn booking_date(&self) -> NaiveDate {
        self.example("POST /bookings")["booking_date"]
            .as_str()
            .and_then(|d| d.parse().ok())
            .expect("the booking example's date")
    }

    /// A profile (free sessions: no card needed) and a place in Austin for `coach`, and the slot
    /// example there (on the weekday of the booking examples' dates); returns the slot's id.
    async fn example_slot(&self, coach: &User) -> String {
        self.example_slot_at(coach, Some(0.0)).await
    }

    /// [`World::example_slot`] at `hourly_rate` (None: the profile example's).
    async fn example_slot_at(&self, coach: &User, hourly_rate: Option<f64>) -> String {
        let mut profile = self.example("POST /coach/profile").clone();
        if let Some(rate) = hourly_rate {
            profile["hourly_rate"] = json!(rate);
        }
        let (status, body) = self
            .mesh
            .post("/coach/profile", Some(&coach.token), profile)
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let (status, location) = self
            .mesh
            .post(
                "/locations",
                Some(&coach.token),
                self.example("POST /locations").clone(),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{location}");
        let mut slot = self.example("POST /availability").clone();
        slot["location_id"] = location["location_id"].clone();
        let (status, slot) = self.mesh.post("/availability", Some(&coach.token), slot).await;
        assert_eq!(status, StatusCode::CREATED, "{slot}");
        slot["slot_id"].as_str().expect("a slot id").to_owned()
    }

    /// A fresh coach with the slot example.
    async fn coach_with_example_slot(&self) -> (User, String) {
        let coach = user(&self.mesh, "coach", "Cory Contract").await;
        let slot_id = self.example_slot(&coach).await;
        (coach, slot_id)
    }

    /// A client's pending booking of a fresh coach's slot on the booking example's date.
    async fn booked(&self) -> Booked {
        let (coach, slot_id) = self.coach_with_example_slot().await;
        let client = user(&self.mesh, "client", "Cleo Contract").await;
        let (status, booking) = self
            .mesh
            .post(
                "/bookings",
                Some(&client.token),
                json!({"coach_id": coach.id, "slot_id": slot_id,
                       "booking_date": self.booking_date().to_string()}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{booking}");
        let booking_id = booking["booking_id"].as_str().expect("an id").to_owned();
        Booked {
            coach,
            client,
            slot_id,
            booking_id,
        }
    }

    fn completed(&mut self) -> Session {
        self.completed
            .pop()
            .expect("a completed session nobody reviewed: World::new makes one per review operation")
    }

    /// A completed session its client reviewed (the review example); returns it and the review's id.
    async fn reviewed(&mut self) -> (Session, String) {
        let session = self.completed();
        let (status, review) = self
            .mesh
            .post(
                &format!("/bookings/{}/review", session.booking_id),
                Some(&session.client.token),
                self.example("POST /bookings/{booking_id}/review").clone(),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{review}");
        let review_id = review["review_id"].as_str().expect("an id").to_owned();
        (session, review_id)
    }

    /// A token for `role`: a fresh user's, the admin's, or none for `anonymous`.
    async fn token(&self, role: &str) -> Option<String> {
        match role {
            "anonymous" => None,
            "admin" => Some(self.admin.clone()),
            role => Some(user(&self.mesh, role, "Fresh Contract").await.token),
        }
    }

    /// Makes the records `operation` names and picks its caller.
    async fn arrange(&mut self, operation: &BodyOperation) -> Arranged {
        let key = operation.key();
        let mesh = &self.mesh;
        match key.as_str() {
            "POST /auth/register" | "POST /admin/users" => Arranged {
                token: self.token(&operation.role).await,
                ids: ids([(
                    "email",
                    json!(format!("{}@contract.test", Uuid::new_v4().simple())),
                )]),
            },
            "POST /auth/login" => {
                let (_, user) = mesh.register("client").await;
                Arranged {
                    token: None,
                    ids: ids([
                        ("email", user["email"].clone()),
                        ("password", json!(platform::testing::FIXTURE_PASSWORD)),
                    ]),
                }
            }
            "POST /auth/reset-password" => {
                let (_, user) = mesh.register("client").await;
                let email = user["email"].as_str().expect("an email");
                let (status, body) = mesh
                    .post("/auth/forgot-password", None, json!({"email": email}))
                    .await;
                assert_eq!(status, StatusCode::ACCEPTED, "{body}");
                Arranged {
                    token: None,
                    ids: ids([("token", json!(mailed_token(mesh, email).await))]),
                }
            }
            // An update needs the record its create makes.
            "PUT /client/profile" | "PUT /coach/profile" | "PUT /gym/profile" => {
                let token = self.token(&operation.role).await;
                let create = self.example(&format!("POST {}", operation.template)).clone();
                let (status, body) = mesh.post(&operation.template, token.as_deref(), create).await;
                assert_eq!(status, StatusCode::CREATED, "{key}'s create: {body}");
                Arranged { token, ids: ids([]) }
            }
            "PUT /admin/users/{user_id}" => {
                let someone = user(mesh, "client", "Una Updated").await;
                Arranged {
                    token: Some(self.admin.clone()),
                    ids: ids([("user_id", json!(someone.id))]),
                }
            }
            "POST /bookings" => {
                let (coach, slot_id) = self.coach_with_example_slot().await;
                Arranged {
                    token: self.token("client").await,
                    ids: ids([("coach_id", json!(coach.id)), ("slot_id", json!(slot_id))]),
                }
            }
            "PATCH /bookings/{booking_id}/cancel" => {
                let booked = self.booked().await;
                Arranged {
                    token: Some(booked.client.token),
                    ids: ids([("booking_id", json!(booked.booking_id))]),
                }
            }
            // To the same slot on the reschedule example's date.
            "POST /bookings/{booking_id}/reschedule" => {
                let booked = self.booked().await;
                Arranged {
                    token: Some(booked.client.token),
                    ids: ids([
                        ("booking_id", json!(booked.booking_id)),
                        ("slot_id", json!(booked.slot_id)),
                    ]),
                }
            }
            // A coach cancels only a confirmed session.
            "PATCH /coach/bookings/{booking_id}/cancel" => {
                let booked = self.booked().await;
                let approve = format!("/coach/bookings/{}/approve", booked.booking_id);
                let (status, body) = mesh
                    .call(Method::PATCH, &approve, Some(&booked.coach.token), None)
                    .await;
                assert_eq!(status, StatusCode::OK, "{body}");
                Arranged {
                    token: Some(booked.coach.token),
                    ids: ids([("booking_id", json!(booked.booking_id))]),
                }
            }
            "POST /bookings/{booking_id}/review" => {
                let session = self.completed();
                Arranged {
                    token: Some(session.client.token),
                    ids: ids([("booking_id", json!(session.booking_id))]),
                }
            }
            "PUT /bookings/{booking_id}/review" => {
                let (session, _) = self.reviewed().await;
                Arranged {
                    token: Some(session.client.token),
                    ids: ids([("booking_id", json!(session.booking_id))]),
                }
            }
            "POST /coach/reviews/{review_id}/reply" => {
                let (_, review_id) = self.reviewed().await;
                Arranged {
                    token: Some(self.past_coach.token.clone()),
                    ids: ids([("review_id", json!(review_id))]),
                }
            }
            "PATCH /admin/reviews/{review_id}/hide" => {
                let (_, review_id) = self.reviewed().await;
                Arranged {
                    token: Some(self.admin.clone()),
                    ids: ids([("review_id", json!(review_id))]),
                }
            }
            "POST /admin/bookings/{booking_id}/refund" => Arranged {
                token: Some(self.admin.clone()),
                ids: ids([("booking_id", json!(self.paid_booking))]),
            },
            "POST /coach/court-reservations" => {
                let court = gym_with_court_time(mesh, "Open Courts").await;
                Arranged {
                    token: self.token("coach").await,
                    ids: ids([("availability_id", json!(court.availability_id))]),
                }
            }
            // A gym cancels only court time it approved.
            "PATCH /gym/reservations/{reservation_id}/cancel" => {
                let court = gym_with_court_time(mesh, "Held Courts").await;
                let coach = user(mesh, "coach", "Rae Reserver").await;
                let requested = request_court(mesh, &coach, &court.availability_id).await;
                let reservation_id = requested["reservation_id"].as_str().expect("an id");
                let approve = format!("/gym/reservations/{reservation_id}/approve");
                let (status, body) = mesh
                    .call(Method::PATCH, &approve, Some(&court.gym.token), None)
                    .await;
                assert_eq!(status, StatusCode::OK, "{body}");
                Arranged {
                    token: Some(court.gym.token),
                    ids: ids([("reservation_id", json!(reservation_id))]),
                }
            }
            "POST /gym/court-availability" => {
                let court = gym_with_court_time(mesh, "New Courts").await;
                Arranged {
                    token: Some(court.gym.token),
                    ids: ids([("court_id", json!(court.court_id))]),
                }
            }
            "POST /gym/locations/{location_id}/closures" | "POST /gym/locations/{location_id}/courts" => {
                let court = gym_with_court_time(mesh, "Busy Courts").await;
                Arranged {
                    token: Some(court.gym.token),
                    ids: ids([("location_id", json!(court.location_id))]),
                }
            }
            // A webhook's update needs the webhook its create makes.
            "PUT /webhooks/{webhook_id}" => {
                let token = self.token(&operation.role).await;
                let create = self.example("POST /webhooks").clone();
                let (status, body) = mesh.post("/webhooks", token.as_deref(), create).await;
                assert_eq!(status, StatusCode::CREATED, "{key}'s create: {body}");
                Arranged {
                    token,
                    ids: ids([("webhook_id", body["webhook_id"].clone())]),
                }
            }
            // A client may write to any coach; a message needs the thread.
            "POST /conversations" | "POST /conversations/{conversation_id}/messages" => {
                let coach = user(mesh, "coach", "Connie Contacted").await;
                let client = user(mesh, "client", "Cora Curious").await;
                let start = json!({"with_user_id": coach.id});
                let (status, thread) = mesh.post("/conversations", Some(&client.token), start).await;
                assert_eq!(status, StatusCode::CREATED, "{key}'s thread: {thread}");
                if key == "POST /conversations" {
                    let other = user(mesh, "client", "Cleo Curious").await;
                    Arranged {
                        token: Some(other.token),
                        ids: ids([("with_user_id", json!(coach.id))]),
                    }
                } else {
                    Arranged {
                        token: Some(client.token),
                        ids: ids([("conversation_id", thread["conversation_id"].clone())]),
                    }
                }
            }
            // The recipient reports a message; the admin suspends someone.
            "POST /messages/{message_id}/report" => {
                let coach = user(mesh, "coach", "Rex Reported").await;
                let client = user(mesh, "client", "Rita Reporter").await;
                let start = json!({"with_user_id": coach.id});
                let (_, thread) = mesh.post("/conversations", Some(&client.token), start).await;
                let id = thread["conversation_id"].as_str().expect("a thread");
                let path = format!("/conversations/{id}/messages");
                let (status, sent) = mesh.post(&path, Some(&coach.token), json!({"body": "hey"})).await;
                assert_eq!(status, StatusCode::CREATED, "{key}'s message: {sent}");
                Arranged {
                    token: Some(client.token),
                    ids: ids([("message_id", sent["message_id"].clone())]),
                }
            }
            "POST /admin/users/{user_id}/suspend" => {
                let someone = user(mesh, "client", "Sue Suspended").await;
                Arranged {
                    token: Some(self.admin.clone()),
                    ids: ids([("user_id", json!(someone.id))]),
                }
            }
            _ if operation.names_a_record() => panic!(
                "{key} names a record (a path id or a required uuid) this test does not make: add it to World::arrange"
            ),
            _ => Arranged {
                token: self.token(&operation.role).await,
                ids: ids([]),
            },
        }
    }
}

/// The operation's path with the ids made for it.
fn concrete(operation: &BodyOperation, ids: &mut BTreeMap<String, Value>) -> String {
    let at = operation.key();
    operation
        .template
        .split('/')
        .map(
            |part| match part.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
                Some(name) => ids
                    .remove(name)
                    .and_then(|id| id.as_str().map(str::to_owned))
                    .unwrap_or_else(|| panic!("{at}: no {name} was made")),
                None => part.to_owned(),
            },
        )
        .collect::<Vec<_>>()
        .join("/")
}

/// Fields a body must also hold given what it holds: the `then` of each `if` of the schema's
/// `allOf` that the body meets (a recurring slot needs `day_of_week`).
fn conditionally_required(schema: &Value, body: &Map<String, Value>) -> Vec<String> {
    let mut more = Vec::new();
    for rule in schema["allOf"].as_array().into_iter().flatten() {
        let condition = &rule["if"];
        if condition.is_null() {
            continue;
        }
        let present = strings(&condition["required"])
            .iter()
            .all(|f| body.contains_key(f));
        let matches = condition["allOf"]
            .as_array()
            .into_iter()
            .flatten()
            .chain([condition])
            .filter_map(|c| c["properties"].as_object())
            .flatten()
            .all(|(field, property)| {
                property
                    .get("const")
                    .is_none_or(|value| body.get(field) == Some(value))
            });
        if present && matches {
            more.extend(strings(&rule["then"]["required"]));
        }
    }
    more
}

/// The body of only the required fields (those a condition requires included): the ids made for
/// it where it names a record, the example's values otherwise.
fn only_the_required(operation: &BodyOperation, ids: &mut BTreeMap<String, Value>) -> Map<String, Value> {
    let at = operation.key();
    let mut body = Map::new();
    let mut required = strings(&operation.schema["required"]);
    while !required.is_empty() {
        for field in required {
            let value = ids.remove(&field).unwrap_or_else(|| {
                operation
                    .example
                    .get(&field)
                    .cloned()
                    .unwrap_or_else(|| panic!("{at}: the example gives the required {field}"))
            });
            body.insert(field, value);
        }
        required = conditionally_required(&operation.schema, &body)
            .into_iter()
            .filter(|f| !body.contains_key(f))
            .collect();
    }
    body
}

#[tokio::test]
async fn a_body_of_only_the_required_fields_is_accepted_once_the_records_it_names_exist() {
    let clock = ManualClock::at(Utc::now());
    let mesh = Mesh::start_with_booking_clock(clock.clone()).await;
    let operations = body_operations(&mesh).await;
    let mut world = World::new(mesh, &clock, &operations).await;
    for operation in &operations {
        let Arranged { token, mut ids } = world.arrange(operation).await;
        let path = concrete(operation, &mut ids);
        let body = only_the_required(operation, &mut ids);
        assert!(
            ids.is_empty(),
            "{}: {ids:?} made for fields it does not require",
            operation.key()
        );

        let (status, answer) = world
            .mesh
            .call(
                operation.method.clone(),
                &path,
                token.as_deref(),
                Some(Value::Object(body.clone())),
            )
            .await;

        assert!(
            status.is_success(),
            "{} with {body:?}: {status} {answer}",
            operation.key()
        );
    }
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
