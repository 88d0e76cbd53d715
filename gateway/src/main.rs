platform::main!("gateway", gateway);
