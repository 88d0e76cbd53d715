//! Request-level client-side balancing for every gRPC client of the mesh: a `*_URL` value (one URL,
//! a comma-separated list of URLs, or a host name that resolves to several addresses, such as a
//! Kubernetes headless Service or a compose service run with `--scale`) becomes one [`Balanced`]
//! service that the generated clients take in place of a `Channel`.
//!
//! What it owns:
//! - the endpoint set: IP literals are fixed; host names are resolved at start and re-resolved
//!   every [`Options::resolve_interval`] through an injectable [`Resolve`]r (tests feed it address
//!   sets with [`FixedResolver`]). An address that appears receives calls from the next resolution
//!   on; one that disappears leaves the set at once and its connection is dropped when the calls
//!   in flight on it have finished;
//! - one lazily connected HTTP/2 connection per endpoint, and the pick of an endpoint per call:
//!   the less loaded of two random endpoints by calls in flight ([`Pick::LeastInFlight`], the
//!   default), or [`Pick::RoundRobin`];
//! - failures: an endpoint whose connection fails leaves the set at once and is reconnected in the
//!   background; a call that never reached its replica (connection refused or reset before the
//!   request was sent) is sent once more to another replica, whatever the method; a read (a
//!   method named `Get…`, `List…`, `Search…`, `Count…`, `Check…` or `Geocode`) or a request
//!   carrying an `idempotency-key` is also sent once more to another replica when its replica died
//!   mid-call; any other write is never resent;
//! - the per-endpoint call counts (`grpc_client_calls_total{service,endpoint}`), the size of each
//!   endpoint set (`grpc_client_endpoints{service,state}`) and the retries
//!   (`grpc_client_retries_total{service,reason}`), for whatever metrics recorder the process
//!   installed.
//!
//! A single endpoint takes a short path: no request is buffered, nothing is resolved in the
//! background, and a call costs what a bare `Channel` call costs plus one counter increment.

use std::{
    collections::{BTreeSet, HashMap},
    error::Error as StdError,
    fmt,
    future::Future,
    io,
    net::{IpAddr, SocketAddr},
    pin::Pin,
    sync::{
        Arc, Mutex, RwLock, Weak,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
    task::{Context, Poll},
    time::Duration,
};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use rand::Rng;
use tonic::{
    body::Body,
    transport::{Channel, Endpoint},
};
use tower::{Service, ServiceExt};

type BoxError = Box<dyn StdError + Send + Sync>;
type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// How a call chooses among the live endpoints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pick {
    /// Power of two choices: of two random endpoints, the one with fewer calls in flight.
    #[default]
    LeastInFlight,
    /// Each endpoint in turn.
    RoundRobin,
}

/// Turns a host name and port into the addresses it currently names.
pub trait Resolve: Send + Sync + 'static {
    /// Every address `host` names now, with `port`.
    fn resolve(&self, host: &str, port: u16) -> BoxFuture<io::Result<Vec<SocketAddr>>>;
}

/// The system resolver (`getaddrinfo`): Docker's embedded DNS, a Kubernetes headless Service.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dns;

impl Resolve for Dns {
    fn resolve(&self, host: &str, port: u16) -> BoxFuture<io::Result<Vec<SocketAddr>>> {
        let host = host.to_owned();
        Box::pin(async move { Ok(tokio::net::lookup_host((host.as_str(), port)).await?.collect()) })
    }
}

/// A resolver whose answers are set by hand: what tests feed the client instead of DNS.
#[derive(Clone, Debug, Default)]
pub struct FixedResolver {
    names: Arc<Mutex<HashMap<String, Vec<SocketAddr>>>>,
}

impl FixedResolver {
    /// From now on, `host` resolves to `addresses` (the port of each is kept as given).
    pub fn set(&self, host: &str, addresses: impl IntoIterator<Item = SocketAddr>) {
        let mut names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        names.insert(host.to_owned(), addresses.into_iter().collect());
    }
}

