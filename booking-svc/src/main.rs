use booking_svc::{Config, build};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let telemetry = platform::telemetry::init("booking-svc");
    let result = async {
        build(Config::from_env()?)
            .await?
            .run_until(platform::shutdown_signal())
            .await
    }
    .await;
    if let Err(error) = &result {
        tracing::error!(error = format!("{error:#}"), "booking-svc stopped");
    }
    telemetry.shutdown();
    result
}
