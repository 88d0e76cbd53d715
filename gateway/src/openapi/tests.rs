//! The document's own checks: every route one operation, only the statuses it can answer, the
//! security each operation needs (a sign-in's token, and an API token's scope where one may).
fn document() -> serde_json::Value {
    serde_json::to_value(crate::routes::document()).expect("the document serialises")
}

fn operations(document: &serde_json::Value) -> Vec<(String, String, &serde_json::Value)> {
    let paths = document["paths"].as_object().expect("paths");
    paths
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .expect("a path item")
                .iter()
                .filter(|(method, _)| ["get", "post", "put", "patch", "delete"].contains(&method.as_str()))
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
        assert!(responses.contains_key("503"), "{method} {path}");
        assert!(
            op["description"].is_string(),
            "{method} {path} has no description"
        );
        assert!(op["x-roles"].is_array(), "{method} {path} has no x-roles");
        if op.get("requestBody").is_some() {
            assert!(responses.contains_key("400"), "{method} {path}");
            assert!(responses.contains_key("415"), "{method} {path}");
        }
    }
}

fn operation<'a>(document: &'a serde_json::Value, method: &str, path: &str) -> &'a serde_json::Value {
    &document["paths"][path][method]
}

fn statuses(op: &serde_json::Value) -> Vec<String> {
    op["responses"]
        .as_object()
        .expect("responses")
        .keys()
        .cloned()
        .collect()
}

#[tokio::test]
async fn each_operation_lists_only_the_statuses_it_can_answer() {
    let document = document();
    let me = statuses(operation(&document, "get", "/auth/me"));
    assert_eq!(me, ["200", "401", "403", "503"], "403: an API token");
    let logout = statuses(operation(&document, "post", "/auth/logout"));
    assert_eq!(logout, ["204", "400", "401", "403", "409", "422", "503"]);
    let directory = statuses(operation(&document, "get", "/coaches"));
    assert_eq!(
        directory,
        ["200", "304", "400", "503"],
        "400: a bad filter or cursor"
    );
    let slot = statuses(operation(&document, "post", "/availability"));
    assert_eq!(
        slot,
        [
            "201", "400", "401", "403", "409", "413", "415", "422", "429", "503"
        ],
        "429: an API token's limit"
    );
}

#[tokio::test]
async fn public_operations_need_no_token_and_the_others_name_their_roles() {
    let document = document();
    let login = operation(&document, "post", "/auth/login");
    assert_eq!(login["security"], serde_json::json!([]));
    assert_eq!(
        login["x-roles"],
        serde_json::json!(["anonymous", "admin", "coach", "client", "gym"])
    );
    let login_limited = &login["responses"]["429"]["headers"]["Retry-After"];
    assert!(login_limited.is_object(), "429 documents Retry-After");
    let slot = operation(&document, "post", "/availability");
    assert_eq!(
        slot["security"],
        serde_json::json!([{"bearer": []}, {"apiToken": ["availability:write"]}])
    );
    assert_eq!(slot["x-roles"], serde_json::json!(["coach"]));
    let me = operation(&document, "get", "/auth/me");
    assert_eq!(
        me["x-roles"],
        serde_json::json!(["admin", "coach", "client", "gym"])
    );
}

#[tokio::test]
async fn an_operation_an_api_token_may_call_names_its_scope_and_the_others_only_the_sign_in() {
    let document = document();
    let scheme = &document["components"]["securitySchemes"]["apiToken"];
    assert_eq!(
        (scheme["type"].as_str(), scheme["scheme"].as_str()),
        (Some("http"), Some("bearer"))
    );
    let bookings = operation(&document, "get", "/bookings");
    assert_eq!(
        bookings["security"],
        serde_json::json!([{"bearer": []}, {"apiToken": ["bookings:read"]}])
    );
    assert_eq!(bookings["x-token-scope"], "bookings:read");
    assert!(statuses(bookings).contains(&"429".to_owned()));
    let approve = operation(&document, "patch", "/coach/bookings/{booking_id}/approve");
    assert_eq!(approve["x-token-scope"], "bookings:write");
    for (method, path) in [("get", "/auth/me"), ("post", "/tokens"), ("post", "/bookings")] {
        // Sign-in's own, token management, and a client's (no client holds a token).
        let op = operation(&document, method, path);
        assert_eq!(
            op["security"],
            serde_json::json!([{"bearer": []}]),
            "{method} {path}"
        );
        assert!(op.get("x-token-scope").is_none(), "{method} {path}");
    }
}

#[tokio::test]
async fn every_field_an_answer_always_sends_is_required() {
    let document = document();
    let booking = &document["components"]["schemas"]["Booking"];
    let mut required: Vec<&str> = booking["required"]
        .as_array()
        .expect("required")
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    let mut properties: Vec<&str> = booking["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .map(String::as_str)
        .collect();
    required.sort_unstable();
    properties.sort_unstable();
    assert_eq!(required, properties);
    let location = &document["components"]["schemas"]["Location"]["required"];
    assert!(
        location
            .as_array()
            .expect("required")
            .contains(&serde_json::json!("latitude"))
    );
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
