//! What the gateway remembers of the answers it rendered, so a read whose data has not changed
//! costs one Redis round trip (read beside the token check's, see `routes::authorize`) instead of
//! calls to the services and PostgreSQL. Which answers, keyed by what, and which writes clear them
//! is declared in one place, `routes::cache`; this module is the memory itself.
//!
//! Each entry is keyed by what was asked (a route and its id) and stamped with the change stamps
//! of the data it shows ([`platform::stamps`]): it is served only while those stamps read the
//! same, and never after [`MAX_AGE`]. Only answers that are the same for every caller the route
//! admits are remembered; the route's role gate still runs on every request.
//!
//! Hand-written rather than a cache crate such as moka: besides per-key single-flight and an age
//! limit (which moka has), it serves a still-valid answer while one request renders it afresh
//! ([`REFRESH_AFTER`]) and serves it when that render fails, and validity is a stamp compared on
//! every read rather than an eviction; moka would need the same code around it.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use axum::{
    body::Bytes,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use platform::stamps::Context;
use serde::Serialize;

use crate::error::ApiError;

/// The longest an entry is served, even while its stamps hold: it bounds how stale an answer
/// can be when a service could not renew a stamp (Redis unreachable from it alone).
pub const MAX_AGE: Duration = Duration::from_secs(60);
/// From this age on, the first request to find an entry renders it afresh while the others are
/// still served the remembered one: an entry ageing out under steady traffic costs one request a
/// render instead of making every request in flight wait for it.
pub const REFRESH_AFTER: Duration = Duration::from_secs(45);
/// How many bytes of answers are remembered before the memory starts again from empty.
const BUDGET: usize = 8 << 20;
/// How many render locks are kept before they are forgotten.
const GATES_CAPACITY: usize = 4096;
/// How many user names are remembered before that memory starts again from empty.
const NAMES_CAPACITY: usize = 50_000;

tokio::task_local! {
    /// The change stamps read for the request being served ([`with_stamps`]).
    static REQUEST_STAMPS: Stamps;
}

/// Serves `request` with `stamps` as the change stamps every remembered answer and name of it is
/// checked against ([`stamps`]).
pub async fn with_stamps<F: Future>(stamps: Stamps, request: F) -> F::Output {
    REQUEST_STAMPS.scope(stamps, request).await
}

/// The change stamps read for the request being served: all unknown (nothing remembered is
/// served) outside [`with_stamps`].
pub fn stamps() -> Stamps {
    REQUEST_STAMPS.try_with(Stamps::clone).unwrap_or_default()
}

/// The change stamps read with a request, in [`Context::ALL`] order; `None` where Redis had
/// none (or could not be asked).
#[derive(Clone, Debug, Default)]
pub struct Stamps([Option<String>; 3]);

impl Stamps {
    pub fn new(values: [Option<String>; 3]) -> Self {
        Self(values)
    }

    fn get(&self, context: Context) -> Option<&str> {
        let index = Context::ALL.iter().position(|c| *c == context)?;
        self.0[index].as_deref()
    }

    /// The contexts whose stamp was not there.
    pub fn missing(&self) -> impl Iterator<Item = Context> + '_ {
        Context::ALL
            .into_iter()
            .zip(&self.0)
            .filter(|(_, value)| value.is_none())
            .map(|(context, _)| context)
    }

    /// The stamps of `contexts` as one value, or `None` when any of them is unknown (then
    /// nothing may be served from memory or remembered).
    pub fn of(&self, contexts: &[Context]) -> Option<String> {
        let values: Option<Vec<&str>> = contexts.iter().map(|c| self.get(*c)).collect();
        values.map(|v| v.join("."))
    }
}

/// An answer as sent: its JSON, and for the large ones their gzip and ETag.
#[derive(Clone)]
pub struct Rendered {
    pub json: Bytes,
    pub gzip: Option<Bytes>,
    pub etag: Option<HeaderValue>,
}

impl Rendered {
    fn size(&self) -> usize {
        self.json.len() + self.gzip.as_ref().map_or(0, Bytes::len)
    }
}

