//! The OpenAPI document: its base, what the route table adds to each operation (security and
//! the error responses its access allows) and the last touches once every route is in.

use std::collections::HashMap;

use utoipa::{
    Modify, OpenApi,
    openapi::{
        RefOr,
        path::{HttpMethod, Operation, ParameterIn, Paths},
        response::Response as OpenApiResponse,
        schema::{ArrayItems, Schema, SchemaType, Type},
        security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme},
    },
};

use platform::auth::Role;

use serde_json::Value;

use crate::{
    body_check::{AFTER, NOT_BEFORE},
    body_rules,
    error::ErrorBody,
    routes::Access,
    vocabulary::{
        BookingStatus, CancelledBy, CourtType, DayOfWeek, EarningsKind, PaymentLineKind, PaymentStatus,
        ReservationStatus, Role as RoleName, SignUpRole, SkillLevel, SlotType, TimeZoneName,
    },
};

#[derive(OpenApi)]
#[openapi(
    info(title = "Courtside API", version = "1.0.0",
         description = "Book one-on-one basketball and volleyball coaching and gym courts.\n\n\
Sign in with `POST /auth/login` (or register) and send the token as `Authorization: Bearer <token>`. \
Each operation lists the roles it admits in `x-roles` (`anonymous` means no token is needed) and only \
the error statuses it can answer. A script calls the API without a password with a personal API \
token (`POST /tokens`, for coaches, gyms and admins) sent the same way (`Authorization: Bearer cst_...`, \
the `apiToken` scheme): an operation an API token may call names the one scope it needs in its \
`apiToken` security requirement and in `x-token-scope` (`<area>:read` for GET, `<area>:write` \
otherwise); an operation without one refuses every API token with 403. Every error body is `{\"detail\": \"...\"}`, a sentence a person \
can act on; a refused field is named in it. Times are `HH:MM` (24-hour), dates `YYYY-MM-DD`.",
         contact(name = "Courtside API team"),
         license(name = "MIT", identifier = "MIT")),
    servers((url = "/api")),
    tags(
        (name = "auth", description = "Accounts and sessions: register, sign in, the signed-in user, sign out."),
        (name = "coaching", description = "The public coach directory and its searches, coach profiles, coach locations and availability slots."),
        (name = "booking", description = "A client books a coach's slot; the coach approves or denies; either side cancels; unanswered requests expire and sessions complete on their own; the coach marks no-shows; either side lists them."),
        (name = "gym", description = "Gym profiles, locations, courts, court availability, and court reservations requested by coaches."),
        (name = "admin", description = "Platform statistics and user management, for admins."),
        (name = "client", description = "A client's own profile and profile picture."),
        (name = "reviews", description = "Reviews of sessions that took place: the client of a completed booking posts one and edits it for 14 days, anyone signed in reads a coach's, the coach replies once, an admin hides an abusive one."),
        (name = "calendar", description = "Sessions in people's own calendars: a feed per client, coach and gym for calendar apps to subscribe to, and one booking as an .ics file."),
        (name = "notifications", description = "Each person's inbox: what concerns them (requests, answers, cancellations, expiries, reminders, account changes), also pushed live and by email."),
        (name = "tokens", description = "Personal API tokens for scripts: made with a name, scopes and an optional expiry, shown once, listed with their last use, revoked at once. Managed only when signed in with a password, never with a token."),
        (name = "webhooks", description = "Signed webhooks (Standard Webhooks): an HTTPS address subscribed to event kinds of one's own records, each delivery signed with a whsec_ secret, retried for three days, logged and replayable."),
        (name = "conversations", description = "Threads between two people who share a booking or a court request (or a client and a coach): plain-text messages, read state, unread counts, also pushed live on the notifications stream. Only the thread's two people read it; anyone else gets 404."),
        (name = "payments", description = "Money: a client's saved cards (added with Stripe.js), a booking's receipt, a coach's earnings, and the provider's webhook. A paid session's price is held on the client's card, charged when it completes, and released or charged the coach's fee by the other outcomes; amounts are whole cents."),
    ),
    components(schemas(ErrorBody, RoleName, SignUpRole, SlotType, DayOfWeek, SkillLevel, CourtType,
                       BookingStatus, CancelledBy, ReservationStatus, PaymentStatus, PaymentLineKind,
                       EarningsKind, TimeZoneName)),
    modifiers(&Bearer),
)]
struct ApiDoc;

