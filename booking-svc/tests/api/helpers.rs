//! Starts coaching-svc and booking-svc against a fresh database and offers typed helpers; the
//! tests keep their assertions in view.

use std::{sync::Arc, time::Duration};

use chrono::{Datelike, NaiveDate, Utc, Weekday};
use platform::{
    auth::{Role, TokenSigner},
    clock::ManualClock,
    redis_link::RedisLink,
    stamps::{self, Stamp},
    testing::{self, Localstripe, POSTGRES, Processes, REDIS_URL, StatementCounter, any_port},
};
use proto::{
    booking::v1::{self as pb, booking_client::BookingClient},
    coaching::v1::{self as cpb, coaching_client::CoachingClient},
};
use sqlx::PgPool;
use tonic::{Code, Request, Status, transport::Channel};
use uuid::Uuid;

/// A signed-in user of the tests.
#[derive(Clone, Debug)]
pub struct User {
    pub id: Uuid,
    pub token: String,
}

/// A running booking-svc (and, usually, coaching-svc). Dropping it stops both.
pub struct TestApp {
    pub booking: BookingClient<Channel>,
    pub coaching: CoachingClient<Channel>,
    /// booking's own database, for arranging what the API cannot (old bookings) and for checking
    /// rows the API does not show.
    pub db: PgPool,
    pub redis_namespace: String,
    pub ops_port: u16,
    /// booking-svc's clock: it stands still (at the time the app started) until a test moves it.
    pub clock: ManualClock,
    /// Counts the statements booking-svc sends PostgreSQL.
    statements: StatementCounter,
    /// Counts the statements coaching-svc sends PostgreSQL (when it runs).
    coaching_statements: Option<StatementCounter>,
    signer: TokenSigner,
    /// The app's own localstripe, booking-svc's provider ([`TestApp::spawn_with_payments`]);
    /// `None`: STRIPE_API_BASE points at a port nobody listens on.
    pub localstripe: Option<Localstripe>,
    _processes: Processes,
}

/// How a [`TestApp`] starts: [`TestApp::with`] and [`Options::start`].
#[derive(Clone, Debug)]
pub struct Options {
    /// coaching-svc runs too (else COACHING_URL points at a port nobody listens on).
    pub coaching: bool,
    /// How often booking's own scheduler and payment worker tick.
    pub scheduler_interval: Duration,
    /// At most this many pending requests of one client with one coach.
    pub max_pending: u32,
    /// A localstripe of the app's own is booking-svc's provider.
    pub payments: bool,
    /// `PLATFORM_FEE_BPS`.
    pub platform_fee_bps: i64,
    /// `RECONCILE_INTERVAL`.
    pub reconcile_interval: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            coaching: true,
            scheduler_interval: TICK,
            max_pending: MANY_PENDING,
            payments: false,
            platform_fee_bps: 1000,
            reconcile_interval: Duration::from_secs(3600),
        }
    }
}

impl Options {
    /// With a localstripe of the app's own as booking-svc's provider.
    pub fn payments(self) -> Self {
        Options {
            payments: true,
            ..self
        }
    }

    /// booking's own scheduler and payment worker tick once, at start, and then not for an hour.
    pub fn idle_scheduler(self) -> Self {
        Options {
            scheduler_interval: Duration::from_secs(3600),
            ..self
        }
    }

    /// Payment reconciliation every `interval` (`RECONCILE_INTERVAL`; an hour otherwise).
    pub fn reconcile_every(self, interval: Duration) -> Self {
        Options {
            reconcile_interval: interval,
            ..self
        }
    }

    pub async fn start(self) -> TestApp {
        TestApp::start_options(self).await
    }
}

/// What every payment test's booking-svc signs webhooks with (`STRIPE_WEBHOOK_SECRET`).
pub const WEBHOOK_SECRET: &str = "whsec_booking_suite";

impl TestApp {
    /// coaching-svc and booking-svc on one fresh database; booking's scheduler ticks every 50 ms.
    pub async fn spawn() -> TestApp {
        Self::start(true, TICK).await
    }

