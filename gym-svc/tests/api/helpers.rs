//! Starts gym-svc in-process against a fresh database and offers typed helpers; tests keep their
//! assertions in view.

use std::time::Duration;

use chrono::{Days, NaiveDate, Utc};
use platform::{
    auth::{Role, TokenSigner},
    clock::ManualClock,
    events::{Envelope, Event},
    testing::{self, Processes},
};
use proto::gym::v1::{self as pb, gym_client::GymClient};
use sqlx::PgPool;
use tonic::{Request, Status, transport::Channel};
use uuid::Uuid;

/// A signed-in user: an id and a token minted for it.
#[derive(Clone)]
pub struct Actor {
    pub id: Uuid,
    pub token: String,
}

impl Actor {
    /// `message` with this actor's bearer token.
    pub fn req<T>(&self, message: T) -> Request<T> {
        let mut request = Request::new(message);
        request.metadata_mut().insert(
            "authorization",
            format!("Bearer {}", self.token)
                .parse()
                .expect("a token is ASCII"),
        );
        request
    }
}

/// A running gym-svc on its own database. Dropping it stops the server.
pub struct TestApp {
    pub client: GymClient<Channel>,
    /// The test's own database, for arranging what the API cannot (past dates) and checking rows.
    pub db: PgPool,
    pub redis_namespace: String,
    signer: TokenSigner,
    /// Counts the statements gym-svc sends PostgreSQL.
    statements: testing::StatementCounter,
    _processes: Processes,
}

/// The earliest date that is not in the past, by the shared rule.
pub fn today() -> NaiveDate {
    (Utc::now() - chrono::Duration::hours(12)).date_naive()
}

/// `YYYY-MM-DD` of `today() + n` days.
pub fn in_days(n: u64) -> String {
    today()
        .checked_add_days(Days::new(n))
        .expect("a date")
        .format("%Y-%m-%d")
        .to_string()
}

/// `YYYY-MM-DD` of `today() - n` days.
pub fn days_ago(n: u64) -> String {
    today()
        .checked_sub_days(Days::new(n))
        .expect("a date")
        .format("%Y-%m-%d")
        .to_string()
}

impl TestApp {
    /// gym-svc on the system clock, as it runs (its scheduler on the default interval).
    pub async fn spawn() -> TestApp {
        Self::spawn_with(platform::clock::system(), Duration::from_secs(5)).await
    }

    /// gym-svc on `clock`, which the test moves; its scheduler ticks every 50 ms.
    pub async fn spawn_at(clock: &ManualClock) -> TestApp {
        Self::spawn_with(std::sync::Arc::new(clock.clone()), Duration::from_millis(50)).await
    }

    async fn spawn_with(clock: platform::clock::SharedClock, scheduler_interval: Duration) -> TestApp {
        let database_url = testing::fresh_database("gym").await;
        let statements = testing::StatementCounter::start(testing::POSTGRES)
            .await
            .expect("the statement counter");
        let (private, public) = platform::auth::generate_keypair();
        let redis_namespace = testing::namespace("t-gym");
        let server = gym_svc::build_with_clock(
            gym_svc::Config {
                database_url: statements.url(&database_url),
                listen_addr: testing::any_port(),
                ops_addr: testing::any_port(),
                jwt_public_key: public,
                redis_url: testing::REDIS_URL.into(),
                redis_namespace: redis_namespace.clone(),
                scheduler_interval,
            },
            clock,
        )
        .await
        .expect("gym-svc builds");
        let port = server.port();
        let mut processes = Processes::default();
        processes.spawn(|stopped| server.run_until(stopped));
        let channel = testing::serving(port, "gym.v1.Gym").await;
        TestApp {
            client: GymClient::new(channel),
            db: PgPool::connect(&database_url).await.expect("test pool"),
            redis_namespace,
            signer: TokenSigner::from_pem(private.as_bytes()).expect("test key"),
            statements,
            _processes: processes,
        }
    }

    /// How many statements gym-svc has sent PostgreSQL so far.
    pub fn statements_run(&self) -> usize {
        self.statements.count()
    }

    /// A new user of `role` with a valid token.
    pub fn actor(&self, role: Role) -> Actor {
        let (id, token) = testing::user(&self.signer, role);
        Actor { id, token }
    }

    pub fn gym(&self) -> Actor {
        self.actor(Role::Gym)
    }

    pub fn coach(&self) -> Actor {
        self.actor(Role::Coach)
    }

    pub fn client(&self) -> GymClient<Channel> {
        self.client.clone()
    }

    /// Publishes an identity event on this test's stream.
    pub async fn publish(&self, event_id: Uuid, event: Event) {
        let client = redis::Client::open(testing::REDIS_URL).expect("redis url");
        let mut conn = client
            .get_multiplexed_async_connection()
            .await
            .expect("Redis is up at 127.0.0.1:6379");
        let envelope = Envelope {
            event_id,
            occurred_at: Utc::now().to_rfc3339(),
            event,
        };
        platform::events::publish(
            &mut conn,
            &platform::events::stream_key(&self.redis_namespace),
            &envelope,
        )
        .await
        .expect("publish an event");
    }

