//! One request through the gateway makes one trace: the gateway's HTTP span and the service's
//! gRPC span share a trace id (W3C trace context carried in gRPC metadata).

#[allow(dead_code)]
#[path = "../mesh/helpers.rs"]
mod helpers;
#[path = "../mesh/stripe.rs"]
#[allow(dead_code)] // the payment tests' helpers, which this binary does not use
mod stripe;

use opentelemetry::KeyValue;
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use reqwest::StatusCode;

fn attribute<'a>(span: &'a SpanData, key: &str) -> Option<&'a KeyValue> {
    span.attributes.iter().find(|kv| kv.key.as_str() == key)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_through_the_gateway_is_one_trace_with_the_services_span() {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let _telemetry = platform::telemetry::init_with("mesh", Some(provider.clone()));
    let mesh = helpers::Mesh::start().await;
    let (token, _) = mesh.register("client").await;
    exporter.reset();

    let (status, _) = mesh.get("/auth/me", Some(&token)).await;
    assert_eq!(status, StatusCode::OK);
    provider.force_flush().unwrap();

    let spans = exporter.get_finished_spans().unwrap();
    let http = spans
        .iter()
        .find(|s| {
            s.name == "http" && attribute(s, "route").is_some_and(|kv| kv.value.as_str() == "/api/auth/me")
        })
        .expect("the gateway's span for GET /api/auth/me");
    let grpc = spans
        .iter()
        .find(|s| {
            s.name == "grpc" && attribute(s, "rpc").is_some_and(|kv| kv.value.as_str().ends_with("/GetMe"))
        })
        .expect("identity-svc's span for GetMe");
    assert_eq!(grpc.span_context.trace_id(), http.span_context.trace_id());
    assert_ne!(grpc.span_context.span_id(), http.span_context.span_id());
}