struct Entry {
    stamp: String,
    at: Instant,
    rendered: Rendered,
}

#[derive(Default)]
struct Entries {
    map: HashMap<String, Entry>,
    bytes: usize,
}

/// Remembered answers and user names; one per gateway, shared by all its requests.
#[derive(Default)]
pub struct Memo {
    answers: Mutex<Entries>,
    names: Mutex<Names>,
    gates: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

/// User names under the names stamp they were read with.
#[derive(Default)]
struct Names {
    stamp: String,
    by_id: HashMap<String, String>,
}

fn key(what: &str, id: &str) -> String {
    format!("{what}/{id}")
}

impl Memo {
    /// The answer to `what`/`id`, if remembered under `stamp` less than [`MAX_AGE`] ago.
    pub fn get(&self, what: &str, id: &str, stamp: &str) -> Option<Rendered> {
        self.lookup(what, id, stamp).map(|(rendered, _)| rendered)
    }

    /// [`get`](Self::get), with how long ago the answer was rendered.
    fn lookup(&self, what: &str, id: &str, stamp: &str) -> Option<(Rendered, Duration)> {
        let answers = self.answers.lock().ok()?;
        let entry = answers.map.get(&key(what, id))?;
        let age = entry.at.elapsed();
        (entry.stamp == stamp && age < MAX_AGE).then(|| (entry.rendered.clone(), age))
    }

    /// Remembers the answer to `what`/`id`, rendered after `stamp` was read.
    pub fn put(&self, what: &str, id: &str, stamp: String, rendered: Rendered) {
        let Ok(mut answers) = self.answers.lock() else {
            return;
        };
        let size = rendered.size();
        if answers.bytes + size > BUDGET {
            answers.map.clear();
            answers.bytes = 0;
        }
        if size > BUDGET {
            return;
        }
        answers.bytes += size;
        let entry = Entry {
            stamp,
            at: Instant::now(),
            rendered,
        };
        if let Some(old) = answers.map.insert(key(what, id), entry) {
            answers.bytes -= old.rendered.size();
        }
    }

    /// The answer to `what`/`id`: from memory while `stamp` holds, otherwise rendered by `render`
    /// and remembered. One request per key renders at a time: the others wait for it and take what
    /// it remembered, so an answer going stale under load costs one render, not one per request
    /// in flight. An answer older than [`REFRESH_AFTER`] is rendered afresh by the one request
    /// that finds the key's gate free; meanwhile the others are served it without waiting. Without
    /// a stamp (Redis unreachable) every request renders.
    pub async fn get_or_render<Fut>(
        &self,
        what: &str,
        id: &str,
        stamp: Option<String>,
        render: impl FnOnce() -> Fut,
    ) -> Result<Rendered, ApiError>
    where
        Fut: Future<Output = Result<Rendered, ApiError>>,
    {
        let Some(stamp) = stamp else {
            return render().await;
        };
        // Old but still valid, it is served to anyone who finds another request renewing it.
        let remembered = match self.lookup(what, id, &stamp) {
            Some((rendered, age)) if age < REFRESH_AFTER => return Ok(rendered),
            remembered => remembered.map(|(rendered, _)| rendered),
        };
        let gate = self.gate(what, id);
        let _turn = match gate.try_lock() {
            Ok(turn) => turn,
            Err(_) => {
                if let Some(rendered) = remembered {
                    return Ok(rendered);
                }
                gate.lock().await
            }
        };
        // The request that held the gate may have just rendered it.
        if let Some((rendered, age)) = self.lookup(what, id, &stamp)
            && age < REFRESH_AFTER
        {
            return Ok(rendered);
        }
        match render().await {
            Ok(fresh) => {
                self.put(what, id, stamp, fresh.clone());
                Ok(fresh)
            }
            Err(error) => match remembered {
                Some(rendered) => {
                    tracing::warn!(
                        ?error,
                        what,
                        "rendering afresh failed; serving the answer remembered"
                    );
                    Ok(rendered)
                }
                None => Err(error),
            },
        }
    }

