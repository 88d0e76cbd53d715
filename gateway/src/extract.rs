//! Extractors whose rejections are [`ApiError`]s with a `detail`: JSON bodies, query strings and
//! the signed-in [`Session`].

use std::{
    fmt,
    marker::PhantomData,
    net::{IpAddr, SocketAddr},
    str::FromStr,
    sync::Arc,
};

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

/// The client's address, as [`client_address`] found it for the request (the peer address when
/// that layer is not in front, as in a handler's unit test).
pub struct ClientIp(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let found = parts.extensions.get::<ClientAddress>().map(|a| a.0).or_else(|| {
            parts
                .extensions
                .get::<axum::extract::ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip().to_canonical())
        });
        Ok(ClientIp(
            found.map_or_else(|| "unknown".to_owned(), |ip| ip.to_string()),
        ))
    }
}

/// The client address [`client_address`] found, in the request's extensions.
#[derive(Clone, Copy, Debug)]
struct ClientAddress(IpAddr);

/// A range of addresses: `10.0.0.0/8`, `fd00::/8`, or one address (`127.0.0.1`, `::1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    network: IpAddr,
    prefix: u8,
}

impl Cidr {
    /// Whether `ip` is in the range (an IPv4-mapped IPv6 address counts as its IPv4 address).
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.network, ip.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(self.prefix)).unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX.checked_shl(128 - u32::from(self.prefix)).unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let invalid = || format!("{text:?} is not an address or a range such as 10.0.0.0/8");
        let (address, prefix) = text.split_once('/').map_or((text, None), |(a, p)| (a, Some(p)));
        let network: IpAddr = address.parse().map_err(|_| invalid())?;
        let network = network.to_canonical();
        let bits = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => bits,
            Some(p) => p.parse::<u8>().ok().filter(|p| *p <= bits).ok_or_else(invalid)?,
        };
        Ok(Cidr { network, prefix })
    }
}

/// The proxies whose `X-Forwarded-For` the gateway believes (`TRUSTED_PROXIES`): nginx, and
/// whatever stands in front of it (a Kubernetes Ingress).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrustedProxies(Arc<[Cidr]>);

impl TrustedProxies {
    /// The loopback addresses only: nginx beside the gateway on one machine.
    pub fn loopback() -> Self {
        Self(Arc::from(
            ["127.0.0.0/8", "::1"].map(|c| c.parse::<Cidr>().expect("a valid range")),
        ))
    }

    /// Nobody: `X-Forwarded-For` is never believed.
    pub fn none() -> Self {
        Self(Arc::from([]))
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|range| range.contains(ip))
    }

    /// The client's address: the peer's when the peer is not a trusted proxy (whatever
    /// `X-Forwarded-For` says); otherwise `X-Forwarded-For` read from the right, each trusted
    /// proxy skipped, up to the first address that is not one. An entry that is not an address
    /// ends the walk at the last address found.
    pub fn client(&self, peer: IpAddr, forwarded_for: &[&str]) -> IpAddr {
        let mut client = peer.to_canonical();
        if !self.trusts(client) {
            return client;
        }
        let entries = forwarded_for.iter().rev().flat_map(|value| value.rsplit(','));
        for entry in entries {
            let Ok(ip) = entry.trim().parse::<IpAddr>() else {
                break;
            };
            client = ip.to_canonical();
            if !self.trusts(client) {
                break;
            }
        }
        client
    }
}

impl FromStr for TrustedProxies {
    type Err = String;

    /// A comma-separated list of addresses and ranges, or `none`.
    fn from_str(text: &str) -> Result<Self, String> {
        if text.trim().eq_ignore_ascii_case("none") {
            return Ok(Self::none());
        }
        let ranges = text
            .split(',')
            .filter(|part| !part.trim().is_empty())
            .map(str::parse)
            .collect::<Result<Vec<Cidr>, String>>()?;
        Ok(Self(Arc::from(ranges)))
    }
}

/// The layer in front of every route that finds the client's address ([`TrustedProxies::client`])
/// once, for the rate limits and the anonymous idempotency scope ([`ClientIp`]).
pub async fn client_address(
    axum::extract::State(trusted): axum::extract::State<TrustedProxies>,
    mut request: Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let peer = request
        .extensions()
        .get::<axum::extract::ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    if let Some(peer) = peer {
        let forwarded_for: Vec<&str> = request
            .headers()
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .collect();
        let client = trusted.client(peer, &forwarded_for);
        request.extensions_mut().insert(ClientAddress(client));
    }
    next.run(request).await
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
    use std::net::IpAddr;

    use serde::Deserialize;

    use super::{Cidr, Object, TrustedProxies, has_nul_escape, is_json};

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_range_holds_the_addresses_under_its_prefix() {
        let range: Cidr = "10.42.0.0/16".parse().unwrap();
        assert!(range.contains(ip("10.42.7.1")));
        assert!(!range.contains(ip("10.43.0.1")));
        assert!(range.contains(ip("::ffff:10.42.0.9")));
        let one: Cidr = "::1".parse().unwrap();
        assert!(one.contains(ip("::1")));
        assert!(!one.contains(ip("::2")));
        let all: Cidr = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains(ip("203.0.113.9")));
        for bad in ["10.0.0.0/33", "ten", "10.0.0.0/", "::/129"] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad}");
        }
    }

    #[test]
    fn forwarded_for_is_believed_only_from_a_trusted_peer_and_read_from_the_right() {
        let trusted: TrustedProxies = "127.0.0.1, 10.0.0.0/8".parse().unwrap();
        // An untrusted peer: its header is ignored.
        assert_eq!(
            trusted.client(ip("198.51.100.7"), &["203.0.113.1"]),
            ip("198.51.100.7")
        );
        // Behind nginx: the address nginx appended.
        assert_eq!(
            trusted.client(ip("127.0.0.1"), &["203.0.113.1"]),
            ip("203.0.113.1")
        );
        // A forged left part is skipped: the first untrusted address from the right wins.
        assert_eq!(
            trusted.client(ip("127.0.0.1"), &["6.6.6.6, 203.0.113.1, 10.1.2.3"]),
            ip("203.0.113.1")
        );
        // Two headers read as one list, the later last.
        assert_eq!(
            trusted.client(ip("127.0.0.1"), &["6.6.6.6", "203.0.113.1"]),
            ip("203.0.113.1")
        );
        // Nothing but proxies, or no header: the last proxy is all there is.
        assert_eq!(trusted.client(ip("127.0.0.1"), &["10.1.2.3"]), ip("10.1.2.3"));
        assert_eq!(trusted.client(ip("127.0.0.1"), &[]), ip("127.0.0.1"));
        // Garbage ends the walk.
        assert_eq!(
            trusted.client(ip("127.0.0.1"), &["203.0.113.1, junk"]),
            ip("127.0.0.1")
        );
        assert_eq!(
            TrustedProxies::none().client(ip("127.0.0.1"), &["203.0.113.1"]),
            ip("127.0.0.1")
        );
        assert_eq!("none".parse::<TrustedProxies>().unwrap(), TrustedProxies::none());
        assert!("10.0.0.0/8, nonsense".parse::<TrustedProxies>().is_err());
    }

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
