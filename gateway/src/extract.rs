//! Extractors whose rejections are [`ApiError`]s with a `detail`: JSON bodies, query strings and
//! the signed-in [`Session`].

use std::{fmt, marker::PhantomData, sync::Arc};

use axum::{
    body::Bytes,
    extract::{FromRequest, FromRequestParts, Request, rejection::JsonRejection},
    http::{StatusCode, request::Parts},
};
use platform::auth::Caller;
use serde::de::{
    Deserialize, DeserializeOwned, Deserializer, MapAccess, Visitor, value::MapAccessDeserializer,
};

use crate::error::ApiError;

/// A JSON object body. Malformed JSON, any other JSON value and wrong types are 400, a wrong
/// media type 415, a body over the limit 413.
pub struct Json<T>(pub T);

impl<S, T> FromRequest<S> for Json<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(req.headers()) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                MEDIA_TYPE_DETAIL,
            ));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "The request body is too large.")
            } else {
                ApiError::bad_request(rejection.body_text())
            }
        })?;
        // PostgreSQL cannot store NUL in text; refuse it here, for every field of every body.
        if has_nul_escape(&bytes) {
            return Err(ApiError::bad_request(NUL_DETAIL));
        }
        match axum::Json::<Object<T>>::from_bytes(&bytes) {
            Ok(axum::Json(Object(value))) => Ok(Json(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

/// A JSON object body that may be left out: no body at all, an empty one or JSON `null` is
/// `T::default()`; a body that is there is read as [`Json`] reads it (the same 400, 413 and 415).
pub struct OptionalJson<T>(pub T);

impl<S, T> FromRequest<S> for OptionalJson<T>
where
    T: DeserializeOwned + Default,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let (parts, body) = req.into_parts();
        let bytes = axum::body::to_bytes(body, crate::BODY_LIMIT)
            .await
            .map_err(|_| ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "The request body is too large."))?;
        let text = bytes.trim_ascii();
        if text.is_empty() || text == b"null" {
            return Ok(OptionalJson(T::default()));
        }
        let request = Request::from_parts(parts, axum::body::Body::from(bytes));
        Json::<T>::from_request(request, state)
            .await
            .map(|Json(value)| OptionalJson(value))
    }
}

const MEDIA_TYPE_DETAIL: &str = "Send the body as JSON with the header Content-Type: application/json.";
const NUL_DETAIL: &str = "Text must not contain NUL characters.";

/// `application/json` or any `+json` type.
pub(crate) fn is_json(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|mime| mime.trim().to_ascii_lowercase())
        .is_some_and(|mime| {
            mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
        })
}

/// Whether a JSON text holds the escape `\u0000` (raw NUL bytes are already invalid JSON).
fn has_nul_escape(bytes: &[u8]) -> bool {
    bytes.windows(6).enumerate().any(|(i, w)| {
        w == b"\\u0000" && bytes[..i].iter().rev().take_while(|b| **b == b'\\').count() % 2 == 0
    })
}

/// Every body is a JSON object: serde would otherwise bind a struct from an array, field by
/// position (`[]` as `{}`, `["x"]` as the first field). Streams straight into `T`, so duplicate
/// and unknown-field rules of `T` still apply.
struct Object<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjectOnly<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectOnly<T> {
            type Value = T;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map))
            }
        }

        deserializer.deserialize_map(ObjectOnly(PhantomData)).map(Object)
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => {
            ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, MEDIA_TYPE_DETAIL)
        }
        JsonRejection::JsonSyntaxError(e) => {
            ApiError::bad_request(format!("The body is not valid JSON: {}", e.body_text()))
        }
        JsonRejection::JsonDataError(e) => ApiError::bad_request(format!(
            "The body has a wrong or missing field: {}",
            e.body_text()
        )),
        other if other.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "The request body is too large.")
        }
        other => ApiError::bad_request(other.body_text()),
    }
}

/// A query string. Missing or wrong-typed parameters are 400.
pub struct Query<T>(pub T);

impl<S, T> FromRequestParts<S> for Query<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        if parts
            .uri
            .query()
            .is_some_and(|q| q.to_ascii_lowercase().contains("%00"))
        {
            return Err(ApiError::bad_request(NUL_DETAIL));
        }
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(v)| Query(v))
            .map_err(|e| ApiError::bad_request(format!("Invalid query parameters: {}", e.body_text())))
    }
}

/// The signed-in caller and the token they came with (forwarded to the services): identity, and
/// nothing about the cache. Present on every route whose access is not public; see
/// `routes::authorize`.
#[derive(Clone, Debug)]
pub struct Session {
    pub caller: Caller,
    pub token: Arc<str>,
}

