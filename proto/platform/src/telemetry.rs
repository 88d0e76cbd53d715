//! Logging and tracing set-up shared by every process.
//!
//! Logs are JSON lines on stdout (level from `RUST_LOG`, default `info`). Traces are exported over
//! OTLP when `OTEL_EXPORTER_OTLP_ENDPOINT` is set and quietly off when it is not. W3C trace
//! context crosses every gRPC hop in the request metadata: [`inject`] on the client side,
//! [`grpc_span`] on the server side.

use opentelemetry::{
    global,
    propagation::{Extractor, Injector},
    trace::{TraceContextExt, TracerProvider as _},
};
use opentelemetry_sdk::{Resource, propagation::TraceContextPropagator, trace::SdkTracerProvider};
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::{EnvFilter, layer::SubscriberExt, util::SubscriberInitExt};

/// Keeps the trace exporter alive; [`Telemetry::shutdown`] flushes it.
pub struct Telemetry {
    provider: Option<SdkTracerProvider>,
}

impl Telemetry {
    /// Flushes the spans still buffered.
    pub fn shutdown(self) {
        if let Some(provider) = self.provider
            && let Err(error) = provider.shutdown()
        {
            tracing::warn!(%error, "trace exporter did not flush");
        }
    }
}

/// Which replica this process is: the host name (a pod's or container's name) and the process id,
/// carried by its traces (`service.instance.id`) and metrics (the `instance` label).
pub fn instance() -> String {
    let host = std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown".to_owned());
    format!("{host}/{}", std::process::id())
}

/// Installs the global subscriber for `service`. Call once, at the start of `main`.
pub fn init(service: &'static str) -> Telemetry {
    let provider = std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT")
        .ok()
        .filter(|v| !v.is_empty())
        .and_then(
            |_| match opentelemetry_otlp::SpanExporter::builder().with_tonic().build() {
                Ok(exporter) => Some(
                    SdkTracerProvider::builder()
                        .with_batch_exporter(exporter)
                        .with_resource(
                            Resource::builder()
                                .with_service_name(service)
                                .with_attribute(opentelemetry::KeyValue::new(
                                    "service.instance.id",
                                    instance(),
                                ))
                                .build(),
                        )
                        .build(),
                ),
                Err(error) => {
                    eprintln!("{service}: OTLP exporter not started: {error}");
                    None
                }
            },
        );
    init_with(service, provider)
}

/// A process's whole life under its telemetry: installs it, runs `serve` (the process's `main`),
/// logs how it ended if it failed, and flushes the spans before the process exits.
pub async fn run<E: std::fmt::Display>(
    service: &'static str,
    serve: impl Future<Output = Result<(), E>>,
) -> Result<(), E> {
    let telemetry = init(service);
    let result = serve.await;
    if let Err(error) = &result {
        tracing::error!(error = format!("{error:#}"), "{service} stopped");
    }
    telemetry.shutdown();
    result
}

/// A process's `main`: `platform::main!("booking-svc", booking_svc);` reads the crate's `Config`
/// from the environment, builds it with the crate's `build` and serves until SIGTERM or Ctrl-C,
/// under [`run`].
#[macro_export]
macro_rules! main {
    ($service:literal, $krate:ident) => {
        #[tokio::main]
        async fn main() -> anyhow::Result<()> {
            $crate::telemetry::run($service, async {
                $krate::build($krate::Config::from_env()?)
                    .await?
                    .run_until($crate::shutdown_signal())
                    .await
            })
            .await
        }
    };
}

/// Installs the global subscriber with the given trace provider (tests pass an in-memory one).
pub fn init_with(service: &'static str, provider: Option<SdkTracerProvider>) -> Telemetry {
    global::set_text_map_propagator(TraceContextPropagator::new());
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let fmt = tracing_subscriber::fmt::layer()
        .json()
        .with_current_span(true)
        .with_span_list(false);
    let otel = provider
        .as_ref()
        .map(|p| tracing_opentelemetry::layer().with_tracer(p.tracer(service)));
    if let Some(p) = &provider {
        global::set_tracer_provider(p.clone());
    }
    // A second init (several services in one test process) keeps the first subscriber.
    let _ = tracing_subscriber::registry()
        .with(filter)
        .with(fmt)
        .with(otel)
        .try_init();
    Telemetry { provider }
}

/// Writes the current span's trace context into outgoing gRPC metadata.
pub fn inject(metadata: &mut tonic::metadata::MetadataMap) {
    let context = tracing::Span::current().context();
    global::get_text_map_propagator(|p| p.inject_context(&context, &mut MetadataInjector(metadata)));
}

/// The span for one incoming gRPC request, a child of the caller's trace when the metadata
/// carries one. For `tonic::transport::Server::trace_fn`.
pub fn grpc_span<B>(request: &http::Request<B>) -> tracing::Span {
    let parent = global::get_text_map_propagator(|p| p.extract(&HeaderExtractor(request.headers())));
    let span = tracing::info_span!("grpc", rpc = %request.uri().path(), trace_id = tracing::field::Empty);
    let _ = span.set_parent(parent);
    record_trace_id(&span);
    span
}

/// An HTTP server span (the gateway), a child of the caller's trace when the headers carry one.
pub fn http_span<B>(request: &http::Request<B>, route: &str) -> tracing::Span {
    let parent = global::get_text_map_propagator(|p| p.extract(&HeaderExtractor(request.headers())));
    let span = tracing::info_span!(
        "http",
        method = %request.method(),
        route,
        status = tracing::field::Empty,
        trace_id = tracing::field::Empty,
    );
    let _ = span.set_parent(parent);
    record_trace_id(&span);
    span
}

/// Puts the span's trace id into its `trace_id` field, so every JSON log line carries it.
fn record_trace_id(span: &tracing::Span) {
    let context = span.context();
    let span_context = context.span().span_context().clone();
    if span_context.is_valid() {
        span.record("trace_id", tracing::field::display(span_context.trace_id()));
    }
}

struct MetadataInjector<'a>(&'a mut tonic::metadata::MetadataMap);

impl Injector for MetadataInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(key), Ok(value)) = (
            tonic::metadata::MetadataKey::from_bytes(key.as_bytes()),
            tonic::metadata::MetadataValue::try_from(value.as_str()),
        ) {
            self.0.insert(key, value);
        }
    }
}

struct HeaderExtractor<'a>(&'a http::HeaderMap);

impl Extractor for HeaderExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|v| v.to_str().ok())
    }
    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(|k| k.as_str()).collect()
    }
}
