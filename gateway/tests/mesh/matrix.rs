//! The authorization matrix, generated from the route table the gateway itself is built from
//! (`gateway::routes::rows()`): every route, called anonymously and as each role, with random
//! UUIDs for path parameters and `{}` as the body of writes.
//!
//! - a caller the row does not allow gets 401 (anonymous) or 403 (wrong role) from the gate;
//! - a caller the row allows gets past the gate: neither 401 nor 403, and never a 5xx (the
//!   service may well answer 400 or 404 to a random id and an empty body).
//!
//! A route cannot exist without a row (the table is the router), so a new route is in this test
//! the moment it is added.

use gateway::routes::{Access, Row, rows};
use platform::auth::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::helpers::Mesh;

/// Who calls: anonymous, or signed in with a role.
struct Caller {
    role: Option<Role>,
    email: String,
    password: String,
    token: String,
}

impl Caller {
    fn name(&self) -> &'static str {
        self.role.map_or("anonymous", Role::as_str)
    }
}

async fn callers(mesh: &Mesh) -> Vec<Caller> {
    let mut callers = vec![Caller {
        role: None,
        email: String::new(),
        password: String::new(),
        token: String::new(),
    }];
    for role in [Role::Coach, Role::Client, Role::Gym] {
        let (token, user) = mesh.register(role.as_str()).await;
        callers.push(Caller {
            role: Some(role),
            email: user["email"].as_str().unwrap().to_owned(),
            password: platform::testing::FIXTURE_PASSWORD.into(),
            token,
        });
    }
    callers.push(Caller {
        role: Some(Role::Admin),
        email: crate::helpers::ADMIN_EMAIL.into(),
        password: crate::helpers::ADMIN_PASSWORD.into(),
        token: mesh.admin().await,
    });
    callers
}