impl Resolve for FixedResolver {
    fn resolve(&self, host: &str, _port: u16) -> BoxFuture<io::Result<Vec<SocketAddr>>> {
        let names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        let answer = names
            .get(host)
            .cloned()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, format!("{host} is not known")));
        Box::pin(async move { answer })
    }
}

/// How a [`Balanced`] client finds, picks and reconnects its endpoints.
#[derive(Clone)]
pub struct Options {
    /// Names the client in metrics and logs (`booking`, `coaching`).
    pub service: &'static str,
    /// How often host names are resolved again (`GRPC_RESOLVE_INTERVAL_MS`, default 5 s).
    pub resolve_interval: Duration,
    pub pick: Pick,
    pub resolver: Arc<dyn Resolve>,
    /// How long one connection attempt may take.
    pub connect_timeout: Duration,
}

impl Options {
    /// The defaults: DNS re-resolved every 5 s, least in flight of two, 500 ms to connect.
    pub fn new(service: &'static str) -> Self {
        Self {
            service,
            resolve_interval: DEFAULT_RESOLVE_INTERVAL,
            pick: Pick::default(),
            resolver: Arc::new(Dns),
            connect_timeout: Duration::from_millis(500),
        }
    }

    pub fn resolve_interval(mut self, interval: Duration) -> Self {
        self.resolve_interval = interval;
        self
    }

    pub fn pick(mut self, pick: Pick) -> Self {
        self.pick = pick;
        self
    }

    pub fn resolver(mut self, resolver: impl Resolve) -> Self {
        self.resolver = Arc::new(resolver);
        self
    }
}

/// `GRPC_RESOLVE_INTERVAL_MS`'s default.
pub const DEFAULT_RESOLVE_INTERVAL: Duration = Duration::from_secs(5);

/// A `*_URL` value that cannot name endpoints.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UrlError(String);

/// A gRPC client transport over every endpoint a `*_URL` names; cheap to clone (the clones share
/// the endpoint set).
#[derive(Clone)]
pub struct Balanced {
    shared: Arc<Shared>,
}

impl fmt::Debug for Balanced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Balanced")
            .field("service", &self.shared.options.service)
            .field("endpoints", &self.endpoints())
            .finish()
    }
}

/// One endpoint as the client sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndpointState {
    pub address: SocketAddr,
    /// False while its connection has failed and is being retried in the background.
    pub live: bool,
    pub in_flight: usize,
}

/// A client of every endpoint `urls` names (see the module docs). Host names are resolved in the
/// background, so this needs a Tokio runtime when `urls` names a host.
pub fn channel(urls: &str, options: Options) -> Result<Balanced, UrlError> {
    let targets = parse(urls)?;
    let shared = Arc::new(Shared {
        options,
        members: Mutex::new(HashMap::new()),
        live: RwLock::new(Arc::from(Vec::new())),
        every: RwLock::new(Arc::from(Vec::new())),
        turn: AtomicUsize::new(0),
        resolved: tokio::sync::watch::channel(false).0,
    });
    let fixed: Vec<SocketAddr> = targets.iter().filter_map(Target::address).collect();
    let names: Vec<Target> = targets.into_iter().filter(|t| t.address().is_none()).collect();
    if names.is_empty() {
        shared.replace_set(fixed.into_iter().collect());
        shared.resolved.send_replace(true);
    } else {
        tokio::spawn(resolve_forever(Arc::downgrade(&shared), fixed, names));
    }
    Ok(Balanced { shared })
}

impl Balanced {
    /// Every endpoint known now, in address order.
    pub fn endpoints(&self) -> Vec<EndpointState> {
        let members = self.shared.members.lock().unwrap_or_else(|e| e.into_inner());
        let mut all: Vec<EndpointState> = members
            .values()
            .map(|m| EndpointState {
                address: m.address,
                live: !m.down.load(Ordering::Relaxed),
                in_flight: m.in_flight.load(Ordering::Relaxed),
            })
            .collect();
        all.sort_by_key(|e| e.address);
        all
    }
}

