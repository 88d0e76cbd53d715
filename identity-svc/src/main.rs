use identity_svc::{Config, build};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    platform::telemetry::run("identity-svc", async {
        build(Config::from_env()?).await?.run_until(platform::shutdown_signal()).await
    })
    .await
}