    /// The JSON answer to `what`/`id`, as [`get_or_render`](Self::get_or_render) gives it.
    pub async fn json<T: Serialize>(
        &self,
        what: &str,
        id: &str,
        stamp: Option<String>,
        render: impl Future<Output = Result<T, ApiError>>,
    ) -> Result<Response, ApiError> {
        let rendered = self
            .get_or_render(what, id, stamp, || async {
                let json = serde_json::to_vec(&render.await?).map_err(ApiError::internal)?;
                Ok(Rendered {
                    json: json.into(),
                    gzip: None,
                    etag: None,
                })
            })
            .await?;
        Ok(json_response(rendered.json))
    }

    /// The lock that lets one request at a time render `what`/`id`.
    fn gate(&self, what: &str, id: &str) -> Arc<tokio::sync::Mutex<()>> {
        let Ok(mut gates) = self.gates.lock() else {
            return Arc::default();
        };
        // Forgetting gates in use is harmless: at worst two requests render one answer.
        if gates.len() >= GATES_CAPACITY {
            gates.clear();
        }
        gates.entry(key(what, id)).or_default().clone()
    }

    /// Moves the names of `ids` known under `stamp` into `found`, leaving in `ids` the ones to ask
    /// identity-svc for.
    pub fn recall_names(&self, stamp: &str, ids: &mut Vec<String>, found: &mut HashMap<String, String>) {
        let Ok(names) = self.names.lock() else {
            return;
        };
        if names.stamp != stamp {
            return;
        }
        ids.retain(|id| match names.by_id.get(id) {
            Some(name) => {
                found.insert(id.clone(), name.clone());
                false
            }
            None => true,
        });
    }

    /// Remembers names read from identity-svc after `stamp` was read.
    pub fn remember_names(&self, stamp: &str, read: &HashMap<String, String>) {
        let Ok(mut names) = self.names.lock() else {
            return;
        };
        if names.stamp != stamp || names.by_id.len() + read.len() > NAMES_CAPACITY {
            names.by_id.clear();
            stamp.clone_into(&mut names.stamp);
        }
        names
            .by_id
            .extend(read.iter().map(|(id, name)| (id.clone(), name.clone())));
    }
}

/// A `200 application/json` response of already serialized JSON.
pub fn json_response(json: Bytes) -> Response {
    (
        [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))],
        json,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rendered(json: &'static str) -> Rendered {
        Rendered {
            json: Bytes::from_static(json.as_bytes()),
            gzip: None,
            etag: None,
        }
    }

    #[test]
    fn an_answer_is_served_only_under_the_stamp_it_was_rendered_with() {
        let memo = Memo::default();
        memo.put("profile", "c1", "s1".into(), rendered("{\"a\":1}"));
        assert!(memo.get("profile", "c1", "s1").is_some());
        assert!(memo.get("profile", "c1", "s2").is_none());
        assert!(memo.get("profile", "c2", "s1").is_none());
        assert!(memo.get("slots", "c1", "s1").is_none());
    }

