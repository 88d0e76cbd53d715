//! Faults on the running mesh, real parts only: a service stopped in the middle of a stream of
//! requests and started again, a service that never answers, Redis down, and the sign-in rate
//! limit shared by two gateways through Redis, and booking-svc run as several replicas. Each test starts its own processes (see
//! `faults/mesh.rs`) against a fresh database. A PostgreSQL restart cannot share the machine with
//! other tests: `deploy/faults.sh` runs it against a mesh of its own.

#[path = "faults/mesh.rs"]
mod mesh;

#[path = "faults/redis_down.rs"]
mod redis_down;
#[path = "faults/replicas.rs"]
mod replicas;
#[path = "faults/service_slow.rs"]
mod service_slow;
#[path = "faults/service_stopped.rs"]
mod service_stopped;
#[path = "faults/shared_rate_limit.rs"]
mod shared_rate_limit;
