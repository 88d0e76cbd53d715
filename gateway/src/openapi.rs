//! The OpenAPI document: its base, what the route table adds to each operation (security and
//! the error responses its access allows) and the last touches once every route is in.

use std::collections::HashMap;

use utoipa::{
    Modify, OpenApi,
    openapi::{
        RefOr,
        path::{HttpMethod, Operation, Paths},
        response::Response as OpenApiResponse,
        schema::Schema,
        security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme},
    },
};

use crate::{error::ErrorBody, routes::Access};

#[derive(OpenApi)]
#[openapi(
    info(title = "Courtside API", version = "1.0.0",
         description = "Book one-on-one basketball and volleyball coaching and gym courts. Every error body is {\"detail\": \"...\"}."),
    servers((url = "/api")),
    components(schemas(ErrorBody)),
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
    }
}

pub fn base() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// Adds the security requirement and the error responses every operation can give.
pub fn document_access(paths: &mut Paths, access: Access) {
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::{AppState, Config};

    fn state() -> AppState {
        let (_, public) = platform::auth::generate_keypair();
        let nowhere = "http://127.0.0.1:1".to_owned();
        AppState::new(Config {
            listen_addr: ([127, 0, 0, 1], 0).into(),
            ops_addr: ([127, 0, 0, 1], 0).into(),
            identity_url: nowhere.clone(),
            coaching_url: nowhere.clone(),
            booking_url: nowhere.clone(),
            gym_url: nowhere,
            jwt_public_key: public,
            redis_url: "redis://127.0.0.1:1".into(),
            redis_namespace: "openapi-test".into(),
            upload_dir: std::env::temp_dir(),
            auth_rate_limit_per_minute: 1,
            auth_rate_limit_per_email_per_minute: 1,
            grpc_deadline: Duration::from_secs(1),
            grpc_resolve_interval: platform::balance::DEFAULT_RESOLVE_INTERVAL,
            resolver: None,
        })
        .expect("a state")
    }

    fn document() -> serde_json::Value {
        let (_, openapi) = crate::routes::api(state());
        serde_json::to_value(openapi).expect("the document serialises")
    }

    fn operations(document: &serde_json::Value) -> Vec<(String, String, &serde_json::Value)> {
        let paths = document["paths"].as_object().expect("paths");
        paths
            .iter()
            .flat_map(|(path, item)| {
                item.as_object()
                    .expect("a path item")
                    .iter()
                    .filter(|(method, _)| {
                        ["get", "post", "put", "patch", "delete"].contains(&method.as_str())
                    })
                    .map(|(method, op)| (method.to_uppercase(), path.clone(), op))
            })
            .collect()
    }

    #[tokio::test]
    async fn every_route_of_the_table_is_one_operation_of_the_document() {
        let document = document();
        let mut documented: Vec<_> = operations(&document)
            .into_iter()
            .map(|(method, path, _)| (method, path))
            .collect();
        let mut routed: Vec<_> = crate::routes::rows()
            .into_iter()
            .map(|row| (row.method.to_string(), row.path))
            .collect();
        documented.sort();
        routed.sort();
        assert_eq!(documented, routed);
    }

    #[tokio::test]
    async fn the_document_is_openapi_3_1_and_every_operation_says_what_it_answers() {
        let document = document();
        assert!(document["openapi"].as_str().is_some_and(|v| v.starts_with("3.1")));
        for (method, path, op) in operations(&document) {
            let responses = op["responses"].as_object().expect("responses");
            assert!(
                responses.keys().any(|code| code.starts_with('2')),
                "{method} {path} documents no success"
            );
            assert!(responses.contains_key("400"), "{method} {path}");
            if ["POST", "PUT", "PATCH"].contains(&method.as_str()) && op.get("requestBody").is_some() {
                assert!(responses.contains_key("415"), "{method} {path}");
            }
        }
    }

    #[tokio::test]
    async fn operation_ids_are_unique() {
        let document = document();
        let mut seen = std::collections::HashMap::new();
        for (method, path, op) in operations(&document) {
            let id = op["operationId"].as_str().unwrap_or_default().to_owned();
            if let Some(first) = seen.insert(id.clone(), format!("{method} {path}")) {
                panic!("operationId {id} is used by {first} and {method} {path}");
            }
        }
    }
}