    #[tokio::test]
    async fn requests_that_miss_together_render_once() {
        let memo = std::sync::Arc::new(Memo::default());
        let renders = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let requests = (0..16).map(|_| {
            let (memo, renders) = (memo.clone(), renders.clone());
            tokio::spawn(async move {
                memo.get_or_render("directory", "", Some("s1".into()), || async {
                    renders.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    Ok(rendered("[]"))
                })
                .await
                .map(|r| r.json)
            })
        });
        for answer in futures::future::join_all(requests).await {
            assert_eq!(answer.unwrap().unwrap(), Bytes::from_static(b"[]"));
        }
        assert_eq!(renders.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    /// Puts `json` under `stamp` as if it had been rendered `age` ago.
    fn put_aged(memo: &Memo, stamp: &str, json: &'static str, age: Duration) {
        memo.put("directory", "", stamp.into(), rendered(json));
        let mut answers = memo.answers.lock().unwrap();
        let entry = answers.map.get_mut(&key("directory", "")).unwrap();
        entry.at = Instant::now().checked_sub(age).unwrap();
    }

    #[tokio::test]
    async fn an_old_answer_is_rendered_afresh_by_one_request_while_the_others_are_served_at_once() {
        let memo = std::sync::Arc::new(Memo::default());
        put_aged(&memo, "s1", "\"old\"", REFRESH_AFTER + Duration::from_secs(1));
        let (release, hold) = tokio::sync::oneshot::channel::<()>();
        let refreshing = {
            let memo = memo.clone();
            tokio::spawn(async move {
                memo.get_or_render("directory", "", Some("s1".into()), || async {
                    hold.await.unwrap();
                    Ok(rendered("\"new\""))
                })
                .await
                .map(|r| r.json)
            })
        };
        tokio::task::yield_now().await;
        while memo.gate("directory", "").try_lock().is_ok() {
            tokio::task::yield_now().await;
        }

        // While the refresh is under way, another request neither waits nor renders.
        let meanwhile = tokio::time::timeout(
            Duration::from_millis(500),
            memo.get_or_render("directory", "", Some("s1".into()), || async {
                panic!("a second render while one is under way")
            }),
        )
        .await
        .expect("served without waiting for the refresh");
        assert_eq!(meanwhile.unwrap().json, Bytes::from_static(b"\"old\""));

        release.send(()).unwrap();
        assert_eq!(refreshing.await.unwrap().unwrap(), Bytes::from_static(b"\"new\""));
        assert_eq!(
            memo.get("directory", "", "s1").map(|r| r.json),
            Some(Bytes::from_static(b"\"new\""))
        );
    }

    #[tokio::test]
    async fn a_refresh_that_fails_serves_the_answer_still_valid_and_one_past_max_age_is_not_served() {
        let memo = Memo::default();
        put_aged(&memo, "s1", "\"old\"", REFRESH_AFTER + Duration::from_secs(1));
        let answer = memo
            .get_or_render("directory", "", Some("s1".into()), || async {
                Err(ApiError::internal("coaching-svc is down"))
            })
            .await;
        assert_eq!(answer.unwrap().json, Bytes::from_static(b"\"old\""));

        put_aged(&memo, "s1", "\"old\"", MAX_AGE + Duration::from_secs(1));
        let answer = memo
            .get_or_render("directory", "", Some("s1".into()), || async {
                Err(ApiError::internal("coaching-svc is down"))
            })
            .await;
        assert!(answer.is_err(), "an answer past MAX_AGE was served");
    }

    #[test]
    fn the_memory_stays_within_its_budget() {
        let memo = Memo::default();
        let big: &'static str = Box::leak("x".repeat(BUDGET / 3).into_boxed_str());
        for n in 0..10 {
            memo.put("big", &n.to_string(), "s".into(), rendered(big));
        }
        let answers = memo.answers.lock().unwrap();
        assert!(answers.bytes <= BUDGET, "{} bytes", answers.bytes);
        assert_eq!(
            answers.bytes,
            answers.map.values().map(|e| e.rendered.size()).sum::<usize>()
        );
    }

    #[test]
    fn stamps_of_several_contexts_need_all_of_them() {
        let stamps = Stamps::new([Some("c".into()), None, Some("n".into())]);
        assert_eq!(
            stamps.of(&[Context::Coaching, Context::Names]).as_deref(),
            Some("c.n")
        );
        assert_eq!(stamps.of(&[Context::Gym]), None);
        assert_eq!(stamps.missing().collect::<Vec<_>>(), vec![Context::Gym]);
    }

    #[test]
    fn names_are_forgotten_when_the_names_stamp_changes() {
        let memo = Memo::default();
        let read = HashMap::from([("u1".to_owned(), "Ann".to_owned())]);
        memo.remember_names("n1", &read);
        let (mut ids, mut found) = (vec!["u1".to_owned(), "u2".to_owned()], HashMap::new());
        memo.recall_names("n1", &mut ids, &mut found);
        assert_eq!(
            (ids, found.get("u1").map(String::as_str)),
            (vec!["u2".to_owned()], Some("Ann"))
        );

        let (mut ids, mut found) = (vec!["u1".to_owned()], HashMap::new());
        memo.recall_names("n2", &mut ids, &mut found);
        assert_eq!((ids.len(), found.len()), (1, 0));
    }
}
