//! The route table: every `/api` route with the roles allowed to call it.
//!
//! The table is the router: a handler can only be mounted through [`route`], which pairs it
//! with its [`Access`]. The same table drives the authorization middleware, the OpenAPI document
//! (security and error responses) and the authorization-matrix test, so a route cannot exist
//! without its row.

pub mod admin;
pub mod auth;
pub mod booking;
pub mod client;
pub mod coaching;
pub mod gym;

use std::{collections::HashMap, sync::Arc};

use axum::{
    extract::{Request, State},
    http::{HeaderValue, Method, StatusCode, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
};
use platform::auth::Role;
use tokio::sync::Semaphore;
use utoipa::openapi::{
    RefOr,
    path::{HttpMethod, Operation, Paths},
    response::Response as OpenApiResponse,
    schema::Schema,
    security::SecurityRequirement,
};
use utoipa_axum::router::UtoipaMethodRouter;

use crate::{error::ApiError, state::AppState};

/// Who may call a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Anyone, signed in or not.
    Public,
    /// Any signed-in user.
    SignedIn,
    /// Signed-in users with one of these roles.
    Roles(&'static [Role]),
}

impl Access {
    /// Whether a caller with `role` (None: anonymous) may call.
    pub fn allows(self, role: Option<Role>) -> bool {
        match (self, role) {
            (Access::Public, _) => true,
            (_, None) => false,
            (Access::SignedIn, Some(_)) => true,
            (Access::Roles(roles), Some(role)) => roles.contains(&role),
        }
    }
}

pub const ADMIN: Access = Access::Roles(&[Role::Admin]);
pub const COACH: Access = Access::Roles(&[Role::Coach]);
pub const CLIENT: Access = Access::Roles(&[Role::Client]);
pub const GYM: Access = Access::Roles(&[Role::Gym]);
/// Coaches and clients: the two sides of a booking.
pub const CLIENT_OR_COACH: Access = Access::Roles(&[Role::Client, Role::Coach]);

/// One row of the table: a handler (from `utoipa_axum::routes!`) and who may call it.
pub struct Route {
    pub access: Access,
    pub handler: UtoipaMethodRouter<AppState>,
}

/// Pairs a handler with its access.
pub fn route(access: Access, handler: UtoipaMethodRouter<AppState>) -> Route {
    Route { access, handler }
}

/// A row as data: method, path (relative to `/api`, with `{param}`s) and access.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub method: Method,
    pub path: String,
    pub access: Access,
}