/// The row's path with every `{param}` replaced by a fresh UUID.
fn concrete(path: &str) -> String {
    let mut out = String::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').expect("a closing brace") + open;
        out.push_str(&rest[..open]);
        out.push_str(&Uuid::new_v4().to_string());
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

fn body_for(method: &Method) -> Option<Value> {
    [Method::POST, Method::PUT, Method::PATCH]
        .contains(method)
        .then(|| json!({}))
}

/// A call that ends the session it is made with is given a session of its own.
async fn token_for(mesh: &Mesh, row: &Row, caller: &Caller) -> Option<String> {
    caller.role?;
    if row.path == "/auth/logout" {
        let (status, body) = mesh.sign_in(&caller.email, &caller.password).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        return Some(body["token"].as_str().unwrap().to_owned());
    }
    Some(caller.token.clone())
}

/// What the gate must decide for `caller` on `row`: Some(401 or 403), or None to let it pass.
fn gate(access: Access, role: Option<Role>) -> Option<StatusCode> {
    match role {
        _ if access.allows(role) => None,
        None => Some(StatusCode::UNAUTHORIZED),
        Some(_) => Some(StatusCode::FORBIDDEN),
    }
}

#[tokio::test]
async fn every_route_refuses_the_callers_its_row_does_not_allow_and_lets_the_others_through() {
    let mesh = Mesh::start().await;
    let callers = callers(&mesh).await;
    let rows = rows();
    assert!(rows.len() > 40, "the table has every route: {}", rows.len());
    let mut wrong = Vec::new();

    for row in &rows {
        for caller in &callers {
            let token = token_for(&mesh, row, caller).await;
            let path = concrete(&row.path);
            let (status, body) = mesh
                .call(row.method.clone(), &path, token.as_deref(), body_for(&row.method))
                .await;
            let verdict = match gate(row.access, caller.role) {
                Some(expected) if status != expected => Some(format!("expected {expected}")),
                Some(_) => None,
                None if matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) => {
                    Some("expected the gate to let it through".to_owned())
                }
                None if status.is_server_error() => Some("expected no 5xx".to_owned()),
                None => None,
            };
            if status.is_client_error() && !body["detail"].is_string() {
                wrong.push(format!(
                    "{} {path} as {}: {status} without a detail",
                    row.method,
                    caller.name()
                ));
            }
            if let Some(why) = verdict {
                wrong.push(format!(
                    "{} {path} as {}: got {status} {body}; {why}",
                    row.method,
                    caller.name()
                ));
            }
        }
    }

    assert!(
        wrong.is_empty(),
        "{} wrong answers:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The token column (issue 37): for every route, an API token with every scope its person may
/// hold, of each role that may hold tokens: where the row refuses the role, the gate's 403; where
/// the route has an area (`gateway::routes::scopes`), past the gate (neither 401 nor 403, never
/// a 5xx); where it has none (sign-in, sessions, tokens, webhooks, notifications, calendar feeds,
/// cards), a 403 with a detail. Public routes are not asked: they never look at a token.
#[tokio::test]
async fn every_route_lets_a_token_with_every_scope_through_where_it_has_an_area_and_refuses_it_elsewhere() {
    use gateway::routes::scopes;

    let mesh = Mesh::start().await;
    let mut holders = Vec::new();
    for role in [Role::Coach, Role::Gym, Role::Admin] {
        let session = if role == Role::Admin {
            mesh.admin().await
        } else {
            mesh.register(role.as_str()).await.0
        };
        let all = scopes::all_scopes();
        let granted: Vec<&str> = all
            .into_iter()
            .filter(|s| role == Role::Admin || !s.starts_with("admin:"))
            .collect();
        let token = crate::tokens::token(&mesh, &session, "matrix", &granted).await;
        holders.push((role, token["token"].as_str().unwrap().to_owned()));
    }
    let mut wrong = Vec::new();
    for row in rows().iter().filter(|r| r.access != Access::Public) {
        for (role, secret) in &holders {
            let path = concrete(&row.path);
            let (status, body) = mesh
                .call(row.method.clone(), &path, Some(secret), body_for(&row.method))
                .await;
            // The role gate first; then a route of no area refuses any token.
            let refused = !row.access.allows(Some(*role)) || scopes::area(&row.path).is_none();
            let expected = refused.then_some(StatusCode::FORBIDDEN);
            let verdict = match expected {
                Some(expected) if status != expected => Some(format!("expected {expected}")),
                Some(_) => None,
                None if matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) => {
                    Some("expected the gate to let it through".to_owned())
                }
                None if status.is_server_error() => Some("expected no 5xx".to_owned()),
                None => None,
            };
            if status.is_client_error() && !body["detail"].is_string() {
                wrong.push(format!(
                    "{} {path} with a {role} token: {status} without a detail",
                    row.method
                ));
            }
            if let Some(why) = verdict {
                wrong.push(format!(
                    "{} {path} with a {role} token: got {status} {body}; {why}",
                    row.method
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong answers:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[tokio::test]
async fn a_public_route_ignores_a_bad_token_and_a_private_one_refuses_it() {
    let mesh = Mesh::start().await;

    for row in rows().iter().filter(|r| r.method == Method::GET) {
        let path = concrete(&row.path);
        let (status, body) = mesh.get(&path, Some("not-a-token")).await;
        if row.access == Access::Public {
            assert!(
                !matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN),
                "{path}: {status} {body}"
            );
        } else {
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}: {body}");
        }
    }
}

/// Beyond the gate: a client's profile (a minor's age and grade) is read by the client, by a
/// coach they have booked (in any status: here a denied request), and by an admin; another
/// client, a gym and a coach they never booked get the 404 of a profile that does not exist.
#[tokio::test]
async fn a_clients_profile_is_read_by_them_their_booked_coaches_and_admins_and_by_no_one_else() {
    use chrono::Weekday;

    use crate::coaching::{coach_with_slot, next, user};

    let mesh = Mesh::start().await;
    let client = user(&mesh, "client", "Kim Minor").await;
    let (status, created) = mesh
        .post(
            "/client/profile",
            Some(&client.token),
            json!({"age": 14, "grade": "9th"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let (booked_coach, slot_id) = coach_with_slot(&mesh, "Booked Coach").await;
    let (status, booking) = mesh
        .post(
            "/bookings",
            Some(&client.token),
            json!({"coach_id": booked_coach.id, "slot_id": slot_id, "booking_date": next(Weekday::Wed).to_string()}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{booking}");
    let denied = format!("/coach/bookings/{}/deny", booking["booking_id"].as_str().unwrap());
    let (status, body) = mesh
        .call(Method::PATCH, &denied, Some(&booked_coach.token), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let other_coach = user(&mesh, "coach", "Other Coach").await;
    let other_client = user(&mesh, "client", "Other Client").await;
    let gym = user(&mesh, "gym", "Some Gym").await;
    let admin = mesh.admin().await;
    let path = format!("/client/profile/{}", client.id);

    for (who, token, expected) in [
        ("the client", client.token.as_str(), StatusCode::OK),
        ("a coach they booked", booked_coach.token.as_str(), StatusCode::OK),
        ("an admin", admin.as_str(), StatusCode::OK),
        (
            "a coach they never booked",
            other_coach.token.as_str(),
            StatusCode::NOT_FOUND,
        ),
        (
            "another client",
            other_client.token.as_str(),
            StatusCode::NOT_FOUND,
        ),
        ("a gym", gym.token.as_str(), StatusCode::NOT_FOUND),
    ] {
        let (status, body) = mesh.get(&path, Some(token)).await;
        assert_eq!(status, expected, "{who}: {body}");
        if expected == StatusCode::OK {
            assert_eq!(body, created, "{who}");
        } else {
            assert!(body["detail"].is_string(), "{who}: {body}");
            assert!(body.get("age").is_none(), "{who}: {body}");
        }
    }
}

#[test]
fn the_matrix_covers_every_role_and_the_admin_routes_are_admin_only() {
    let rows = rows();
    for row in rows.iter().filter(|r| r.path.starts_with("/admin")) {
        for role in Role::ALL {
            assert_eq!(row.access.allows(Some(role)), role == Role::Admin, "{row:?}");
        }
    }
    let public: Vec<_> = rows
        .iter()
        .filter(|r| r.access == Access::Public)
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    let mut public = public;
    public.sort();
    assert_eq!(
        public,
        [
            // A calendar feed: calendar apps sign in nowhere; the secret in the address is the key.
            "GET /calendar/{file}",
            "GET /coaches",
            "GET /coaches/search/city",
            "GET /coaches/search/nearby",
            // The web app's Find Near Me / city search geocodes an address before searching.
            "GET /geocode",
            // What the browser needs to load Stripe.js: nothing in it is secret.
            "GET /payments/config",
            // A forgotten password: whoever forgot it cannot sign in.
            "POST /auth/forgot-password",
            "POST /auth/login",
            "POST /auth/register",
            "POST /auth/reset-password",
            // The provider's events: its Stripe-Signature is the proof, checked by booking-svc.
            "POST /payments/webhook",
        ],
        "a new public route is a decision: add it here on purpose"
    );
}
