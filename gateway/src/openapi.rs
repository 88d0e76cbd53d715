//! The base of the OpenAPI document; every route adds its own operation (see `routes`).

use utoipa::{
    Modify, OpenApi,
    openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
};

use crate::error::ErrorBody;

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