/// One URL of a `*_URL` list.
#[derive(Debug)]
struct Target {
    scheme: String,
    host: String,
    port: u16,
}

impl Target {
    fn address(&self) -> Option<SocketAddr> {
        let host = self.host.trim_start_matches('[').trim_end_matches(']');
        host.parse::<IpAddr>()
            .ok()
            .map(|ip| SocketAddr::new(ip, self.port))
    }
}

fn parse(urls: &str) -> Result<Vec<Target>, UrlError> {
    let mut targets = Vec::new();
    for url in urls.split(',').map(str::trim).filter(|u| !u.is_empty()) {
        let uri: http::Uri = url
            .parse()
            .map_err(|e| UrlError(format!("{url:?} is not a URL: {e}")))?;
        let scheme = uri.scheme_str().unwrap_or("http").to_owned();
        let host = uri
            .host()
            .ok_or_else(|| UrlError(format!("{url:?} names no host")))?
            .to_owned();
        let port = uri.port_u16().unwrap_or(if scheme == "https" { 443 } else { 80 });
        targets.push(Target { scheme, host, port });
    }
    if targets.is_empty() {
        return Err(UrlError(format!("{urls:?} names no endpoint")));
    }
    if targets.iter().any(|t| t.scheme != "http") {
        return Err(UrlError(format!(
            "{urls:?}: only http:// endpoints are supported"
        )));
    }
    Ok(targets)
}

/// Resolves `names` now and every interval, until the client is dropped.
async fn resolve_forever(shared: Weak<Shared>, fixed: Vec<SocketAddr>, names: Vec<Target>) {
    loop {
        let Some(strong) = shared.upgrade() else { return };
        let (resolver, interval, service) = (
            strong.options.resolver.clone(),
            strong.options.resolve_interval,
            strong.options.service,
        );
        drop(strong);
        let mut set: BTreeSet<SocketAddr> = fixed.iter().copied().collect();
        let mut complete = true;
        for name in &names {
            match resolver.resolve(&name.host, name.port).await {
                Ok(addresses) => set.extend(addresses),
                Err(error) => {
                    complete = false;
                    tracing::warn!(service, host = %name.host, %error, "could not resolve; keeping its last addresses");
                }
            }
        }
        let Some(strong) = shared.upgrade() else { return };
        if !complete {
            let members = strong.members.lock().unwrap_or_else(|e| e.into_inner());
            set.extend(members.keys().copied());
        }
        strong.replace_set(set);
        strong.resolved.send_replace(true);
        drop(strong);
        tokio::time::sleep(interval).await;
    }
}

struct Shared {
    options: Options,
    /// Every endpoint known, live or reconnecting, by address.
    members: Mutex<HashMap<SocketAddr, Arc<Member>>>,
    /// The endpoints calls go to.
    live: RwLock<Arc<[Arc<Member>]>>,
    /// Every endpoint known: where calls go while none is live.
    every: RwLock<Arc<[Arc<Member>]>>,
    turn: AtomicUsize,
    /// True once the endpoint set has been resolved.
    resolved: tokio::sync::watch::Sender<bool>,
}

struct Member {
    address: SocketAddr,
    channel: Channel,
    in_flight: AtomicUsize,
    /// Its connection failed; a background task is reconnecting it.
    down: AtomicBool,
    /// No longer named by the `*_URL`: dropped once its calls finish.
    gone: AtomicBool,
    calls: metrics::Counter,
}

impl Member {
    fn new(service: &'static str, address: SocketAddr, channel: Channel) -> Arc<Self> {
        Arc::new(Self {
            address,
            channel,
            in_flight: AtomicUsize::new(0),
            down: AtomicBool::new(false),
            gone: AtomicBool::new(false),
            calls: metrics::counter!("grpc_client_calls_total", "service" => service, "endpoint" => address.to_string()),
        })
    }

