platform::main!("booking-svc", booking_svc);
