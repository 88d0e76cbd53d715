platform::main!("gym-svc", gym_svc);
