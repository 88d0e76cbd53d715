use gateway::{Config, build};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    platform::telemetry::run("gateway", async {
        build(Config::from_env()?).await?.run_until(platform::shutdown_signal()).await
    })
    .await
}