struct Bearer;

impl Modify for Bearer {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
        components.add_security_scheme(
            API_TOKEN,
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("cst_")
                    .description(Some(
                        "A personal API token (`POST /tokens`): `Authorization: Bearer cst_...`. It \
                         may call an operation whose `apiToken` requirement names a scope it holds \
                         (`bookings`, `availability`, `court_requests`, `profile`, `admin`; `:read` \
                         for GET, `:write` otherwise), as the person who made it.",
                    ))
                    .build(),
            ),
        );
    }
}

/// The name of the API tokens' security scheme (issue 37).
pub const API_TOKEN: &str = "apiToken";

pub fn base() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// What the route table adds to each of a route's operations: its security (`security: []` when
/// public), the roles it admits (`x-roles`) and the error responses it can give ([`errors`]).
pub fn document_access(paths: &mut Paths, access: Access) {
    for (path, item) in paths.paths.iter_mut() {
        let keyed = !crate::routes::relayed(path);
        for (method, operation) in [
            (HttpMethod::Get, item.get.as_mut()),
            (HttpMethod::Post, item.post.as_mut()),
            (HttpMethod::Put, item.put.as_mut()),
            (HttpMethod::Patch, item.patch.as_mut()),
            (HttpMethod::Delete, item.delete.as_mut()),
        ] {
            if let Some(operation) = operation {
                let scope = token_scope(access, &method, path);
                document_operation(operation, access, method, keyed, scope);
            }
        }
    }
}

/// The roles [`Access`] admits, by name; `anonymous` for a caller without a token.
fn roles(access: Access) -> Vec<&'static str> {
    let signed_in = [Role::Admin, Role::Coach, Role::Client, Role::Gym].map(|r| r.as_str());
    match access {
        Access::Public => std::iter::once("anonymous").chain(signed_in).collect(),
        Access::SignedIn => signed_in.to_vec(),
        Access::Roles(roles) => roles.iter().map(|r| r.as_str()).collect(),
    }
}

/// The scope an API token needs to call the operation, when one may (`routes::scopes`): a route
/// of an area that admits a role that can hold tokens.
fn token_scope(access: Access, method: &HttpMethod, path: &str) -> Option<&'static str> {
    let holders = [Role::Coach, Role::Gym, Role::Admin];
    if access == Access::Public || !holders.iter().any(|r| access.allows(Some(*r))) {
        return None;
    }
    let method = match method {
        HttpMethod::Get => axum::http::Method::GET,
        HttpMethod::Post => axum::http::Method::POST,
        HttpMethod::Put => axum::http::Method::PUT,
        HttpMethod::Patch => axum::http::Method::PATCH,
        HttpMethod::Delete => axum::http::Method::DELETE,
        _ => return None,
    };
    crate::routes::scopes::required(&method, path)
}

/// `keyed`: whether a write takes an `Idempotency-Key` (every write but a relayed one); `scope`:
/// what an API token needs to call it (`None`: no token may).
fn document_operation(
    operation: &mut Operation,
    access: Access,
    method: HttpMethod,
    keyed: bool,
    scope: Option<&'static str>,
) {
    let write = writes(&method) && keyed;
    let extensions = operation.extensions.get_or_insert_with(Default::default);
    extensions.insert("x-roles".to_owned(), serde_json::json!(roles(access)));
    if let Some(scope) = scope {
        extensions.insert("x-token-scope".to_owned(), serde_json::json!(scope));
    }
    operation.security = Some(match (access, scope) {
        (Access::Public, _) => Vec::new(),
        (_, None) => vec![SecurityRequirement::new("bearer", Vec::<String>::new())],
        (_, Some(scope)) => vec![
            SecurityRequirement::new("bearer", Vec::<String>::new()),
            SecurityRequirement::new(API_TOKEN, [scope]),
        ],
    });
    for (code, description) in errors(operation, access, method, keyed, scope.is_some()) {
        operation
            .responses
            .responses
            .entry(code.to_owned())
            .or_insert_with(|| RefOr::T(error_response(code, description)));
    }
    if write {
        document_idempotency(operation);
    }
}