    // Arrange helpers: each asserts its own success so tests can focus on what they prove.

    pub async fn create_profile(&self, gym: &Actor, gym_name: &str) -> pb::GymProfile {
        self.client()
            .create_gym_profile(gym.req(pb::CreateGymProfileRequest {
                fields: Some(pb::GymProfileFields {
                    gym_name: gym_name.into(),
                    description: "Indoor courts".into(),
                    phone: "512-555-0100".into(),
                }),
            }))
            .await
            .expect("create a gym profile")
            .into_inner()
            .profile
            .expect("a profile")
    }

    pub async fn try_create_location(&self, gym: &Actor, name: &str) -> Result<pb::GymLocation, Status> {
        self.client()
            .create_gym_location(gym.req(pb::CreateGymLocationRequest {
                name: name.into(),
                address: "100 Congress Ave".into(),
                city: "Austin".into(),
                state: "TX".into(),
                latitude: Some(30.2672),
                longitude: Some(-97.7431),
                time_zone: None,
            }))
            .await
            .map(|r| r.into_inner().location.expect("a location"))
    }

    pub async fn create_location(&self, gym: &Actor, name: &str) -> pb::GymLocation {
        self.try_create_location(gym, name)
            .await
            .expect("create a gym location")
    }

    pub async fn try_create_court(
        &self,
        gym: &Actor,
        location_id: &str,
        court_name: &str,
        court_type: &str,
    ) -> Result<pb::Court, Status> {
        self.client()
            .create_court(gym.req(pb::CreateCourtRequest {
                location_id: location_id.into(),
                court_name: court_name.into(),
                court_type: court_type.into(),
            }))
            .await
            .map(|r| r.into_inner().court.expect("a court"))
    }

    pub async fn create_court(&self, gym: &Actor, location_id: &str, court_name: &str) -> pb::Court {
        self.try_create_court(gym, location_id, court_name, "")
            .await
            .expect("create a court")
    }

    pub async fn list_courts(&self, actor: &Actor, location_id: &str) -> Result<Vec<pb::Court>, Status> {
        self.client()
            .list_courts(actor.req(pb::ListCourtsRequest {
                location_id: location_id.into(),
            }))
            .await
            .map(|r| r.into_inner().courts)
    }

    pub async fn try_offer(
        &self,
        gym: &Actor,
        court_id: &str,
        date: &str,
        start_time: &str,
        end_time: &str,
    ) -> Result<pb::CourtAvailability, Status> {
        self.client()
            .create_court_availability(gym.req(pb::CreateCourtAvailabilityRequest {
                court_id: court_id.into(),
                date: date.into(),
                start_time: start_time.into(),
                end_time: end_time.into(),
            }))
            .await
            .map(|r| r.into_inner().availability.expect("availability"))
    }

    pub async fn offer(
        &self,
        gym: &Actor,
        court_id: &str,
        date: &str,
        start_time: &str,
        end_time: &str,
    ) -> pb::CourtAvailability {
        self.try_offer(gym, court_id, date, start_time, end_time)
            .await
            .expect("offer court time")
    }

    pub async fn gym_availability(&self, gym: &Actor) -> Vec<pb::CourtAvailability> {
        self.client()
            .list_court_availability(gym.req(pb::ListCourtAvailabilityRequest::default()))
            .await
            .expect("list court availability")
            .into_inner()
            .availability
    }

    pub async fn open_availability(
        &self,
        actor: &Actor,
        location_id: &str,
    ) -> Result<Vec<pb::CourtAvailability>, Status> {
        self.client()
            .list_open_availability(actor.req(pb::ListOpenAvailabilityRequest {
                location_id: location_id.into(),
            }))
            .await
            .map(|r| r.into_inner().availability)
    }

    pub async fn try_request(
        &self,
        coach: &Actor,
        availability_id: &str,
    ) -> Result<pb::CourtReservation, Status> {
        self.client()
            .create_court_reservation(coach.req(pb::CreateCourtReservationRequest {
                availability_id: availability_id.into(),
            }))
            .await
            .map(|r| r.into_inner().reservation.expect("a reservation"))
    }

    pub async fn request(&self, coach: &Actor, availability_id: &str) -> pb::CourtReservation {
        self.try_request(coach, availability_id)
            .await
            .expect("request court time")
    }

    pub async fn approve(&self, gym: &Actor, reservation_id: &str) -> Result<pb::CourtReservation, Status> {
        self.client()
            .approve_reservation(gym.req(pb::ApproveReservationRequest {
                reservation_id: reservation_id.into(),
            }))
            .await
            .map(|r| r.into_inner().reservation.expect("a reservation"))
    }

