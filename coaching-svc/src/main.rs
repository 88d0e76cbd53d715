platform::main!("coaching-svc", coaching_svc);