fn writes(method: &HttpMethod) -> bool {
    matches!(
        method,
        HttpMethod::Post | HttpMethod::Put | HttpMethod::Patch | HttpMethod::Delete
    )
}

/// A write's optional `Idempotency-Key` header and the `Idempotent-Replayed` header of the
/// answers it may give again ([`crate::idempotency`]).
fn document_idempotency(operation: &mut Operation) {
    let key = utoipa::openapi::path::ParameterBuilder::new()
        .name("Idempotency-Key")
        .parameter_in(ParameterIn::Header)
        .required(utoipa::openapi::Required::False)
        .description(Some(
            "A key the client makes for this one action (a UUID, say), sent again unchanged with \
             every retry of it: the request is carried out once per caller and key, and a retry \
             within 24 hours with the same request gets the first answer again (same status and \
             body, with `Idempotent-Replayed: true`), even when the first answer never arrived. \
             The same key with another request is 422; a retry while the first attempt is still \
             being carried out is 409 with `Retry-After`. A 5xx answer is not kept. Keys belong \
             to the signed-in user (to the client's address when anonymous).",
        ))
        .schema(Some(
            utoipa::openapi::ObjectBuilder::new()
                .schema_type(Type::String)
                .min_length(Some(1))
                .max_length(Some(255))
                .pattern(Some(crate::body_check::IDEMPOTENCY_KEY)),
        ))
        .build();
    operation.parameters.get_or_insert_with(Vec::new).push(key);
    let replayed = utoipa::openapi::header::HeaderBuilder::new()
        .schema(
            utoipa::openapi::ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(["true"])),
        )
        .description(Some(
            "Present on an answer given again to a retry with the same Idempotency-Key",
        ))
        .build();
    for (code, response) in operation.responses.responses.iter_mut() {
        if let (true, RefOr::T(response)) = (code.starts_with('2'), response) {
            response
                .headers
                .insert("Idempotent-Replayed".to_owned(), replayed.clone());
        }
    }
}

/// The error statuses an operation can answer, from what it takes and who may call it (statuses
/// that depend on the data, such as 409, are declared by the handler itself).
fn errors(
    operation: &Operation,
    access: Access,
    method: HttpMethod,
    keyed: bool,
    token: bool,
) -> Vec<(&'static str, &'static str)> {
    let params = operation.parameters.as_deref().unwrap_or_default();
    let in_path = params.iter().any(|p| matches!(p.parameter_in, ParameterIn::Path));
    let in_query = params
        .iter()
        .any(|p| matches!(p.parameter_in, ParameterIn::Query));
    let body = operation.request_body.is_some() && method != HttpMethod::Get;
    let mut errors = Vec::new();
    if body || in_path || in_query {
        errors.push(("400", "The request is invalid; the detail names the field"));
    }
    if access != Access::Public {
        errors.push(("401", "Not signed in, or the session ended"));
    }
    if matches!(access, Access::Roles(_)) {
        errors.push((
            "403",
            "Signed in with a role that cannot do this, or not the owner; or an API token without \
             the scope this needs",
        ));
    } else if access != Access::Public {
        // Any API token where none may call; one without the scope where one may.
        errors.push(("403", "An API token cannot do this, or lacks the scope it needs"));
    }
    if in_path {
        errors.push(("404", "No such record"));
    }
    if body {
        errors.push(("413", "The body is too large"));
        errors.push(("415", "The body is not JSON (Content-Type: application/json)"));
    }
    if token {
        errors.push((
            "429",
            "The API token made too many requests this minute; wait Retry-After seconds",
        ));
    }
    if writes(&method) && keyed {
        if !errors.iter().any(|(code, _)| *code == "400") {
            errors.push(("400", "The request is invalid; the detail names the field"));
        }
        errors.push((
            "409",
            "A request with the same Idempotency-Key is still being carried out; try again shortly",
        ));
        errors.push(("422", "The Idempotency-Key was already used for another request"));
    }
    errors.push((
        "503",
        "Courtside is busy or briefly unavailable; try again shortly",
    ));
    errors
}