    async fn call(self: Arc<Self>, request: http::Request<Body>) -> Result<http::Response<Body>, BoxError> {
        self.calls.increment(1);
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        let _done = InFlight(&self.in_flight);
        let mut channel = self.channel.clone();
        let response = channel.ready().await?.call(request).await?;
        Ok(response)
    }
}

/// Counts a call out of its endpoint's in-flight calls however the call ends.
struct InFlight<'a>(&'a AtomicUsize);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

fn endpoint(address: SocketAddr, connect_timeout: Duration) -> Endpoint {
    Endpoint::from_shared(format!("http://{address}"))
        .expect("a socket address makes a valid URI")
        .connect_timeout(connect_timeout)
        .tcp_nodelay(true)
        .http2_keep_alive_interval(Duration::from_secs(30))
        .keep_alive_while_idle(true)
}

impl Shared {
    /// Makes `set` the endpoint set: new addresses join (connecting on first call), missing ones
    /// leave (their calls in flight finish on their own connection).
    fn replace_set(&self, set: BTreeSet<SocketAddr>) {
        let mut members = self.members.lock().unwrap_or_else(|e| e.into_inner());
        let before = members.len();
        members.retain(|address, member| {
            let keep = set.contains(address);
            if !keep {
                member.gone.store(true, Ordering::Relaxed);
                tracing::info!(service = self.options.service, %address, "endpoint left the set; draining");
            }
            keep
        });
        for address in set {
            members.entry(address).or_insert_with(|| {
                if before > 0 {
                    tracing::info!(service = self.options.service, %address, "endpoint joined the set");
                }
                let channel = endpoint(address, self.options.connect_timeout).connect_lazy();
                Member::new(self.options.service, address, channel)
            });
        }
        self.publish(&members);
    }

    /// Rebuilds the live and complete lists from `members` and exports their sizes.
    fn publish(&self, members: &HashMap<SocketAddr, Arc<Member>>) {
        let mut every: Vec<Arc<Member>> = members.values().cloned().collect();
        every.sort_by_key(|m| m.address);
        let live: Vec<Arc<Member>> = every
            .iter()
            .filter(|m| !m.down.load(Ordering::Relaxed))
            .cloned()
            .collect();
        let service = self.options.service;
        metrics::gauge!("grpc_client_endpoints", "service" => service, "state" => "live")
            .set(live.len() as f64);
        metrics::gauge!("grpc_client_endpoints", "service" => service, "state" => "down")
            .set((every.len() - live.len()) as f64);
        *self.live.write().unwrap_or_else(|e| e.into_inner()) = live.into();
        *self.every.write().unwrap_or_else(|e| e.into_inner()) = every.into();
    }

    /// The endpoint for the next call, other than `not` when another exists: from the live ones,
    /// or from all when none is live (its connection is then tried on the call itself).
    fn pick(&self, not: Option<SocketAddr>) -> Option<Arc<Member>> {
        let live = self.live.read().unwrap_or_else(|e| e.into_inner()).clone();
        let from = if live.iter().any(|m| Some(m.address) != not) {
            live
        } else {
            self.every.read().unwrap_or_else(|e| e.into_inner()).clone()
        };
        let nth = |i: usize| from.iter().filter(|m| Some(m.address) != not).nth(i);
        let n = from.iter().filter(|m| Some(m.address) != not).count();
        let chosen = match n {
            0 => return None,
            1 => nth(0),
            _ => match self.options.pick {
                Pick::RoundRobin => nth(self.turn.fetch_add(1, Ordering::Relaxed) % n),
                Pick::LeastInFlight => {
                    let mut rng = rand::thread_rng();
                    let a = rng.gen_range(0..n);
                    let b = (a + rng.gen_range(1..n)) % n;
                    let (a, b) = (nth(a)?, nth(b)?);
                    let busier = |x: &Member| x.in_flight.load(Ordering::Relaxed);
                    Some(if busier(b) < busier(a) { b } else { a })
                }
            },
        };
        chosen.cloned()
    }

