//! HTTP caching of the large answers every caller shares (the coach directory): a weak ETag of
//! the body, `If-None-Match` answered with 304, and the body gzipped once for clients whose
//! `Accept-Encoding` takes it.

use axum::{
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};

use crate::{
    error::ApiError,
    memo::{Rendered, json_response},
};

/// `json` ready to be served with caching: gzipped once, with its ETag.
pub fn rendered(json: Vec<u8>) -> Result<Rendered, ApiError> {
    let gzip = gzip(&json).map_err(ApiError::internal)?;
    Ok(Rendered {
        etag: Some(HeaderValue::from_str(&etag(&json)).map_err(ApiError::internal)?),
        json: json.into(),
        gzip: Some(gzip.into()),
    })
}

/// The answer to a request for `rendered` (made by [`rendered`]): 304 when `If-None-Match` names
/// its tag, else the body, gzipped when the client takes gzip; always revalidated (`no-cache`).
pub fn respond(headers: &HeaderMap, rendered: Rendered) -> Result<Response, ApiError> {
    let etag = rendered
        .etag
        .clone()
        .ok_or_else(|| ApiError::internal("an answer rendered without its ETag"))?;
    let cache = [
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::ETAG, etag),
        (header::VARY, HeaderValue::from_static("Accept-Encoding")),
    ];
    if if_none_match(headers, &rendered) {
        return Ok((StatusCode::NOT_MODIFIED, cache).into_response());
    }
    match rendered.gzip.filter(|_| accepts_gzip(headers)) {
        Some(gzip) => Ok((
            cache,
            [(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"))],
            json_response(gzip),
        )
            .into_response()),
        None => Ok((cache, json_response(rendered.json)).into_response()),
    }
}

/// A weak ETag of `body` (weak: one validator for the plain and the gzipped answer): 64-bit
/// FNV-1a and the length, stable across replicas and releases. The body is hashed, not the
/// stamps, so two replicas agree and a change that alters nothing keeps the tag.
pub(crate) fn etag(body: &[u8]) -> String {
    let hash = body.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("W/\"{hash:016x}-{:x}\"", body.len())
}

fn gzip(body: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Write;
    let mut encoder =
        flate2::write::GzEncoder::new(Vec::with_capacity(body.len() / 4), flate2::Compression::new(6));
    encoder.write_all(body)?;
    encoder.finish()
}

/// Whether the client takes gzip (`Accept-Encoding: gzip`, not with `q=0`).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let refused = parts.any(|p| p.replace(' ', "").eq_ignore_ascii_case("q=0"));
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// Whether `If-None-Match` names the answer's tag (weak comparison, as RFC 9110 asks for this
/// header).
fn if_none_match(headers: &HeaderMap, rendered: &Rendered) -> bool {
    let Some(tag) = rendered.etag.as_ref().and_then(|t| t.to_str().ok()) else {
        return false;
    };
    names_tag(headers, tag)
}

/// Whether `If-None-Match` names `tag` (weak comparison).
pub(crate) fn names_tag(headers: &HeaderMap, tag: &str) -> bool {
    let tag = tag.trim_start_matches("W/");
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|candidate| candidate == "*" || candidate.trim_start_matches("W/") == tag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_etag_changes_with_the_body_and_is_a_quoted_weak_tag() {
        let a = etag(br#"[{"coach_name":"Ann"}]"#);
        let b = etag(br#"[{"coach_name":"Anne"}]"#);
        assert_ne!(a, b);
        assert!(a.starts_with("W/\"") && a.ends_with('"'));
        assert_eq!(a, etag(br#"[{"coach_name":"Ann"}]"#));
    }

    #[test]
    fn if_none_match_accepts_lists_weak_and_strong_forms_and_star() {
        let tag = etag(b"[]");
        let directory = Rendered {
            json: "[]".into(),
            gzip: None,
            etag: Some(HeaderValue::from_str(&tag).unwrap()),
        };
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::IF_NONE_MATCH, HeaderValue::from_str(value).unwrap());
            if_none_match(&headers, &directory)
        };
        let strong = tag.trim_start_matches("W/");
        assert!(with(&tag));
        assert!(with(strong));
        assert!(with(&format!("\"other\", {tag}")));
        assert!(with("*"));
        assert!(!with("\"other\""));
        assert!(!if_none_match(&HeaderMap::new(), &directory));
    }

    #[test]
    fn gzip_is_sent_only_to_clients_that_take_it() {
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(value).unwrap());
            accepts_gzip(&headers)
        };
        assert!(with("gzip, deflate, br"));
        assert!(with("br;q=1.0, gzip;q=0.8"));
        assert!(with("*"));
        assert!(!with("gzip;q=0"));
        assert!(!with("br, identity"));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    #[test]
    fn a_rendered_answer_unzips_to_its_json_and_carries_its_tag() {
        use std::io::Read;
        let json = br#"[{"coach_name":"Ann"}]"#.to_vec();
        let answer = rendered(json.clone()).unwrap();
        let mut unzipped = Vec::new();
        flate2::read::GzDecoder::new(answer.gzip.as_deref().unwrap())
            .read_to_end(&mut unzipped)
            .unwrap();
        assert_eq!(unzipped, json);
        assert_eq!(answer.etag.unwrap().to_str().unwrap(), etag(&json));
    }
}