/// Every route of the API.
pub fn table() -> Vec<Route> {
    [
        auth::routes(),
        coaching::routes(),
        booking::routes(),
        gym::routes(),
        admin::routes(),
        client::routes(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The table as rows (method, path, access), for the authorization-matrix test.
pub fn rows() -> Vec<Row> {
    table()
        .into_iter()
        .flat_map(|route| {
            let access = route.access;
            let (_, paths, _) = route.handler;
            operations(&paths)
                .into_iter()
                .map(move |(method, path)| Row { method, path, access })
        })
        .collect()
}

fn operations(paths: &Paths) -> Vec<(Method, String)> {
    paths
        .paths
        .iter()
        .flat_map(|(path, item)| {
            [
                (Method::GET, &item.get),
                (Method::POST, &item.post),
                (Method::PUT, &item.put),
                (Method::PATCH, &item.patch),
                (Method::DELETE, &item.delete),
            ]
            .into_iter()
            .filter(|(_, op)| op.is_some())
            .map(|(method, _)| (method, path.clone()))
        })
        .collect()
}

/// How many requests of a class may be in flight in one gateway before more are shed with 503
/// (rather than queued): password hashing is the scarce resource for sign-in, so it gets few.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Class {
    SignIn,
    Read,
    Write,
}

impl Class {
    fn of(method: &Method, path: &str) -> Class {
        if path == "/auth/login" || path == "/auth/register" {
            Class::SignIn
        } else if method == Method::GET {
            Class::Read
        } else {
            Class::Write
        }
    }

    fn limit(self) -> usize {
        match self {
            Class::SignIn => 64,
            Class::Read => 4096,
            Class::Write => 1024,
        }
    }
}

/// Answers 503 at once when the route's class is at its limit.
async fn shed(State(permits): State<Arc<Semaphore>>, request: Request, next: Next) -> Response {
    match permits.try_acquire() {
        Ok(_permit) => next.run(request).await,
        Err(_) => {
            metrics::counter!("http_shed_total").increment(1);
            let mut response = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "Courtside is very busy right now. Please try again in a moment.",
            )
            .into_response();
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            response
        }
    }
}

/// The API router (mounted under `/api`) and its OpenAPI document.
pub fn api(state: AppState) -> (axum::Router, utoipa::openapi::OpenApi) {
    let mut router = utoipa_axum::router::OpenApiRouter::with_openapi(crate::openapi::base());
    let mut classes: HashMap<Class, Arc<Semaphore>> = HashMap::new();
    for Route {
        access,
        handler: (schemas, mut paths, method_router),
    } in table()
    {
        document_access(&mut paths, access);
        let class = operations(&paths)
            .first()
            .map_or(Class::Write, |(method, path)| Class::of(method, path));
        let permits = classes
            .entry(class)
            .or_insert_with(|| Arc::new(Semaphore::new(class.limit())))
            .clone();
        let method_router = method_router
            .route_layer(middleware::from_fn_with_state((state.clone(), access), authorize))
            .route_layer(middleware::from_fn_with_state(permits, shed));
        router = router.routes((schemas, paths, method_router));
    }
    let (router, mut openapi) = router.with_state(state).split_for_parts();
    crate::openapi::finish(&mut openapi);
    (router, openapi)
}

/// The authorization gate in front of every route: verifies the bearer token (signature, claims,
/// revocation), checks the role against the route's [`Access`], and hands the handler a [`Session`].
async fn authorize(
    State((state, access)): State<(AppState, Access)>,
    mut request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let header = request
        .headers()
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    let token = header.and_then(platform::auth::bearer);
    if access == Access::Public {
        // A public route ignores credentials, good or bad.
        return Ok(next.run(request).await);
    }
    let token = token.ok_or_else(|| ApiError::unauthorized("Please sign in to do this."))?;
    let session = crate::auth::session(&state, token).await?;
    if !access.allows(Some(session.caller.role)) {
        return Err(ApiError::forbidden(format!(
            "A {} account cannot do this.",
            session.caller.role
        )));
    }
    request.extensions_mut().insert(session);
    Ok(next.run(request).await)
}

/// Adds the security requirement and the error responses every operation can give.
fn document_access(paths: &mut Paths, access: Access) {
    for item in paths.paths.values_mut() {
        for method in [
            HttpMethod::Get,
            HttpMethod::Post,
            HttpMethod::Put,
            HttpMethod::Patch,
            HttpMethod::Delete,
        ] {
            let operation = match method {
                HttpMethod::Get => item.get.as_mut(),
                HttpMethod::Post => item.post.as_mut(),
                HttpMethod::Put => item.put.as_mut(),
                HttpMethod::Patch => item.patch.as_mut(),
                HttpMethod::Delete => item.delete.as_mut(),
                _ => None,
            };
            if let Some(operation) = operation {
                document_operation(operation, access, method);
            }
        }
    }
}

fn document_operation(operation: &mut Operation, access: Access, method: HttpMethod) {
    let mut errors: Vec<(&str, &str)> = vec![
        ("400", "Invalid input"),
        ("404", "Not found"),
        ("409", "Conflict with the current state"),
        ("413", "Body too large"),
        ("429", "Too many attempts"),
        ("503", "A service behind the gateway is unavailable"),
    ];
    if matches!(method, HttpMethod::Post | HttpMethod::Put | HttpMethod::Patch) {
        errors.push(("415", "Wrong media type"));
    }
    match access {
        Access::Public => {}
        Access::SignedIn => errors.push(("401", "Not signed in, or the session ended")),
        Access::Roles(roles) => {
            errors.push(("401", "Not signed in, or the session ended"));
            errors.push((
                "403",
                "Signed in with a role that cannot do this, or not the owner",
            ));
            let names = roles.iter().map(|r| r.as_str()).collect::<Vec<_>>().join(", ");
            let description = operation.description.take().unwrap_or_default();
            operation.description = Some(format!("{description}\n\nRoles: {names}.").trim().to_owned());
        }
    }
    if access != Access::Public {
        operation.security = Some(vec![SecurityRequirement::new("bearer", Vec::<String>::new())]);
    }
    for (code, description) in errors {
        operation
            .responses
            .responses
            .entry(code.to_owned())
            .or_insert_with(|| RefOr::T(error_response(description)));
    }
}

fn error_response(description: &str) -> OpenApiResponse {
    utoipa::openapi::ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            utoipa::openapi::ContentBuilder::new()
                .schema(Some(RefOr::<Schema>::Ref(
                    utoipa::openapi::Ref::from_schema_name("ErrorBody"),
                )))
                .build(),
        )
        .build()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn every_row_is_unique() {
        let rows = rows();
        let unique: HashSet<_> = rows.iter().map(|r| (r.method.clone(), r.path.clone())).collect();
        assert_eq!(unique.len(), rows.len());
    }

    #[test]
    fn sign_in_reads_and_writes_are_separate_classes() {
        assert_eq!(Class::of(&Method::POST, "/auth/login"), Class::SignIn);
        assert_eq!(Class::of(&Method::GET, "/coaches"), Class::Read);
        assert_eq!(Class::of(&Method::POST, "/bookings"), Class::Write);
    }

    #[test]
    fn access_allows_exactly_its_roles() {
        assert!(Access::Public.allows(None));
        assert!(!Access::SignedIn.allows(None));
        assert!(Access::SignedIn.allows(Some(Role::Gym)));
        assert!(COACH.allows(Some(Role::Coach)));
        assert!(!COACH.allows(Some(Role::Admin)));
        assert!(!COACH.allows(None));
    }
}
