//! Pages of the lists that grow, as clients see them (RFC 8288 links, keyset cursors).
//!
//! A paged list takes `?limit=` (1 to the list's most) and `?cursor=` (from the previous page's
//! `Link: <…>; rel="next"` header, never made by hand), as [`Paging`] reads them, and answers the
//! page as the same JSON array the whole list is, with the `Link` header while more rows remain
//! (and `X-Total-Count` where the count is cheap). Without `limit` a list SPEC.md describes stays
//! whole; a list beyond the spec pages by default.
//!
//! The services page by keyset (`platform::pages`): a page asks for `limit` rows after a keyset
//! and the answer names the next one. The cursor is that keyset with a fingerprint of the list it
//! belongs to (the path and every filter but `limit` and `cursor`), base64url-encoded: a cursor
//! that does not decode, or that another list or other filters gave, is a 400, and a keyset the
//! service did not write is its 400. Cursors are opaque, not secret: a crafted one can only name a
//! place in the same list the caller may read anyway.

use axum::{
    extract::{FromRequestParts, OriginalUri},
    http::{HeaderValue, header, request::Parts},
    response::{IntoResponse, Response},
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use serde::Serialize;
use utoipa::openapi::{
    ObjectBuilder, Required,
    path::{Parameter, ParameterBuilder, ParameterIn},
    schema::Type,
};

use crate::{error::ApiError, extract::Session};

/// The query parameters of paging, left out of a cursor's fingerprint.
const LIMIT: &str = "limit";
const CURSOR: &str = "cursor";

/// The paging of one request to a list of at most `MOST` rows a page, `DEFAULT` rows when no
/// `limit` is given (0: the whole list).
#[derive(Clone, Debug)]
pub struct Paging<const MOST: u32, const DEFAULT: u32 = 0> {
    limit: u32,
    after: String,
    path: String,
    query: Vec<(String, String)>,
    /// The list's fingerprint: its path, filters and caller.
    print: u64,
}

impl<const MOST: u32, const DEFAULT: u32> Paging<MOST, DEFAULT> {
    /// Rows asked for (0: the whole list), for the service's request.
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// The keyset the page starts after ("" for the first page), for the service's request.
    pub fn after(&self) -> String {
        self.after.clone()
    }

    /// The page as a JSON array, with `Link: <…>; rel="next"` when the service named a `next`
    /// keyset and `X-Total-Count` when `total` is known.
    pub fn respond<T: Serialize>(&self, rows: Vec<T>, next: &str, total: Option<u64>) -> Response {
        let mut response = axum::Json(rows).into_response();
        let headers = response.headers_mut();
        if !next.is_empty()
            && let Ok(link) = HeaderValue::from_str(&self.link(next))
        {
            headers.insert(header::LINK, link);
        }
        if let Some(total) = total {
            headers.insert("x-total-count", HeaderValue::from(total));
        }
        response
    }

    /// The next page's address: this request's path and query with the next cursor.
    fn link(&self, next: &str) -> String {
        let mut query = self.query.clone();
        query.push((LIMIT.to_owned(), self.limit.to_string()));
        query.push((CURSOR.to_owned(), cursor(self.print, next)));
        let query = serde_urlencoded::to_string(&query).unwrap_or_default();
        format!("<{}?{query}>; rel=\"next\"", self.path)
    }
}

impl<S: Send + Sync, const MOST: u32, const DEFAULT: u32> FromRequestParts<S> for Paging<MOST, DEFAULT> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let uri = parts
            .extensions
            .get::<OriginalUri>()
            .map_or_else(|| parts.uri.clone(), |original| original.0.clone());
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(uri.query().unwrap_or_default())
            .map_err(|_| ApiError::bad_request("The query string could not be read."))?;
        let value = |name: &str| {
            pairs
                .iter()
                .rev()
                .find(|(key, _)| key == name)
                .map(|(_, v)| v.as_str())
        };
        let limit = match value(LIMIT) {
            None => DEFAULT,
            Some(text) => text
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=MOST).contains(n))
                .ok_or_else(|| {
                    ApiError::bad_request(format!("limit must be a whole number from 1 to {MOST}."))
                })?,
        };
        let mut query: Vec<(String, String)> = pairs
            .iter()
            .filter(|(key, _)| key != LIMIT && key != CURSOR)
            .cloned()
            .collect();
        query.sort();
        let path = uri.path().to_owned();
        // A cursor is the caller's own: another person's is as foreign as another list's.
        let caller = parts
            .extensions
            .get::<Session>()
            .map(|s| s.caller.user_id.to_string());
        let print = fingerprint(&path, &query, caller.as_deref());
        let after = match value(CURSOR) {
            None | Some("") => String::new(),
            Some(_) if limit == 0 => {
                return Err(ApiError::bad_request(
                    "A cursor comes with the limit of the page it continues; give limit too.",
                ));
            }
            Some(given) => keyset(print, given).ok_or_else(|| {
                ApiError::bad_request(
                    "This cursor was not given by this list with these filters; ask for the first page again without it.",
                )
            })?,
        };
        Ok(Self {
            limit,
            after,
            path,
            query,
            print,
        })
    }
}

