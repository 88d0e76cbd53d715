//! Compiles the `.proto` contract with protox (pure Rust), so no system `protoc` is needed.

const PROTOS: &[&str] = &[
    "identity/v1/identity.proto",
    "identity/v1/tokens.proto",
    "identity/v1/webhooks.proto",
    "identity/v1/conversations.proto",
    "coaching/v1/coaching.proto",
    "booking/v1/booking.proto",
    "booking/v1/payments.proto",
    "booking/v1/records.proto",
    "gym/v1/gym.proto",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let descriptors = protox::compile(PROTOS, ["."])?;
    tonic_prost_build::configure()
        .build_client(std::env::var_os("CARGO_FEATURE_CLIENT").is_some())
        .build_server(std::env::var_os("CARGO_FEATURE_SERVER").is_some())
        .compile_fds(descriptors)?;
    for proto in PROTOS {
        println!("cargo:rerun-if-changed={proto}");
    }
    Ok(())
}