fn error_response(code: &str, description: &str) -> OpenApiResponse {
    let mut response = utoipa::openapi::ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            utoipa::openapi::ContentBuilder::new()
                .schema(Some(RefOr::<Schema>::Ref(
                    utoipa::openapi::Ref::from_schema_name("ErrorBody"),
                )))
                .build(),
        );
    if code == "503" || code == "429" {
        response = response.header("Retry-After", retry_after());
    }
    response.build()
}

/// The `Retry-After` header of 429 and 503 answers.
pub fn retry_after() -> utoipa::openapi::header::Header {
    utoipa::openapi::header::HeaderBuilder::new()
        .schema(
            utoipa::openapi::ObjectBuilder::new()
                .schema_type(utoipa::openapi::schema::Type::Integer)
                .minimum(Some(1)),
        )
        .description(Some("Seconds to wait before trying again"))
        .build()
}

/// The last touches once every route has added its operation: operation ids are handler names,
/// and two contexts may name a handler alike (`create_profile`); such ids get their tag as a
/// prefix (`coaching_create_profile`), since OpenAPI requires them unique.
pub fn finish(openapi: &mut utoipa::openapi::OpenApi) {
    let mut uses: HashMap<String, usize> = HashMap::new();
    for operation in operations(openapi) {
        if let Some(id) = &operation.operation_id {
            *uses.entry(id.clone()).or_default() += 1;
        }
    }
    for operation in operations(openapi) {
        let tag = operation.tags.as_ref().and_then(|t| t.first()).cloned();
        if let (Some(id), Some(tag)) = (operation.operation_id.as_mut(), tag)
            && uses.get(id.as_str()).is_some_and(|&n| n > 1)
        {
            *id = format!("{tag}_{id}");
        }
    }
    for operation in operations(openapi) {
        if operation.description.is_none() {
            operation.description = operation.summary.clone();
        }
    }
    require_what_is_always_sent(openapi);
    state_request_rules(openapi);
    document_pages(openapi);
}

/// Writes [`crate::body_rules`] into the request bodies' schemas: the text rule on every text
/// field, the rules across fields on their bodies, and a 422 on each operation whose body has a
/// rule JSON Schema cannot state ([`AFTER`], [`NOT_BEFORE`]).
fn state_request_rules(openapi: &mut utoipa::openapi::OpenApi) {
    let bodies: Vec<String> = operations(openapi)
        .filter_map(|operation| operation.request_body.as_ref())
        .flat_map(|body| schema_refs(&serde_json::to_value(body).unwrap_or_default()))
        .collect();
    let Some(components) = openapi.components.as_mut() else {
        return;
    };
    let mut pending = bodies;
    let mut requested = std::collections::BTreeSet::new();
    while let Some(name) = pending.pop() {
        if !requested.insert(name.clone()) {
            continue;
        }
        if let Some(schema) = components.schemas.get(&name) {
            pending.extend(schema_refs(&serde_json::to_value(schema).unwrap_or_default()));
        }
    }
    for name in &requested {
        if let Some(RefOr::T(schema)) = components.schemas.get_mut(name) {
            text_rule(schema);
        }
    }
    let mut unprocessable = Vec::new();
    for (name, rules) in body_rules::across_fields() {
        let Some(RefOr::T(Schema::Object(object))) = components.schemas.get_mut(name) else {
            continue;
        };
        let Value::Object(rules) = rules else {
            continue;
        };
        if rules.contains_key(AFTER) || rules.contains_key(NOT_BEFORE) {
            unprocessable.push(format!("#/components/schemas/{name}"));
        }
        object
            .extensions
            .get_or_insert_with(Default::default)
            .extend(rules);
    }
    for operation in operations(openapi) {
        let body = serde_json::to_value(&operation.request_body).unwrap_or_default();
        if schema_refs(&body)
            .iter()
            .any(|name| unprocessable.contains(&format!("#/components/schemas/{name}")))
        {
            operation.responses.responses.insert(
                "422".to_owned(),
                RefOr::T(error_response(
                    "422",
                    "The body keeps every rule of its schema but breaks one across its fields that \
                     JSON Schema cannot state (`x-after`: the end must come after the start; \
                     `x-not-before`: a range's last date must not come before its first); the \
                     detail names the fields",
                )),
            );
        }
    }
}

