//! Starts coaching-svc in-process and offers typed helpers; tests keep their assertions in view.

use chrono::{Days, Utc};
use platform::{
    auth::{Role, TokenSigner},
    testing::{self, POSTGRES, Processes, StatementCounter},
};
use proto::coaching::v1::{self as pb, coaching_client::CoachingClient};
use sqlx::PgPool;
use tonic::{Code, Request, Status, transport::Channel};
use uuid::Uuid;

/// Miles per degree of latitude on the sphere the service measures on (radius 3958.8 miles).
pub const MILES_PER_DEGREE: f64 = 3958.8 * std::f64::consts::PI / 180.0;

/// A running coaching-svc. Dropping it stops the service.
pub struct TestApp {
    pub client: CoachingClient<Channel>,
    /// The test's own database, for seeding and for looking behind the API.
    pub db: PgPool,
    pub redis_namespace: String,
    statements: StatementCounter,
    signer: TokenSigner,
    _processes: Processes,
}

/// A user the test made up, with a token for them.
pub struct User {
    pub id: Uuid,
    pub token: String,
}

impl TestApp {
    /// Builds and runs the service on free ports against a fresh database and Redis namespace,
    /// and waits until its health service says it is serving.
    pub async fn start() -> TestApp {
        let database_url = testing::fresh_database("coaching").await;
        let statements = StatementCounter::start(POSTGRES)
            .await
            .expect("the statement counter");
        let redis_namespace = testing::namespace("test-coaching");
        let (private, public) = platform::auth::generate_keypair();
        let server = coaching_svc::build(coaching_svc::Config {
            // Through the relay, so a test can count what the service asks PostgreSQL.
            database_url: statements.url(&database_url),
            listen_addr: testing::any_port(),
            ops_addr: testing::any_port(),
            jwt_public_key: public,
            redis_url: testing::REDIS_URL.into(),
            redis_namespace: redis_namespace.clone(),
        })
        .await
        .expect("coaching-svc builds");
        let port = server.port();
        let mut processes = Processes::default();
        processes.spawn(|stopped| server.run_until(stopped));
        let channel = testing::serving(port, "coaching.v1.Coaching").await;

        TestApp {
            client: CoachingClient::new(channel),
            db: PgPool::connect(&database_url).await.expect("the test database"),
            redis_namespace,
            statements,
            signer: TokenSigner::from_pem(private.as_bytes()).unwrap(),
            _processes: processes,
        }
    }

    /// How many statements the service has sent PostgreSQL so far.
    pub fn statements_run(&self) -> usize {
        self.statements.count()
    }

    /// A new user with `role` and a valid token.
    pub fn user(&self, role: Role) -> User {
        let (id, token) = testing::user(&self.signer, role);
        User { id, token }
    }

    pub fn coach(&self) -> User {
        self.user(Role::Coach)
    }

    pub fn client_user(&self) -> User {
        self.user(Role::Client)
    }

    /// A gRPC client to call with.
    pub fn api(&self) -> CoachingClient<Channel> {
        self.client.clone()
    }

    /// A coach with a profile.
    pub async fn coach_with_profile(&self) -> User {
        let coach = self.coach();
        self.create_profile(&coach, profile_fields(50.0, 5, &["Shooting"]))
            .await
            .expect("profile created");
        coach
    }

    pub async fn create_profile(
        &self,
        coach: &User,
        fields: pb::CoachProfileFields,
    ) -> Result<pb::CoachProfile, Status> {
        let request = as_user(coach, pb::CreateCoachProfileRequest { fields: Some(fields) });
        Ok(self
            .api()
            .create_coach_profile(request)
            .await?
            .into_inner()
            .profile
            .unwrap())
    }

    pub async fn get_profile(&self, caller: &User, coach_id: Uuid) -> Result<pb::CoachProfile, Status> {
        let request = as_user(
            caller,
            pb::GetCoachProfileRequest {
                coach_id: coach_id.to_string(),
            },
        );
        Ok(self
            .api()
            .get_coach_profile(request)
            .await?
            .into_inner()
            .profile
            .unwrap())
    }

    pub async fn create_location(
        &self,
        coach: &User,
        location: pb::CreateLocationRequest,
    ) -> Result<pb::Location, Status> {
        Ok(self
            .api()
            .create_location(as_user(coach, location))
            .await?
            .into_inner()
            .location
            .unwrap())
    }