    pub async fn deny(&self, gym: &Actor, reservation_id: &str) -> Result<pb::CourtReservation, Status> {
        self.client()
            .deny_reservation(gym.req(pb::DenyReservationRequest {
                reservation_id: reservation_id.into(),
            }))
            .await
            .map(|r| r.into_inner().reservation.expect("a reservation"))
    }

    pub async fn cancel(&self, coach: &Actor, reservation_id: &str) -> Result<(), Status> {
        self.client()
            .cancel_court_reservation(coach.req(pb::CancelCourtReservationRequest {
                reservation_id: reservation_id.into(),
            }))
            .await
            .map(|_| ())
    }

    pub async fn coach_reservations(&self, coach: &Actor) -> Vec<pb::CourtReservation> {
        self.client()
            .list_coach_reservations(coach.req(pb::ListCoachReservationsRequest::default()))
            .await
            .expect("list the coach's reservations")
            .into_inner()
            .reservations
    }

    pub async fn pending(&self, gym: &Actor) -> Vec<pb::CourtReservation> {
        self.client()
            .list_pending_reservations(gym.req(pb::ListPendingReservationsRequest::default()))
            .await
            .expect("list pending reservations")
            .into_inner()
            .reservations
    }

    /// The stored status of a reservation, read straight from the database.
    pub async fn status_of(&self, reservation_id: &str) -> String {
        sqlx::query_scalar::<_, String>(
            "select status from gym.court_reservation where reservation_id = $1::uuid",
        )
        .bind(reservation_id)
        .fetch_one(&self.db)
        .await
        .expect("a stored reservation")
    }

    /// Whether an availability is stored as reserved.
    pub async fn is_reserved(&self, availability_id: &str) -> bool {
        sqlx::query_scalar::<_, bool>(
            "select is_reserved from gym.court_availability where availability_id = $1::uuid",
        )
        .bind(availability_id)
        .fetch_one(&self.db)
        .await
        .expect("a stored availability")
    }

    /// Moves stored court time to another date: past dates cannot be offered through the API.
    pub async fn move_to_date(&self, availability_id: &str, date: &str) {
        sqlx::query("update gym.court_availability set date = $2::date where availability_id = $1::uuid")
            .bind(availability_id)
            .bind(date)
            .execute(&self.db)
            .await
            .expect("move court time");
    }
}

/// A gym with a profile, a location and one court: the usual starting point.
pub struct GymSetup {
    pub gym: Actor,
    pub location: pb::GymLocation,
    pub court: pb::Court,
}

impl TestApp {
    pub async fn gym_with_court(&self, gym_name: &str) -> GymSetup {
        let gym = self.gym();
        self.create_profile(&gym, gym_name).await;
        let location = self.create_location(&gym, "Downtown").await;
        let court = self.create_court(&gym, &location.location_id, "Court 1").await;
        GymSetup { gym, location, court }
    }

    /// A gym with one court offering one hour a week from now.
    pub async fn open_court_time(&self) -> (GymSetup, pb::CourtAvailability) {
        let setup = self.gym_with_court("Hoops Arena").await;
        let availability = self
            .offer(&setup.gym, &setup.court.court_id, &in_days(7), "10:00", "11:00")
            .await;
        (setup, availability)
    }
}

pub use platform::testing::until as eventually;

impl TestApp {
    /// Every event in gym's outbox, in order: (type, reservation_id).
    pub async fn outbox(&self) -> Vec<(String, String)> {
        sqlx::query_as::<_, (String, String)>(
            "select payload->>'type', payload->'reservation'->>'reservation_id'
             from gym.outbox order by seq",
        )
        .fetch_all(&self.db)
        .await
        .expect("read the outbox")
    }

    /// The events of one reservation in gym's outbox, in order.
    pub async fn events_of(&self, reservation_id: &str) -> Vec<String> {
        self.outbox()
            .await
            .into_iter()
            .filter(|(_, id)| id == reservation_id)
            .map(|(kind, _)| kind)
            .collect()
    }

    /// The gym cancels an approved reservation.
    pub async fn gym_cancel(
        &self,
        gym: &Actor,
        reservation_id: &str,
        reason: Option<&str>,
    ) -> Result<pb::CourtReservation, Status> {
        self.client()
            .gym_cancel_reservation(gym.req(pb::GymCancelReservationRequest {
                reservation_id: reservation_id.into(),
                reason: reason.map(str::to_owned),
            }))
            .await
            .map(|r| r.into_inner().reservation.expect("a reservation"))
    }
}

/// An instant written as RFC 3339.
pub fn at(rfc3339: &str) -> chrono::DateTime<Utc> {
    chrono::DateTime::parse_from_rfc3339(rfc3339)
        .expect("an RFC 3339 instant")
        .to_utc()
}