    /// Takes `member` out of the live set and reconnects it in the background; it returns to the
    /// set once a connection is made, unless it has left the `*_URL`'s set by then.
    fn mark_down(self: &Arc<Self>, member: &Arc<Member>) {
        if member.down.swap(true, Ordering::Relaxed) {
            return;
        }
        let service = self.options.service;
        tracing::warn!(service, address = %member.address, "endpoint unreachable; out of the set until it reconnects");
        {
            let members = self.members.lock().unwrap_or_else(|e| e.into_inner());
            self.publish(&members);
        }
        let shared = Arc::downgrade(self);
        let (address, connect_timeout) = (member.address, self.options.connect_timeout);
        let cap = self
            .options
            .resolve_interval
            .clamp(Duration::from_millis(100), Duration::from_secs(2));
        let old = Arc::downgrade(member);
        tokio::spawn(async move {
            let mut pause = Duration::from_millis(50);
            loop {
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(cap);
                if old.upgrade().is_none_or(|m| m.gone.load(Ordering::Relaxed)) || shared.strong_count() == 0
                {
                    return;
                }
                let Ok(channel) = endpoint(address, connect_timeout).connect().await else {
                    continue;
                };
                let Some(shared) = shared.upgrade() else { return };
                let mut members = shared.members.lock().unwrap_or_else(|e| e.into_inner());
                match members.get(&address) {
                    Some(current) if current.down.load(Ordering::Relaxed) => {
                        members.insert(address, Member::new(service, address, channel));
                        tracing::info!(service, %address, "endpoint reconnected; back in the set");
                        shared.publish(&members);
                    }
                    _ => {}
                }
                return;
            }
        });
    }

    /// Waits (briefly) for the first resolution when nothing is known yet.
    async fn first_resolution(&self) {
        let mut resolved = self.resolved.subscribe();
        let wait = resolved.wait_for(|done| *done);
        let _ = tokio::time::timeout(self.options.connect_timeout * 2, wait).await;
    }
}

