//! identity-svc: users, argon2id password hashes, tokens (it alone signs them), client profiles,
//! the first admin, the admin's user management, and calendar-feed secrets ([`feeds`]). Facts
//! other contexts react to leave through a transactional outbox.
//!
//! People and how to reach them (issue 18): each person's inbox ([`inbox`], filled from the booking
//! and gym contexts' events, which identity consumes, and from its own account facts), the
//! reminders a day before a session ([`reminders`]), password reset ([`reset`]) and email
//! ([`mail`] writes letters to the mail outbox, [`sender`] delivers them over SMTP).
//!
//! `build` connects, migrates and binds on the shared host ([`platform::host`]);
//! [`Host::run_until`] serves gRPC, the ops port and the outbox relay until the shutdown future
//! resolves.

mod audit;
mod config;
mod conversations;
mod domain;
mod error;
mod feeds;
mod grpc;
mod inbox;
mod mail;
mod reminders;
mod reset;
mod revocation;
mod sender;
mod store;
mod tokens;
mod webhooks;

use std::time::Duration;

use anyhow::Context;
use platform::{
    auth::{Role, TokenSigner, TokenVerifier},
    clock::SharedClock,
    events::{Applied, Consumer},
    host::{Host, Pool, open_database},
    outbox::Relay,
    redis_link::RedisLink,
    stamps::{self, Stamp},
};
use proto::identity::v1::identity_server::IdentityServer;

pub use config::{AdminSeed, Config, MessageSettings, Outreach, WebhookSettings};

/// A built, bound, not yet serving identity-svc: [`Host::port`], [`Host::ops_port`],
/// [`Host::run_until`].
pub type Server = Host<IdentityServer<grpc::IdentityService>>;

/// How long the relay waits for Redis per operation (RPCs wait at most
/// [`revocation::WRITE_LIMIT`] to publish a revocation).
const RELAY_REDIS_LIMIT: Duration = Duration::from_secs(1);
/// How long live notifications and change stamps wait for Redis (best effort).
const REACH_REDIS_LIMIT: Duration = Duration::from_millis(100);

const POOL: Pool = Pool {
    max_connections: 16,
    acquire_timeout: Duration::from_secs(3),
};

/// The consumer group identity-svc reads the event stream in.
const GROUP: &str = "identity-svc";

/// Connects to PostgreSQL, applies the migrations, seeds the first admin and binds both ports.
pub async fn build(config: Config) -> anyhow::Result<Server> {
    build_with_clock(config, platform::clock::system()).await
}

