//! The route table: every `/api` route with the roles allowed to call it, declared in [`table`]
//! and nowhere else.
//!
//! The table is the router: a handler can only be mounted through [`route`], which pairs it
//! with its [`Access`]. The same table drives the authorization middleware ([`authorize`]), the
//! load shedding ([`shed`]), the OpenAPI document (security and error responses) and the
//! authorization-matrix test, so a route cannot exist without its row.

mod access;
pub mod admin;
pub mod auth;
mod authorize;
pub mod bookable;
pub mod booking;
pub mod cache;
pub mod calendar;
pub mod client;
pub mod coaching;
pub mod conversations;
pub mod gym;
pub mod notifications;
pub mod payments;
pub mod reviews;
pub mod scopes;
pub mod sessions;
mod shed;
pub mod tokens;
pub mod webhooks;

pub use access::{ADMIN, Access, CLIENT, CLIENT_OR_COACH, COACH, GYM, MANAGES_TOKENS, WITH_SESSIONS};
use access::{PUBLIC, SIGNED_IN};
use axum::{http::Method, middleware};
use utoipa::openapi::path::Paths;
use utoipa_axum::{router::UtoipaMethodRouter, routes};

use crate::{
    body_check::{BodyChecks, check_body},
    state::AppState,
};

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

/// Every route of the API, with who may call it.
pub fn table() -> Vec<Route> {
    vec![
        route(PUBLIC, routes!(auth::register)),
        route(PUBLIC, routes!(auth::login)),
        route(SIGNED_IN, routes!(auth::me)),
        route(SIGNED_IN, routes!(auth::logout)),
        route(SIGNED_IN, routes!(sessions::list_sessions)),
        route(SIGNED_IN, routes!(sessions::end_session)),
        route(SIGNED_IN, routes!(sessions::logout_all)),
        route(PUBLIC, routes!(auth::password::forgot_password)),
        route(PUBLIC, routes!(auth::password::reset_password)),
        route(PUBLIC, routes!(coaching::directory::list_coaches)),
        route(PUBLIC, routes!(coaching::search::search_nearby)),
        route(PUBLIC, routes!(coaching::search::search_city)),
        route(PUBLIC, routes!(coaching::search::geocode)),
        route(SIGNED_IN, routes!(coaching::profile::get_profile)),
        route(COACH, routes!(coaching::profile::create_profile)),
        route(COACH, routes!(coaching::profile::update_profile)),
        route(COACH, routes!(coaching::locations::my_locations)),
        route(COACH, routes!(coaching::locations::create_location)),
        route(SIGNED_IN, routes!(coaching::locations::coach_locations)),
        route(SIGNED_IN, routes!(coaching::slots::coach_slots)),
        route(COACH, routes!(coaching::slots::create_slot)),
        route(COACH, routes!(coaching::slots::delete_slot)),
        route(COACH, routes!(coaching::policy::own_policy)),
        route(COACH, routes!(coaching::policy::update_policy)),
        route(SIGNED_IN, routes!(coaching::policy::coach_policy)),
        route(COACH, routes!(coaching::time_off::create_time_off)),
        route(COACH, routes!(coaching::time_off::list_time_off)),
        route(COACH, routes!(coaching::time_off::delete_time_off)),
        route(SIGNED_IN, routes!(bookable::coach_calendar)),
        route(CLIENT, routes!(booking::client::create_booking)),
        route(CLIENT_OR_COACH, routes!(booking::client::list_bookings)),
        route(CLIENT, routes!(booking::client::cancel_booking)),
        route(CLIENT, routes!(booking::client::reschedule_booking)),
        route(COACH, routes!(booking::coach::approve_booking)),
        route(COACH, routes!(booking::coach::deny_booking)),
        route(COACH, routes!(booking::coach::coach_cancel_booking)),
        route(COACH, routes!(booking::coach::mark_no_show)),
        route(CLIENT, routes!(reviews::post_review)),
        route(CLIENT, routes!(reviews::edit_review)),
        route(CLIENT_OR_COACH, routes!(reviews::get_review)),
        route(SIGNED_IN, routes!(reviews::coach_reviews)),
        route(COACH, routes!(reviews::reply_to_review)),
        route(ADMIN, routes!(reviews::hide_review)),
        route(ADMIN, routes!(reviews::admin_reviews)),
        route(SIGNED_IN, routes!(gym::profile::get_profile)),
        route(GYM, routes!(gym::profile::create_profile)),
        route(GYM, routes!(gym::profile::update_profile)),
        route(SIGNED_IN, routes!(gym::locations::list_locations)),
        route(GYM, routes!(gym::locations::create_location)),
        route(SIGNED_IN, routes!(gym::courts::list_courts)),
        route(GYM, routes!(gym::courts::create_court)),
        route(SIGNED_IN, routes!(gym::availability::open_availability)),
        route(GYM, routes!(gym::availability::list_availability)),
        route(GYM, routes!(gym::availability::create_availability)),
        route(GYM, routes!(gym::closures::create_closure)),
        route(GYM, routes!(gym::closures::list_closures)),
        route(GYM, routes!(gym::closures::delete_closure)),
        route(GYM, routes!(gym::reservations::pending_reservations)),
        route(GYM, routes!(gym::reservations::approve_reservation)),
        route(GYM, routes!(gym::reservations::deny_reservation)),
        route(GYM, routes!(gym::reservations::gym_cancel_reservation)),
        route(COACH, routes!(gym::reservations::coach_reservations)),
        route(COACH, routes!(gym::reservations::request_reservation)),
        route(COACH, routes!(gym::reservations::cancel_reservation)),
        route(ADMIN, routes!(admin::stats::admin_stats)),
        route(ADMIN, routes!(admin::users::list_users)),
        route(ADMIN, routes!(admin::users::get_user)),
        route(ADMIN, routes!(admin::accounts::create_user)),
        route(ADMIN, routes!(admin::accounts::update_user)),
        route(ADMIN, routes!(admin::accounts::delete_user)),
        route(ADMIN, routes!(admin::audit::list_audit)),
        route(SIGNED_IN, routes!(client::get_client_profile)),
        route(CLIENT, routes!(client::create_client_profile)),
        route(CLIENT, routes!(client::update_client_profile)),
        // Pictures may be larger than the JSON body limit: this route has its own.
        route(CLIENT, client::upload_route()),
        route(WITH_SESSIONS, routes!(calendar::get_feed)),
        route(WITH_SESSIONS, routes!(calendar::reset_feed)),
        // The address is the key (a secret in the path), for calendar apps that sign in nowhere.
        route(PUBLIC, routes!(calendar::calendar_feed)),
        route(CLIENT_OR_COACH, routes!(calendar::booking_ics)),
        route(SIGNED_IN, routes!(notifications::list_notifications)),
        route(SIGNED_IN, routes!(notifications::unread_count)),
        route(SIGNED_IN, routes!(notifications::mark_read)),
        route(SIGNED_IN, routes!(notifications::mark_all_read)),
        route(SIGNED_IN, routes!(notifications::stream)),
        route(SIGNED_IN, routes!(notifications::preferences::get_preferences)),
        route(SIGNED_IN, routes!(notifications::preferences::update_preferences)),
        route(PUBLIC, routes!(payments::payments_config)),
        // The provider signs its events; the signature is the proof, not a token.
        route(PUBLIC, routes!(payments::payment_webhook)),
        route(CLIENT, routes!(payments::cards::setup_payment_method)),
        route(CLIENT, routes!(payments::cards::list_payment_methods)),
        route(CLIENT, routes!(payments::cards::set_default_payment_method)),
        route(CLIENT, routes!(payments::cards::remove_payment_method)),
        route(CLIENT_OR_COACH, routes!(payments::receipt::booking_receipt)),
        route(COACH, routes!(payments::earnings::coach_earnings)),
        route(COACH, routes!(payments::earnings::coach_earnings_csv)),
        route(ADMIN, routes!(admin::payments::list_payments)),
        route(ADMIN, routes!(admin::payments::refund_booking)),
        route(MANAGES_TOKENS, routes!(tokens::create_token, tokens::list_tokens)),
        route(MANAGES_TOKENS, routes!(tokens::revoke_token)),
        route(
            MANAGES_TOKENS,
            routes!(webhooks::create_webhook, webhooks::list_webhooks),
        ),
        route(
            MANAGES_TOKENS,
            routes!(webhooks::update_webhook, webhooks::delete_webhook),
        ),
        route(MANAGES_TOKENS, routes!(webhooks::rotate_secret)),
        route(MANAGES_TOKENS, routes!(webhooks::test_webhook)),
        route(MANAGES_TOKENS, routes!(webhooks::deliveries::list_deliveries)),
        route(MANAGES_TOKENS, routes!(webhooks::deliveries::replay_delivery)),
        route(
            SIGNED_IN,
            routes!(
                conversations::list_conversations,
                conversations::start_conversation
            ),
        ),
        route(SIGNED_IN, routes!(conversations::unread_messages)),
        route(SIGNED_IN, routes!(conversations::get_conversation)),
        route(
            SIGNED_IN,
            routes!(
                conversations::messages::list_messages,
                conversations::messages::send_message
            ),
        ),
        route(SIGNED_IN, routes!(conversations::messages::mark_read)),
        route(
            SIGNED_IN,
            routes!(
                conversations::safety::block_user,
                conversations::safety::unblock_user
            ),
        ),
        route(SIGNED_IN, routes!(conversations::safety::report_message)),
        route(ADMIN, routes!(conversations::safety::list_reports)),
        route(ADMIN, routes!(conversations::safety::suspend_user)),
    ]
}

