//! The committed OpenAPI document (`gateway/openapi.json`) is the one the gateway serves at
//! `/api/openapi.json`: the linters of the static stage and the web app's generated types read the
//! committed copy, so it must not drift from the code.
//!
//! `OPENAPI_SNAPSHOT=write` rewrites the committed copy instead of comparing (`./deploy/openapi.sh`
//! does that, then regenerates the web types).

use std::path::PathBuf;

const REFRESH: &str = "./deploy/openapi.sh";

fn snapshot_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("openapi.json")
}

/// The document `GET /api/openapi.json` answers (the route table's, as [`gateway::routes::api`]
/// serves it), pretty-printed with sorted keys (so the committed copy diffs line by line and does
/// not depend on map order).
fn served_document() -> String {
    let document = serde_json::to_value(gateway::routes::document()).expect("the document serialises");
    let mut text = serde_json::to_string_pretty(&document).expect("the document serialises");
    text.push('\n');
    text
}

/// The first line where the two texts differ, to point at in the failure message.
fn first_difference(committed: &str, served: &str) -> String {
    let mut committed_lines = committed.lines();
    let mut served_lines = served.lines();
    for number in 1.. {
        match (committed_lines.next(), served_lines.next()) {
            (Some(a), Some(b)) if a == b => {}
            (None, None) => break,
            (a, b) => {
                return format!(
                    "first difference at line {number}:\n  committed: {}\n  served:    {}",
                    a.unwrap_or("(end of file)"),
                    b.unwrap_or("(end of document)")
                );
            }
        }
    }
    "the texts differ only in their line endings".to_owned()
}

#[test]
fn the_committed_openapi_document_is_the_one_the_gateway_serves() {
    let served = served_document();
    let path = snapshot_path();
    if std::env::var("OPENAPI_SNAPSHOT").as_deref() == Ok("write") {
        std::fs::write(&path, &served).expect("gateway/openapi.json is writable");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == served,
        "gateway/openapi.json is not the document the gateway serves; run {REFRESH} to refresh it \
         (and commit it with the web types it regenerates).\n{}",
        first_difference(&committed, &served)
    );
}