    /// As [`TestApp::spawn`], with at most `limit` pending requests of one client with one coach
    /// (the other apps allow many: their tests book many slots with one client).
    pub async fn spawn_with_pending_limit(limit: u32) -> TestApp {
        Self::start_with(true, TICK, limit).await
    }

    /// booking-svc alone, its COACHING_URL pointing at a port nobody listens on.
    pub async fn spawn_without_coaching() -> TestApp {
        Self::start(false, TICK).await
    }

    /// coaching-svc and booking-svc whose own scheduler ticks once, at start, and then not for an
    /// hour: the test runs schedulers of its own ([`TestApp::scheduler`]).
    pub async fn spawn_with_idle_scheduler() -> TestApp {
        Self::start(true, Duration::from_secs(3600)).await
    }

    /// coaching-svc and booking-svc with a localstripe of their own as the payment provider
    /// ([`TestApp::localstripe`]); the scheduler and the payment worker tick every 50 ms.
    pub async fn spawn_with_payments() -> TestApp {
        Options::default().payments().start().await
    }

    /// The options [`TestApp::spawn`] starts with, to change some: `TestApp::with().payments()
    /// .idle_scheduler().start().await`.
    pub fn with() -> Options {
        Options::default()
    }

    async fn start(with_coaching: bool, scheduler_interval: Duration) -> TestApp {
        Self::start_with(with_coaching, scheduler_interval, MANY_PENDING).await
    }

    async fn start_with(with_coaching: bool, scheduler_interval: Duration, max_pending: u32) -> TestApp {
        Self::start_options(Options {
            coaching: with_coaching,
            scheduler_interval,
            max_pending,
            ..Options::default()
        })
        .await
    }

    async fn start_options(options: Options) -> TestApp {
        let Options {
            coaching: with_coaching,
            scheduler_interval,
            max_pending,
            ..
        } = options;
        let localstripe = if options.payments {
            Some(Localstripe::start().await)
        } else {
            None
        };
        let database_url = testing::fresh_database("booking").await;
        let redis_namespace = testing::namespace("t-booking");
        let redis_url = REDIS_URL.to_owned();
        let (private, public) = platform::auth::generate_keypair();
        let mut processes = Processes::default();
        let mut coaching_statements = None;

        // coaching-svc's port, or the URL of a port nobody listens on.
        let coaching = if with_coaching {
            let statements = StatementCounter::start(POSTGRES)
                .await
                .expect("the statement counter");
            let coaching = coaching_svc::build(coaching_svc::Config {
                database_url: statements.url(&database_url),
                listen_addr: any_port(),
                ops_addr: any_port(),
                jwt_public_key: public.clone(),
                redis_url: redis_url.clone(),
                redis_namespace: redis_namespace.clone(),
            })
            .await
            .expect("coaching-svc builds");
            let port = coaching.port();
            processes.spawn(|stopped| coaching.run_until(stopped));
            coaching_statements = Some(statements);
            Ok(port)
        } else {
            // Bound and dropped at once: nothing listens there.
            let closed = std::net::TcpListener::bind(any_port())
                .unwrap()
                .local_addr()
                .unwrap();
            Err(format!("http://{closed}"))
        };

        let statements = StatementCounter::start(POSTGRES)
            .await
            .expect("the statement counter");
        let clock = ManualClock::at(Utc::now());
        let booking = booking_svc::build_with_clock(
            booking_svc::Config {
                // Through the counter, so a test can count what booking-svc asks PostgreSQL.
                database_url: statements.url(&database_url),
                listen_addr: any_port(),
                ops_addr: any_port(),
                jwt_public_key: public,
                redis_url,
                redis_namespace: redis_namespace.clone(),
                coaching_url: match &coaching {
                    Ok(port) => format!("http://127.0.0.1:{port}"),
                    Err(closed) => closed.clone(),
                },
                // Generous: the machines tests run on are shared and busy; the deadline itself is
                // not what these tests are about.
                coaching_timeout: Duration::from_secs(15),
                grpc_resolve_interval: platform::balance::DEFAULT_RESOLVE_INTERVAL,
                scheduler_interval,
                max_pending_bookings_per_coach: max_pending,
                // The app's own localstripe, or a port nobody listens on.
                stripe_api_base: localstripe
                    .as_ref()
                    .map_or_else(|| "http://127.0.0.1:1".into(), Localstripe::url),
                stripe_secret_key: Localstripe::SECRET_KEY.into(),
                stripe_webhook_secret: WEBHOOK_SECRET.into(),
                platform_fee_bps: options.platform_fee_bps,
                payment_interval: scheduler_interval,
                reconcile_interval: options.reconcile_interval,
            },
            Arc::new(clock.clone()),
        )
        .await
        .expect("booking-svc builds");
        let (booking_port, ops_port) = (booking.port(), booking.ops_port());
        processes.spawn(|stopped| booking.run_until(stopped));

        let booking = BookingClient::new(testing::serving(booking_port, "booking.v1.Booking").await);
        let coaching = CoachingClient::new(match coaching {
            Ok(port) => testing::serving(port, "coaching.v1.Coaching").await,
            Err(closed) => Channel::from_shared(closed).unwrap().connect_lazy(),
        });
        TestApp {
            booking,
            coaching,
            db: PgPool::connect(&database_url)
                .await
                .expect("connect to the test database"),
            redis_namespace,
            ops_port,
            clock,
            statements,
            coaching_statements,
            signer: TokenSigner::from_pem(private.as_bytes()).unwrap(),
            localstripe,
            _processes: processes,
        }
    }