/// True when `error` shows the request never reached the replica: the connection could not be
/// made, or the replica refused the stream / closed the connection before taking it.
fn never_sent(error: &(dyn StdError + 'static)) -> bool {
    let mut source = Some(error);
    while let Some(e) = source {
        if e.is::<tonic::ConnectError>() {
            return true;
        }
        if let Some(h2) = e.downcast_ref::<h2::Error>()
            && h2.reason() == Some(h2::Reason::REFUSED_STREAM)
        {
            return true;
        }
        if let Some(hyper) = e.downcast_ref::<hyper::Error>()
            && hyper.is_canceled()
        {
            return true;
        }
        source = e.source();
    }
    false
}

/// Reads and keyed writes may be sent again after a replica died mid-call.
fn resendable(request: &http::request::Parts) -> bool {
    const READS: [&str; 5] = ["Get", "List", "Search", "Count", "Check"];
    let method = request.uri.path().rsplit('/').next().unwrap_or_default();
    READS.iter().any(|read| method.starts_with(read))
        || method == "Geocode"
        || request.headers.contains_key("idempotency-key")
}

fn rebuild(parts: &http::request::Parts, body: &Bytes) -> http::Request<Body> {
    let mut request = http::Request::new(Body::new(Full::new(body.clone())));
    *request.method_mut() = parts.method.clone();
    *request.uri_mut() = parts.uri.clone();
    *request.version_mut() = parts.version;
    *request.headers_mut() = parts.headers.clone();
    request
}

fn retried(service: &'static str, reason: &'static str) {
    metrics::counter!("grpc_client_retries_total", "service" => service, "reason" => reason).increment(1);
}

async fn send(shared: Arc<Shared>, request: http::Request<Body>) -> Result<http::Response<Body>, BoxError> {
    let unreachable = || -> BoxError {
        Box::new(tonic::Status::unavailable(format!(
            "no endpoint of {} is known",
            shared.options.service
        )))
    };
    let first = match shared.pick(None) {
        Some(member) => member,
        None => {
            shared.first_resolution().await;
            shared.pick(None).ok_or_else(unreachable)?
        }
    };
    let single = shared.every.read().unwrap_or_else(|e| e.into_inner()).len() <= 1;
    if single {
        let outcome = first.clone().call(request).await;
        if outcome.as_ref().is_err_and(|e| never_sent(e.as_ref())) {
            shared.mark_down(&first);
        }
        return outcome;
    }
    let (parts, body) = request.into_parts();
    let body = body.collect().await?.to_bytes();
    let error = match first.clone().call(rebuild(&parts, &body)).await {
        Ok(response) => return Ok(response),
        Err(error) => error,
    };
    // Any transport error means the connection broke: the background reconnect proves otherwise.
    shared.mark_down(&first);
    let service = shared.options.service;
    let reason = if never_sent(error.as_ref()) {
        "not_sent"
    } else if resendable(&parts) {
        "read_interrupted"
    } else {
        tracing::warn!(service, address = %first.address, %error, "write interrupted; not resent");
        return Err(error);
    };
    let Some(second) = shared.pick(Some(first.address)) else {
        return Err(error);
    };
    retried(service, reason);
    tracing::info!(service, from = %first.address, to = %second.address, reason, "resending the call to another endpoint");
    second.call(rebuild(&parts, &body)).await
}

impl Service<http::Request<Body>> for Balanced {
    type Response = http::Response<Body>;
    type Error = BoxError;
    type Future = BoxFuture<Result<http::Response<Body>, BoxError>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        Box::pin(send(self.shared.clone(), request))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_urls_names_each_endpoint_and_host_names_are_kept_for_resolution() {
        let targets = parse("http://10.0.0.1:50053, http://booking-svc:50053,http://[::1]:7").unwrap();
        let addresses: Vec<Option<SocketAddr>> = targets.iter().map(Target::address).collect();
        assert_eq!(
            addresses,
            vec![
                Some("10.0.0.1:50053".parse().unwrap()),
                None,
                Some("[::1]:7".parse().unwrap())
            ]
        );
        assert_eq!(targets[1].host, "booking-svc");
    }

    #[test]
    fn an_empty_or_malformed_url_list_is_refused_with_the_value() {
        assert!(
            parse(" , ")
                .unwrap_err()
                .to_string()
                .contains("names no endpoint")
        );
        assert!(parse("http://a b:1").unwrap_err().to_string().contains("a b"));
        assert!(
            parse("https://x:1")
                .unwrap_err()
                .to_string()
                .contains("only http://")
        );
    }

    #[test]
    fn reads_and_keyed_writes_may_be_resent_and_other_writes_may_not() {
        let parts = |path: &str, key: bool| {
            let mut request = http::Request::builder().uri(path);
            if key {
                request = request.header("idempotency-key", "k1");
            }
            request.body(()).unwrap().into_parts().0
        };
        assert!(resendable(&parts("/booking.v1.Booking/ListBookings", false)));
        assert!(resendable(&parts("/grpc.health.v1.Health/Check", false)));
        assert!(!resendable(&parts("/booking.v1.Booking/CreateBooking", false)));
        assert!(resendable(&parts("/booking.v1.Booking/CreateBooking", true)));
    }

    #[tokio::test]
    async fn round_robin_takes_each_endpoint_in_turn_and_a_retry_avoids_the_failed_one() {
        let client = channel(
            "http://127.0.0.1:1,http://127.0.0.1:2,http://127.0.0.1:3",
            Options::new("test").pick(Pick::RoundRobin),
        )
        .unwrap();
        let picks: Vec<u16> = (0..6)
            .map(|_| client.shared.pick(None).unwrap().address.port())
            .collect();
        assert_eq!(picks, vec![1, 2, 3, 1, 2, 3]);
        let not_two: Vec<u16> = (0..10)
            .map(|_| {
                client
                    .shared
                    .pick(Some("127.0.0.1:2".parse().unwrap()))
                    .unwrap()
                    .address
                    .port()
            })
            .collect();
        assert!(!not_two.contains(&2), "{not_two:?}");
    }
}