    pub async fn create_slot(&self, coach: &User, slot: pb::CreateSlotRequest) -> Result<pb::Slot, Status> {
        Ok(self
            .api()
            .create_slot(as_user(coach, slot))
            .await?
            .into_inner()
            .slot
            .unwrap())
    }

    pub async fn slots_of(&self, caller: &User, coach_id: Uuid) -> Vec<pb::Slot> {
        let request = as_user(
            caller,
            pb::ListCoachSlotsRequest {
                coach_id: coach_id.to_string(),
            },
        );
        self.api()
            .list_coach_slots(request)
            .await
            .unwrap()
            .into_inner()
            .slots
    }

    pub async fn directory(&self) -> pb::ListCoachesResponse {
        self.api()
            .list_coaches(pb::ListCoachesRequest::default())
            .await
            .unwrap()
            .into_inner()
    }

    pub async fn nearby(
        &self,
        lat: f64,
        lng: f64,
        radius_miles: f64,
    ) -> Result<Vec<pb::CoachListing>, Status> {
        Ok(self
            .api()
            .search_coaches_nearby(pb::SearchCoachesNearbyRequest {
                lat,
                lng,
                radius_miles,
                query: None,
            })
            .await?
            .into_inner()
            .coaches)
    }

    pub async fn by_city(
        &self,
        city: Option<&str>,
        state: Option<&str>,
    ) -> Result<Vec<pb::CoachListing>, Status> {
        Ok(self
            .api()
            .search_coaches_by_city(pb::SearchCoachesByCityRequest {
                city: city.map(str::to_owned),
                state: state.map(str::to_owned),
                query: None,
            })
            .await?
            .into_inner()
            .coaches)
    }
}

/// `message` with `authorization: Bearer <user's token>`.
pub fn as_user<T>(user: &User, message: T) -> Request<T> {
    let mut request = Request::new(message);
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {}", user.token).parse().unwrap());
    request
}

pub fn profile_fields(
    hourly_rate: f64,
    years_experience: i32,
    specialties: &[&str],
) -> pb::CoachProfileFields {
    pb::CoachProfileFields {
        bio: "I coach.".into(),
        specialties: specialties.iter().map(|s| s.to_string()).collect(),
        hourly_rate,
        years_experience,
        time_zone: None,
        coach_name: None,
    }
}

/// A location in `city`, `state` with no coordinates.
pub fn location(name: &str, city: &str, state: &str) -> pb::CreateLocationRequest {
    pb::CreateLocationRequest {
        name: name.into(),
        address: "100 Main St".into(),
        court_number: "1".into(),
        city: city.into(),
        state: state.into(),
        latitude: None,
        longitude: None,
        time_zone: None,
    }
}

/// A location at the given coordinates.
pub fn location_at(name: &str, latitude: f64, longitude: f64) -> pb::CreateLocationRequest {
    pb::CreateLocationRequest {
        latitude: Some(latitude),
        longitude: Some(longitude),
        ..location(name, "Testville", "KS")
    }
}

pub fn recurring(day: &str, start: &str, end: &str) -> pb::CreateSlotRequest {
    pb::CreateSlotRequest {
        slot_type: "recurring".into(),
        day_of_week: Some(day.into()),
        specific_date: None,
        start_time: start.into(),
        end_time: end.into(),
        location_id: None,
    }
}

pub fn one_time(date: &str, start: &str, end: &str) -> pb::CreateSlotRequest {
    pb::CreateSlotRequest {
        slot_type: "one-time".into(),
        day_of_week: Some("Monday".into()),
        specific_date: Some(date.into()),
        start_time: start.into(),
        end_time: end.into(),
        location_id: None,
    }
}

/// A date `days` from today (UTC) as YYYY-MM-DD; negative is in the past.
pub fn date_in(days: i64) -> String {
    let today = Utc::now().date_naive();
    let date = if days >= 0 {
        today.checked_add_days(Days::new(days as u64))
    } else {
        today.checked_sub_days(Days::new(days.unsigned_abs()))
    };
    date.unwrap().format("%Y-%m-%d").to_string()
}

/// Asserts the call failed with `code` and returns its message.
pub fn failure<T: std::fmt::Debug>(result: Result<T, Status>, code: Code) -> String {
    match result {
        Err(status) => {
            assert_eq!(status.code(), code, "{}", status.message());
            status.message().to_owned()
        }
        Ok(value) => panic!("expected {code:?}, got {value:?}"),
    }
}

pub use platform::testing::until as eventually;