impl<S: Send + Sync> FromRequestParts<S> for Session {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<Session>()
            .cloned()
            .ok_or_else(|| ApiError::unauthorized("Please sign in to do this."))
    }
}

/// The client's address: the right-most `X-Forwarded-For` entry (the one nginx appended), else
/// the peer address.
pub struct ClientIp(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let forwarded = parts
            .headers
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty());
        let peer = parts
            .extensions
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
            .map(|c| c.0.ip().to_string());
        Ok(ClientIp(
            forwarded.or(peer).unwrap_or_else(|| "unknown".to_owned()),
        ))
    }
}

/// The one path parameter of a route, as text: the owning service validates it (a malformed id is
/// its 400 "x must be a UUID"). A path that cannot be decoded is a 400 with a detail too.
pub(crate) struct PathId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for PathId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<String>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(id)| PathId(id))
            .map_err(|e| ApiError::bad_request(format!("Invalid path: {}", e.body_text())))
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::{Object, has_nul_escape, is_json};

    #[test]
    fn a_nul_escape_is_found_but_an_escaped_backslash_before_u0000_is_not() {
        assert!(has_nul_escape(br#"{"name": "a\u0000b"}"#));
        assert!(!has_nul_escape(br#"{"name": "a\\u0000b"}"#));
        assert!(!has_nul_escape(br#"{"name": "plain"}"#));
    }

    #[test]
    fn json_and_plus_json_media_types_are_json() {
        let mut headers = axum::http::HeaderMap::new();
        headers.insert(
            axum::http::header::CONTENT_TYPE,
            "application/json; charset=utf-8".parse().unwrap(),
        );
        assert!(is_json(&headers));
        headers.insert(
            axum::http::header::CONTENT_TYPE,
            "application/problem+json".parse().unwrap(),
        );
        assert!(is_json(&headers));
        headers.insert(axum::http::header::CONTENT_TYPE, "text/plain".parse().unwrap());
        assert!(!is_json(&headers));
    }

    #[derive(Debug, Deserialize)]
    struct Body {
        #[serde(default)]
        name: Option<String>,
    }

    fn parse(json: &str) -> Result<Option<String>, serde_json::Error> {
        serde_json::from_str::<Object<Body>>(json).map(|Object(b)| b.name)
    }

    #[test]
    fn only_an_object_binds_a_body() {
        assert_eq!(parse(r#"{"name": "x"}"#).unwrap().as_deref(), Some("x"));
        assert_eq!(parse("{}").unwrap(), None);
        for other in ["[]", r#"["x"]"#, r#""x""#, "42", "null", "true"] {
            assert!(parse(other).is_err(), "{other}");
        }
    }

    #[test]
    fn a_duplicate_field_is_still_refused() {
        assert!(parse(r#"{"name": "a", "name": "b"}"#).is_err());
    }

    #[derive(Debug, Default, Deserialize)]
    struct Reason {
        #[serde(default)]
        reason: Option<String>,
    }

    async fn optional(content_type: Option<&str>, body: &str) -> Result<Option<String>, (u16, String)> {
        use axum::extract::FromRequest;
        let mut request = axum::http::Request::builder().method("PATCH").uri("/");
        if let Some(content_type) = content_type {
            request = request.header(axum::http::header::CONTENT_TYPE, content_type);
        }
        let request = request.body(axum::body::Body::from(body.to_owned())).unwrap();
        super::OptionalJson::<Reason>::from_request(request, &())
            .await
            .map(|super::OptionalJson(r)| r.reason)
            .map_err(|e| (e.status.as_u16(), e.detail))
    }

    #[tokio::test]
    async fn an_optional_body_left_out_is_the_default_and_one_given_is_read_as_json() {
        assert_eq!(optional(None, "").await.unwrap(), None);
        assert_eq!(optional(Some("application/json"), "  \n").await.unwrap(), None);
        // The document lets the body be null (schemathesis sends it): as if left out.
        assert_eq!(optional(Some("application/json"), " null ").await.unwrap(), None);
        assert_eq!(
            optional(Some("application/json"), r#"{"reason": "Flooded"}"#)
                .await
                .unwrap()
                .as_deref(),
            Some("Flooded")
        );
        assert_eq!(optional(Some("application/json"), "{}").await.unwrap(), None);
        let (status, _) = optional(Some("application/json"), r#"{"reason": 5}"#)
            .await
            .unwrap_err();
        assert_eq!(status, 400);
        let (status, _) = optional(Some("application/json"), "[]").await.unwrap_err();
        assert_eq!(status, 400);
        let (status, _) = optional(Some("text/plain"), "Flooded").await.unwrap_err();
        assert_eq!(status, 415);
        let (status, _) = optional(None, r#"{"reason": "x"}"#).await.unwrap_err();
        assert_eq!(status, 415);
    }
}