/// Whether the route at `path` relays its body byte for byte (the provider's webhook, whose
/// signature covers those bytes): no schema check rewrites it and no `Idempotency-Key` keeps its
/// answer (the service applies each event once by its own id).
pub fn relayed(path: &str) -> bool {
    path == payments::WEBHOOK
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

/// The OpenAPI document of every route in the table.
pub fn document() -> utoipa::openapi::OpenApi {
    let mut router = utoipa_axum::router::OpenApiRouter::with_openapi(crate::openapi::base());
    for Route {
        access,
        handler: (schemas, mut paths, method_router),
    } in table()
    {
        crate::openapi::document_access(&mut paths, access);
        router = router.routes((schemas, paths, method_router));
    }
    let (_, mut openapi) = router.split_for_parts();
    crate::openapi::finish(&mut openapi);
    openapi
}

/// The API router (mounted under `/api`) and its OpenAPI document. Every route's JSON body is
/// checked against its schema in that document, after the role gate and before the handler.
pub fn api(state: AppState) -> (axum::Router, utoipa::openapi::OpenApi) {
    let openapi = document();
    let checks = BodyChecks::new(&serde_json::to_value(&openapi).unwrap_or_default());
    let mut router = utoipa_axum::router::OpenApiRouter::new();
    let mut limits = shed::Limits::default();
    for Route {
        access,
        handler: (schemas, paths, mut method_router),
    } in table()
    {
        let operations = operations(&paths);
        for (method, path) in &operations {
            // Innermost: only a write that passed the gate and the body check reaches a service.
            if *method != Method::GET {
                // A route missing from the declaration (a test forbids it) clears everything.
                let data = cache::changes(method, path).unwrap_or(&platform::stamps::Context::ALL);
                if !data.is_empty() {
                    method_router = method_router.route_layer(middleware::from_fn_with_state(
                        (state.clone(), data),
                        cache::renew_after,
                    ));
                }
            }
            if let Some(check) = checks.get(method, path)
                && !relayed(path)
            {
                method_router = method_router.route_layer(middleware::from_fn_with_state(check, check_body));
            }
        }
        let permits = limits.permits(operations.first());
        if !operations.iter().any(|(_, path)| relayed(path)) {
            // After the role gate (the key is the caller's), before the body check and the
            // handler: a replay is answered without either.
            method_router = method_router.route_layer(middleware::from_fn_with_state(
                state.clone(),
                crate::idempotency::idempotent,
            ));
        }
        let method_router = method_router
            .route_layer(middleware::from_fn_with_state(
                (state.clone(), access, authorize::Operations::new(&operations)),
                authorize::authorize,
            ))
            .route_layer(middleware::from_fn_with_state(permits, shed::shed));
        router = router.routes((schemas, paths, method_router));
    }
    (router.with_state(state).split_for_parts().0, openapi)
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
}
