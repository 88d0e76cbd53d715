use booking_svc::{Config, build};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    platform::telemetry::run("booking-svc", async {
        build(Config::from_env()?).await?.run_until(platform::shutdown_signal()).await
    })
    .await
}