impl<const MOST: u32, const DEFAULT: u32> utoipa::IntoParams for Paging<MOST, DEFAULT> {
    fn into_params(parameter_in: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let whole = if DEFAULT == 0 {
            "leave it out for the whole list".to_owned()
        } else {
            format!("{DEFAULT} when left out")
        };
        vec![
            ParameterBuilder::new()
                .name(LIMIT)
                .parameter_in(parameter_in().unwrap_or(ParameterIn::Query))
                .required(Required::False)
                .description(Some(format!(
                    "Rows per page, 1 to {MOST} ({whole}); a `Link: <…>; rel=\"next\"` header names the next page while more remain."
                )))
                .schema(Some(
                    ObjectBuilder::new()
                        .schema_type(Type::Integer)
                        .minimum(Some(1))
                        .maximum(Some(MOST)),
                ))
                .build(),
            ParameterBuilder::new()
                .name(CURSOR)
                .parameter_in(parameter_in().unwrap_or(ParameterIn::Query))
                .required(Required::False)
                .description(Some(
                    "Where the page starts: only as the previous page's `Link` header gives it (opaque; blank for the first page; another list's, another caller's or a made-up cursor is a 400).",
                ))
                .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
                .build(),
        ]
    }
}

/// The client's cursor for the service's `keyset` in the list whose fingerprint is `print`.
fn cursor(print: u64, keyset: &str) -> String {
    URL_SAFE_NO_PAD.encode(format!("{print:016x}{keyset}"))
}

/// The service's keyset in a client's `cursor`, if it was given by the list whose fingerprint is
/// `print`.
fn keyset(print: u64, cursor: &str) -> Option<String> {
    let text = String::from_utf8(URL_SAFE_NO_PAD.decode(cursor).ok()?).ok()?;
    let (given, keyset) = text.split_at_checked(16)?;
    (given == format!("{print:016x}") && !keyset.is_empty()).then(|| keyset.to_owned())
}

/// FNV-1a over the list's path, its filters and its caller: the same in every gateway replica
/// and release.
fn fingerprint(path: &str, query: &[(String, String)], caller: Option<&str>) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let filters = query.iter().flat_map(|(k, v)| [k.as_str(), v.as_str()]);
    let parts = std::iter::once(path).chain(filters).chain(caller);
    for part in parts {
        for byte in part.bytes().chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

#[cfg(test)]
mod tests {
    use axum::http::{Request, StatusCode};

    use super::*;

    async fn paging<const MOST: u32, const DEFAULT: u32>(
        uri: &str,
    ) -> Result<Paging<MOST, DEFAULT>, ApiError> {
        let (mut parts, ()) = Request::get(uri).body(()).unwrap().into_parts();
        Paging::<MOST, DEFAULT>::from_request_parts(&mut parts, &()).await
    }

    fn next_link(response: &Response) -> Option<String> {
        response
            .headers()
            .get(header::LINK)
            .map(|v| v.to_str().unwrap().to_owned())
    }

    #[tokio::test]
    async fn without_a_limit_the_list_is_whole_unless_it_pages_by_default() {
        let whole = paging::<100, 0>("/api/bookings").await.unwrap();
        assert_eq!((whole.limit(), whole.after()), (0, String::new()));
        let paged = paging::<100, 20>("/api/coach/x/reviews").await.unwrap();
        assert_eq!(paged.limit(), 20);
    }

    #[tokio::test]
    async fn a_limit_outside_the_list_s_range_is_a_400_naming_the_range() {
        for bad in ["0", "101", "-1", "ten", "1.5", ""] {
            let refused = paging::<100, 0>(&format!("/api/bookings?limit={bad}"))
                .await
                .unwrap_err();
            assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{bad}");
            assert!(refused.detail.contains("1 to 100"), "{bad}: {}", refused.detail);
        }
    }

    #[tokio::test]
    async fn the_next_link_keeps_the_filters_and_its_cursor_gives_the_service_its_keyset_back() {
        let first = paging::<100, 0>("/api/admin/users?role=coach&limit=2&q=ann")
            .await
            .unwrap();
        let response = first.respond(vec![1, 2], "[\"k\",1]", Some(7));
        assert_eq!(response.headers()["x-total-count"], "7");
        let link = next_link(&response).unwrap();
        assert!(
            link.starts_with("</api/admin/users?q=ann&role=coach&limit=2&cursor="),
            "{link}"
        );
        assert!(link.ends_with(">; rel=\"next\""), "{link}");
        let next_uri = &link[1..link.find('>').unwrap()];
        let second = paging::<100, 0>(next_uri).await.unwrap();
        assert_eq!((second.limit(), second.after()), (2, "[\"k\",1]".to_owned()));
    }

    #[tokio::test]
    async fn the_last_page_has_no_link() {
        let page = paging::<100, 0>("/api/bookings?limit=5").await.unwrap();
        assert_eq!(next_link(&page.respond(vec![1], "", None)), None);
    }

    #[tokio::test]
    async fn a_made_up_cursor_or_one_of_other_filters_or_another_list_is_a_400() {
        let first = paging::<100, 0>("/api/admin/users?role=coach&limit=2")
            .await
            .unwrap();
        let link = next_link(&first.respond(vec![1, 2], "[\"k\",1]", None)).unwrap();
        let cursor = link.split("cursor=").nth(1).unwrap().split('>').next().unwrap();
        for uri in [
            "/api/admin/users?role=coach&limit=2&cursor=not-a-cursor".to_owned(),
            "/api/admin/users?role=coach&limit=2&cursor=%2F%2F%2F".to_owned(),
            format!("/api/admin/users?role=gym&limit=2&cursor={cursor}"),
            format!("/api/bookings?role=coach&limit=2&cursor={cursor}"),
            format!("/api/admin/users?role=coach&cursor={cursor}"),
        ] {
            let refused = paging::<100, 0>(&uri).await.unwrap_err();
            assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{uri}");
            assert!(refused.detail.contains("cursor"), "{uri}: {}", refused.detail);
        }
    }
}