/// [`body_rules::text_rule`] on every text field of `schema` (its properties, their items and
/// branches).
fn text_rule(schema: &mut Schema) {
    match schema {
        Schema::Object(object) => {
            let text = match &object.schema_type {
                SchemaType::Type(Type::String) => true,
                SchemaType::Array(types) => types.contains(&Type::String),
                _ => false,
            };
            if text
                && object.format.is_none()
                && object.enum_values.is_none()
                && let Some(pattern) = body_rules::text_rule(object.pattern.as_deref())
            {
                object.pattern = Some(pattern.to_owned());
            }
            for property in object.properties.values_mut() {
                if let RefOr::T(property) = property {
                    text_rule(property);
                }
            }
        }
        Schema::Array(array) => {
            if let ArrayItems::RefOrSchema(item) = &mut array.items
                && let RefOr::T(item) = item.as_mut()
            {
                text_rule(item);
            }
        }
        Schema::OneOf(one_of) => one_of.items.iter_mut().for_each(|item| {
            if let RefOr::T(item) = item {
                text_rule(item);
            }
        }),
        _ => {}
    }
}

/// Every field of an answer is always sent (null where it has no value), so every property of a
/// schema an answer uses is required; nullable ones stay nullable.
fn require_what_is_always_sent(openapi: &mut utoipa::openapi::OpenApi) {
    let Some(components) = openapi.components.as_mut() else {
        return;
    };
    let mut pending: Vec<String> = openapi
        .paths
        .paths
        .values()
        .flat_map(|item| {
            [&item.get, &item.post, &item.put, &item.patch, &item.delete]
                .into_iter()
                .flatten()
                .map(|operation| &operation.responses)
        })
        .flat_map(|responses| schema_refs(&serde_json::to_value(responses).unwrap_or_default()))
        .collect();
    let mut answered = std::collections::BTreeSet::new();
    while let Some(name) = pending.pop() {
        if !answered.insert(name.clone()) {
            continue;
        }
        if let Some(schema) = components.schemas.get(&name) {
            pending.extend(schema_refs(&serde_json::to_value(schema).unwrap_or_default()));
        }
    }
    for name in answered {
        if let Some(RefOr::T(Schema::Object(object))) = components.schemas.get_mut(&name) {
            object.required = object.properties.keys().cloned().collect();
        }
    }
}

/// The component schemas a piece of the document refers to.
fn schema_refs(value: &serde_json::Value) -> Vec<String> {
    match value {
        serde_json::Value::Object(map) => map
            .iter()
            .flat_map(|(key, value)| match (key.as_str(), value.as_str()) {
                ("$ref", Some(reference)) => reference
                    .strip_prefix("#/components/schemas/")
                    .map(|name| vec![name.to_owned()])
                    .unwrap_or_default(),
                _ => schema_refs(value),
            })
            .collect(),
        serde_json::Value::Array(items) => items.iter().flat_map(schema_refs).collect(),
        _ => Vec::new(),
    }
}

fn operations(openapi: &mut utoipa::openapi::OpenApi) -> impl Iterator<Item = &mut Operation> {
    openapi.paths.paths.values_mut().flat_map(|item| {
        [
            item.get.as_mut(),
            item.post.as_mut(),
            item.put.as_mut(),
            item.patch.as_mut(),
            item.delete.as_mut(),
        ]
        .into_iter()
        .flatten()
    })
}

/// The `Link` header on the 200 answer of every paged list (an operation taking `cursor`):
/// `crate::pages` sends it while more rows remain.
fn document_pages(openapi: &mut utoipa::openapi::OpenApi) {
    for operation in operations(openapi) {
        let paged = operation
            .parameters
            .as_deref()
            .unwrap_or_default()
            .iter()
            .any(|p| p.name == "cursor" && matches!(p.parameter_in, ParameterIn::Query));
        if !paged {
            continue;
        }
        if let Some(RefOr::T(ok)) = operation.responses.responses.get_mut("200") {
            ok.headers.insert(
                "Link".to_owned(),
                utoipa::openapi::header::HeaderBuilder::new()
                    .schema(
                        utoipa::openapi::ObjectBuilder::new()
                            .schema_type(utoipa::openapi::schema::Type::String),
                    )
                    .description(Some(
                        "`<…>; rel=\"next\"` (RFC 8288): the next page, while more rows remain",
                    ))
                    .build(),
            );
        }
    }
}

#[cfg(test)]
mod tests;