    /// Another scheduler of this app's bookings, as another replica would run, on the same clock.
    pub fn scheduler(&self) -> booking_svc::Scheduler {
        booking_svc::Scheduler::new(self.db.clone(), Arc::new(self.clock.clone()))
    }

    /// Moves booking-svc's clock by `by` and waits until its scheduler has ticked at the new time
    /// at least once.
    pub async fn advance(&self, by: chrono::Duration) {
        self.clock.advance(by);
        tokio::time::sleep(TICK * 4).await;
    }

    /// Waits (a few seconds at most) until the booking's stored status is `status`.
    pub async fn wait_for_status(&self, booking_id: &str, status: &str) {
        for _ in 0..200 {
            if self.status_of(booking_id).await == status {
                return;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert_eq!(self.status_of(booking_id).await, status, "booking {booking_id}");
    }

    /// The types of the events in booking's outbox about `booking_id`, in the order written.
    pub async fn events_of(&self, booking_id: &str) -> Vec<String> {
        sqlx::query_scalar::<_, String>(
            "select payload->>'type' from booking.outbox
             where payload->'booking'->>'booking_id' = $1 order by seq",
        )
        .bind(booking_id)
        .fetch_all(&self.db)
        .await
        .unwrap()
    }

    /// The whole outbox event about `booking_id` of type `kind` (the last one).
    pub async fn event_of(&self, booking_id: &str, kind: &str) -> serde_json::Value {
        sqlx::query_scalar::<_, serde_json::Value>(
            "select payload from booking.outbox
             where payload->'booking'->>'booking_id' = $1 and payload->>'type' = $2
             order by seq desc limit 1",
        )
        .bind(booking_id)
        .bind(kind)
        .fetch_one(&self.db)
        .await
        .unwrap()
    }

    /// How many statements coaching-svc has sent PostgreSQL so far.
    pub fn coaching_statements_run(&self) -> usize {
        self.coaching_statements
            .as_ref()
            .expect("coaching-svc was started")
            .count()
    }

    /// Replaces coaching's change stamp in Redis, as the gateway does after each write of the API
    /// that changes coaching's data (`gateway/src/routes/cache.rs`).
    pub async fn renew_coaching_stamp(&self) {
        let link = RedisLink::new(REDIS_URL, Duration::from_secs(5)).unwrap();
        Stamp::new(link, &self.redis_namespace, stamps::Context::Coaching)
            .renew()
            .await;
    }

    /// How many statements booking-svc has sent PostgreSQL so far.
    pub fn statements_run(&self) -> usize {
        self.statements.count()
    }

    /// A new user with `role` and a valid token.
    pub fn user(&self, role: Role) -> User {
        let (id, token) = testing::user(&self.signer, role);
        User { id, token }
    }

    pub fn client(&self) -> User {
        self.user(Role::Client)
    }

    pub fn coach(&self) -> User {
        self.user(Role::Coach)
    }

    pub fn admin(&self) -> User {
        self.user(Role::Admin)
    }

    // --- coaching-svc: arranging slots as a coach would ---

    /// A slot of `coach`, created through coaching-svc; returns its id.
    pub async fn slot(&self, coach: &User, slot: cpb::CreateSlotRequest) -> String {
        self.coaching
            .clone()
            .create_slot(as_user(coach, slot))
            .await
            .expect("coaching-svc creates the slot")
            .into_inner()
            .slot
            .unwrap()
            .slot_id
    }

    /// Every `day` from `start` to `end` (`HH:MM`), at no location.
    pub async fn weekly_slot(&self, coach: &User, day: &str, start: &str, end: &str) -> String {
        self.slot(coach, weekly(day, start, end, None)).await
    }

    /// Once on `date`, from `start` to `end`.
    pub async fn one_time_slot(&self, coach: &User, date: NaiveDate, start: &str, end: &str) -> String {
        self.slot(
            coach,
            cpb::CreateSlotRequest {
                slot_type: "one-time".into(),
                day_of_week: None,
                specific_date: Some(date.to_string()),
                start_time: start.into(),
                end_time: end.into(),
                location_id: None,
            },
        )
        .await
    }

    /// A location of `coach` named `name`; returns its id.
    pub async fn location(&self, coach: &User, name: &str) -> String {
        self.coaching
            .clone()
            .create_location(as_user(
                coach,
                cpb::CreateLocationRequest {
                    name: name.into(),
                    address: "100 Congress Ave".into(),
                    court_number: "2".into(),
                    city: "Austin".into(),
                    state: "TX".into(),
                    latitude: None,
                    longitude: None,
                    time_zone: None,
                },
            ))
            .await
            .expect("coaching-svc creates the location")
            .into_inner()
            .location
            .unwrap()
            .location_id
    }

    /// A location of `coach` in the IANA zone `time_zone`; returns its id.
    pub async fn location_in(&self, coach: &User, name: &str, time_zone: &str) -> String {
        self.coaching
            .clone()
            .create_location(as_user(
                coach,
                cpb::CreateLocationRequest {
                    name: name.into(),
                    address: "1 Main St".into(),
                    court_number: "1".into(),
                    city: "Somewhere".into(),
                    state: "TX".into(),
                    latitude: None,
                    longitude: None,
                    time_zone: Some(time_zone.into()),
                },
            ))
            .await
            .expect("coaching-svc creates the location")
            .into_inner()
            .location
            .unwrap()
            .location_id
    }

    /// Sets `coach`'s booking policy through coaching-svc (minutes, days, minutes, minutes), and
    /// renews coaching's stamp as the gateway does after `PUT /coach/policy`.
    pub async fn set_policy(&self, coach: &User, min_notice: i32, max_days: i32, respond: i32, cancel: i32) {
        self.coaching
            .clone()
            .update_booking_policy(as_user(
                coach,
                cpb::UpdateBookingPolicyRequest {
                    policy: Some(cpb::BookingPolicy {
                        min_notice_minutes: min_notice,
                        max_advance_days: max_days,
                        response_window_minutes: respond,
                        cancellation_window_minutes: cancel,
                        late_cancellation_fee_percent: None,
                        no_show_fee_percent: None,
                    }),
                },
            ))
            .await
            .expect("coaching-svc sets the policy");
        self.renew_coaching_stamp().await;
    }

    /// Deletes a slot through coaching-svc, and renews coaching's stamp as the gateway does after
    /// `DELETE /availability/{slot_id}`.
    pub async fn delete_slot(&self, coach: &User, slot_id: &str) {
        self.coaching
            .clone()
            .delete_slot(as_user(
                coach,
                cpb::DeleteSlotRequest {
                    slot_id: slot_id.into(),
                },
            ))
            .await
            .expect("coaching-svc deletes the slot");
        self.renew_coaching_stamp().await;
    }

    // --- booking-svc: the API under test ---

    pub async fn book(
        &self,
        client: &User,
        coach_id: Uuid,
        slot_id: &str,
        date: NaiveDate,
    ) -> Result<pb::BookingRecord, Status> {
        self.book_raw(client, &coach_id.to_string(), slot_id, &date.to_string())
            .await
    }

    /// CreateBooking with the fields exactly as given.
    pub async fn book_raw(
        &self,
        client: &User,
        coach_id: &str,
        slot_id: &str,
        booking_date: &str,
    ) -> Result<pb::BookingRecord, Status> {
        let request = pb::CreateBookingRequest {
            coach_id: coach_id.into(),
            slot_id: slot_id.into(),
            booking_date: booking_date.into(),
            payment_method_id: None,
        };
        Ok(self
            .booking
            .clone()
            .create_booking(as_user(client, request))
            .await?
            .into_inner()
            .booking
            .unwrap())
    }

    pub async fn list(&self, user: &User) -> Result<Vec<pb::BookingRecord>, Status> {
        Ok(self
            .booking
            .clone()
            .list_bookings(as_user(user, pb::ListBookingsRequest::default()))
            .await?
            .into_inner()
            .bookings)
    }

    pub async fn approve(&self, coach: &User, booking_id: &str) -> Result<pb::BookingRecord, Status> {
        let request = pb::ApproveBookingRequest {
            booking_id: booking_id.into(),
        };
        Ok(self
            .booking
            .clone()
            .approve_booking(as_user(coach, request))
            .await?
            .into_inner()
            .booking
            .unwrap())
    }

    pub async fn deny(&self, coach: &User, booking_id: &str) -> Result<pb::BookingRecord, Status> {
        let request = pb::DenyBookingRequest {
            booking_id: booking_id.into(),
        };
        Ok(self
            .booking
            .clone()
            .deny_booking(as_user(coach, request))
            .await?
            .into_inner()
            .booking
            .unwrap())
    }

    pub async fn cancel(&self, client: &User, booking_id: &str) -> Result<pb::BookingRecord, Status> {
        self.cancel_because(client, booking_id, None).await
    }

    /// A client's cancel with a reason.
    pub async fn cancel_because(
        &self,
        client: &User,
        booking_id: &str,
        reason: Option<&str>,
    ) -> Result<pb::BookingRecord, Status> {
        let request = pb::CancelBookingRequest {
            booking_id: booking_id.into(),
            reason: reason.map(Into::into),
        };
        Ok(self
            .booking
            .clone()
            .cancel_booking(as_user(client, request))
            .await?
            .into_inner()
            .booking
            .unwrap())
    }

    pub async fn coach_cancel(
        &self,
        coach: &User,
        booking_id: &str,
        reason: Option<&str>,
    ) -> Result<pb::BookingRecord, Status> {
        let request = pb::CoachCancelBookingRequest {
            booking_id: booking_id.into(),
            reason: reason.map(Into::into),
        };
        Ok(self
            .booking
            .clone()
            .coach_cancel_booking(as_user(coach, request))
            .await?
            .into_inner()
            .booking
            .unwrap())
    }

    pub async fn no_show(&self, coach: &User, booking_id: &str) -> Result<pb::BookingRecord, Status> {
        let request = pb::MarkNoShowRequest {
            booking_id: booking_id.into(),
        };
        Ok(self
            .booking
            .clone()
            .mark_no_show(as_user(coach, request))
            .await?
            .into_inner()
            .booking
            .unwrap())
    }

    pub async fn count(
        &self,
        user: &User,
        user_id: Option<Uuid>,
    ) -> Result<pb::CountBookingsResponse, Status> {
        let request = pb::CountBookingsRequest {
            user_id: user_id.map(|id| id.to_string()),
        };
        Ok(self
            .booking
            .clone()
            .count_bookings(as_user(user, request))
            .await?
            .into_inner())
    }

    /// The stored status of a booking, read from the database (what another party's refused
    /// attempt must not have changed).
    pub async fn status_of(&self, booking_id: &str) -> String {
        sqlx::query_scalar::<_, String>("select status from booking.booking where booking_id = $1::uuid")
            .bind(booking_id)
            .fetch_one(&self.db)
            .await
            .unwrap()
    }
}

/// An instant from RFC 3339.
pub fn at(rfc3339: &str) -> chrono::DateTime<Utc> {
    chrono::DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
}

/// How often booking's own scheduler ticks in these tests.
pub const TICK: Duration = Duration::from_millis(50);

/// The pending-request limit of most test apps: high, since many tests book several slots of one
/// coach with one client.
const MANY_PENDING: u32 = 1000;

/// A request carrying `user`'s bearer token.
pub fn as_user<T>(user: &User, message: T) -> Request<T> {
    let mut request = Request::new(message);
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {}", user.token).parse().unwrap());
    request
}

pub fn weekly(day: &str, start: &str, end: &str, location_id: Option<String>) -> cpb::CreateSlotRequest {
    cpb::CreateSlotRequest {
        slot_type: "recurring".into(),
        day_of_week: Some(day.into()),
        specific_date: None,
        start_time: start.into(),
        end_time: end.into(),
        location_id,
    }
}

/// The first `day` at least two days from now (UTC): never in the past, wherever the test runs.
pub fn next(day: Weekday) -> NaiveDate {
    let mut date = Utc::now().date_naive() + chrono::Days::new(2);
    while date.weekday() != day {
        date = date.succ_opt().unwrap();
    }
    date
}

/// Asserts a gRPC error's code, and returns its message for further checks.
#[track_caller]
pub fn expect_code<T: std::fmt::Debug>(result: Result<T, Status>, code: Code) -> String {
    match result {
        Err(status) => {
            assert_eq!(status.code(), code, "unexpected status: {status:?}");
            status.message().to_owned()
        }
        Ok(value) => panic!("expected {code:?}, got {value:?}"),
    }
}

/// Payments: a client's cards, as the web app adds them (needs [`TestApp::spawn_with_payments`]).
impl TestApp {
    /// The app's localstripe; panics when it was started without one.
    pub fn stripe(&self) -> &Localstripe {
        self.localstripe
            .as_ref()
            .expect("a TestApp with payments (TestApp::spawn_with_payments)")
    }

    /// Saves the card `number` for `client` as the browser does (SetupPaymentMethod, then Stripe.js
    /// confirms the SetupIntent), then lists their cards (how booking-svc learns of it); answers
    /// the new card's id, or the provider's message when it refused the card.
    pub async fn add_card(&self, client: &User, number: &str) -> Result<String, String> {
        let setup = self
            .booking
            .clone()
            .setup_payment_method(as_user(client, pb::SetupPaymentMethodRequest {}))
            .await
            .expect("SetupPaymentMethod")
            .into_inner();
        let card = self.stripe().confirm_card(&setup.client_secret, number).await?;
        self.cards(client).await.expect("ListPaymentMethods");
        Ok(card)
    }

    /// `client`'s saved cards (ListPaymentMethods), the default first.
    pub async fn cards(&self, client: &User) -> Result<Vec<pb::PaymentMethod>, Status> {
        Ok(self
            .booking
            .clone()
            .list_payment_methods(as_user(client, pb::ListPaymentMethodsRequest {}))
            .await?
            .into_inner()
            .payment_methods)
    }

    /// A new client with the card `number` saved (their default).
    pub async fn client_with_card(&self, number: &str) -> (User, String) {
        let client = self.client();
        let card = self.add_card(&client, number).await.expect("the card is saved");
        (client, card)
    }
}