/// [`build`], with the reminder scheduler reading "now" from `clock` (tests move it).
pub async fn build_with_clock(config: Config, clock: SharedClock) -> anyhow::Result<Server> {
    let signer = TokenSigner::from_pem(config.jwt_private_key.as_bytes()).context("JWT private key")?;
    let verifier = TokenVerifier::from_pem(config.jwt_public_key.as_bytes()).context("JWT public key")?;
    let db = open_database(&config.database_url, POOL, &sqlx::migrate!(), "identity").await?;

    let relay = Relay::new(
        db.clone(),
        RedisLink::new(&config.redis_url, RELAY_REDIS_LIMIT).context("REDIS_URL")?,
        platform::events::stream_key(&config.redis_namespace),
        store::OUTBOX,
    );
    let link = RedisLink::new(&config.redis_url, REACH_REDIS_LIMIT).context("REDIS_URL")?;
    let reach = inbox::Reach::new(link.clone(), &config.redis_namespace, &config.outreach.public_url);
    let redis = redis::Client::open(config.redis_url.as_str()).context("REDIS_URL")?;
    let webhooks = webhooks::Webhooks::new(
        db.clone(),
        clock.clone(),
        config.outreach.webhooks.clone(),
        reach.mail_wake.clone(),
        &config.outreach.public_url,
    )
    .context("the webhooks' HTTP client")?;
    let service = grpc::IdentityService {
        db: db.clone(),
        hasher: domain::Hasher::start(num_cpus()).await?,
        signer,
        revocations: revocation::Revocations::new(
            RedisLink::new(&config.redis_url, revocation::WRITE_LIMIT).context("REDIS_URL")?,
            config.redis_namespace.clone(),
        ),
        outbox_wake: relay.waker(),
        reach: reach.clone(),
        clock: clock.clone(),
        webhooks: webhooks.clone(),
        conversations: conversations::Settings {
            live: conversations::Live::new(link.clone(), &config.redis_namespace),
            limits: config.outreach.messages.clone(),
        },
    };
    let fan_outs = webhooks.clone();
    let unread_messages = conversations::email::Unread {
        db: db.clone(),
        clock: clock.clone(),
        public_url: reach.public_url.clone(),
        mail_wake: reach.mail_wake.clone(),
    };
    let reminders = reminders::Reminders {
        db: db.clone(),
        clock,
        reach: reach.clone(),
    };
    let issuer = reset::Issuer {
        db: db.clone(),
        public_url: reach.public_url.clone(),
        wake: reach.reset_wake.clone(),
        mail_wake: reach.mail_wake.clone(),
        letters_per_hour: config.outreach.reset_letters_per_hour,
    };
    let reminder_interval = config.outreach.reminder_interval;
    let sender = match &config.outreach.smtp_url {
        Some(url) => Some(sender::Sender::new(
            db.clone(),
            &config.outreach,
            url,
            reach.mail_wake.clone(),
        )?),
        None => {
            tracing::warn!("SMTP_URL is not set: emails wait in the outbox until a replica with it runs");
            None
        }
    };
    // Names may have changed while this replica was down. After that, the gateway renews this
    // stamp after each write of the API that changes a name (gateway/src/routes/cache.rs).
    Stamp::new(link, &config.redis_namespace, stamps::Context::Names)
        .renew()
        .await;
    if let Some(admin) = &config.admin {
        seed_admin(&service, admin).await?;
    }
    Ok(Host::bind(
        IdentityServer::new(service),
        config.listen_addr,
        config.ops_addr,
        verifier,
        &db,
    )
    .await?
    .consume(
        redis,
        Consumer::new(&config.redis_namespace, GROUP),
        move |db, envelope| {
            let reach = reach.clone();
            let fan_out = fan_outs.clone();
            async move {
                conversations::record_shared(&db, &envelope).await?;
                let rows = inbox::apply(&db, &envelope, &reach.public_url).await?;
                reach.announce(&rows).await;
                fan_out.fan_out(&envelope).await?;
                // identity's change stamp is of names, which no event changes here.
                Ok::<_, error::Error>(Applied::Nothing)
            }
        },
    )
    .task("the outbox relay", |shutdown| relay.run(shutdown))
    .every("the reminder scheduler", reminder_interval, move || {
        let reminders = reminders.clone();
        async move { reminders.run_due().await }
    })
    // Issue 36: unread messages emailed after 15 minutes, on the service's clock.
    .every("the unread-message emails", reminder_interval, move || {
        let unread = unread_messages.clone();
        async move { unread.run_due().await }
    })
    .task("the reset issuer", |shutdown| issuer.run(shutdown))
    .task("the webhook worker", move |shutdown| webhooks.run(shutdown))
    .task("the mail sender", move |shutdown| async move {
        if let Some(sender) = sender {
            sender.run(shutdown).await;
        }
    })
    // The revocations of tokens that have expired anyway are forgotten every ten minutes.
    .every("revocation housekeeping", Duration::from_secs(600), move || {
        let db = db.clone();
        async move { store::delete_expired_revocations(&db).await }
    }))
}

fn num_cpus() -> usize {
    std::thread::available_parallelism().map(usize::from).unwrap_or(2)
}

async fn seed_admin(service: &grpc::IdentityService, admin: &AdminSeed) -> anyhow::Result<()> {
    if store::admin_exists(&service.db).await? {
        return Ok(());
    }
    match service
        .create_account(
            grpc::NewAccount {
                email: &admin.email,
                password: &admin.password,
                full_name: &admin.full_name,
                phone: None,
                role: "admin",
            },
            &[Role::Admin],
            None,
        )
        .await
    {
        Ok(_) => {
            tracing::info!(email = %admin.email, "first admin created");
            Ok(())
        }
        // Another replica created it first.
        Err(error::Error::Conflict(_)) => Ok(()),
        // A weak ADMIN_PASSWORD is refused as any other account's: the service does not start.
        Err(error::Error::Invalid(why)) => Err(anyhow::anyhow!(
            "ADMIN_PASSWORD (or ADMIN_EMAIL, ADMIN_NAME) is refused for the first admin: {why} \
             Unset ADMIN_PASSWORD to have deploy/up.sh or compose generate a strong one."
        )),
        Err(e) => Err(anyhow::anyhow!("creating the first admin: {e}")),
    }
}
