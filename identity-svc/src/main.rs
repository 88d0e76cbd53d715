platform::main!("identity-svc", identity_svc);
