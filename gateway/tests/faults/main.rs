//! Faults on the running mesh, real parts only: a service stopped in the middle of a stream of
//! requests and started again, a service that never answers, Redis down, the sign-in rate limit
//! shared by two gateways through Redis, and booking-svc run as several replicas. Each test starts
//! its own processes (see `mesh.rs`) against a fresh database. A PostgreSQL restart cannot share
//! the machine with other tests: `deploy/faults.sh` runs it against a mesh of its own.

mod mesh;

mod idempotency;
mod live;
mod redis_down;
mod replicas;
mod service_slow;
mod service_stopped;
mod shared_rate_limit;
mod tokens;
