//! The mail sender: delivers the mail outbox (`identity.mail`, written by [`crate::mail`]) over
//! SMTP (`SMTP_URL`) with lettre: plain to the development catcher, STARTTLS or implicit TLS
//! (rustls) to a real relay. A letter is marked sent only once the server accepted it; while
//! the server is down (or refuses for a while) the letter waits and is tried again with a growing
//! pause, so none is lost. Every replica sends; each claims its batch with `for update skip
//! locked`, so a letter goes out once (at least once should a replica die between the server's
//! acceptance and the commit). A letter's Message-ID is made from its id (a notification's id),
//! so a server or a client that sees one twice can tell.

use std::{future::Future, sync::Arc, time::Duration};

use chrono::Utc;
use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{Attachment, Mailbox, MultiPart, header::ContentType},
    transport::smtp::{
        authentication::Credentials,
        client::{Tls, TlsParameters},
    },
};
use sqlx::PgPool;
use tokio::sync::Notify;
use uuid::Uuid;

use crate::{config::Outreach, error::Error};

/// Letters claimed per transaction.
const BATCH: i64 = 20;
/// How often the outbox is looked at without being woken.
const POLL: Duration = Duration::from_secs(2);

/// One replica's mail sender.
pub struct Sender {
    pub db: PgPool,
    pub transport: AsyncSmtpTransport<Tokio1Executor>,
    pub from: Mailbox,
    /// The domain of Message-IDs (`<id@domain>`).
    pub domain: String,
    /// The longest pause between two attempts of one letter.
    pub retry_max: Duration,
    pub wake: Arc<Notify>,
}

#[derive(sqlx::FromRow)]
struct Unsent {
    mail_id: Uuid,
    to_address: String,
    subject: String,
    text_body: String,
    html_body: String,
    ics: Option<String>,
    attempts: i32,
}

/// How the connection to the SMTP server is secured.
#[derive(Debug, PartialEq)]
enum Security {
    /// Plain SMTP (`smtp://`): the development catcher, a relay inside the cluster.
    Plain,
    /// STARTTLS, and no mail without it (`smtp://…?tls=required`): submission, port 587.
    StartTls,
    /// TLS from the first byte (`smtps://`): port 465.
    Implicit,
}

/// Where `SMTP_URL` points, read as lettre's `from_url` reads it: `smtp://` (plain, port 25),
/// `smtp://…?tls=required` (STARTTLS, port 587) or `smtps://` (TLS, port 465), with
/// `user:password@` (percent-encoded) when the server wants them. TLS is rustls with the system's
/// root certificates.
#[derive(Debug, PartialEq)]
struct SmtpServer {
    host: String,
    port: u16,
    security: Security,
    credentials: Option<(String, String)>,
}

const FORMS: &str =
    "use smtp://host:port (plain), smtp://host:587?tls=required (STARTTLS) or smtps://host:465 (TLS)";

impl SmtpServer {
    fn from_url(url: &str) -> Result<Self, String> {
        let (scheme, rest) = url
            .trim()
            .split_once("://")
            .ok_or_else(|| format!("it is not a URL; {FORMS}"))?;
        let (rest, query) = match rest.split_once('?') {
            Some((rest, query)) => (rest, Some(query)),
            None => (rest, None),
        };
        let security = match (scheme, query) {
            ("smtp", None) => Security::Plain,
            ("smtp", Some("tls=required")) => Security::StartTls,
            ("smtps", None) => Security::Implicit,
            ("smtp" | "smtps", Some(query)) => {
                // tls=opportunistic among them: it would send in the clear to a server that offers
                // no STARTTLS, credentials too.
                return Err(format!("?{query} is not understood; {FORMS}"));
            }
            (scheme, _) => return Err(format!("{scheme}:// is not an SMTP scheme; {FORMS}")),
        };
        let rest = rest.trim_end_matches('/');
        let (credentials, address) = match rest.rsplit_once('@') {
            Some((user_info, address)) => {
                let (user, password) = user_info.split_once(':').unwrap_or((user_info, ""));
                (
                    Some((percent_decoded(user)?, percent_decoded(password)?)),
                    address,
                )
            }
            None => (None, rest),
        };
        let (host, port) = match address.rsplit_once(':') {
            Some((host, port)) => (host, port.parse().map_err(|_| format!("{port:?} is not a port"))?),
            None => (
                address,
                match security {
                    Security::Plain => 25,
                    Security::StartTls => 587,
                    Security::Implicit => 465,
                },
            ),
        };
        if host.is_empty() {
            return Err("it names no host".into());
        }
        Ok(Self {
            host: host.to_owned(),
            port,
            security,
            credentials,
        })
    }
}

/// A user name or password of a URL, its `%XX` escapes decoded (a password may hold `@`, `:`, `/`).
fn percent_decoded(raw: &str) -> Result<String, String> {
    let bad = || "the credentials have a malformed %-escape".to_owned();
    let mut bytes = Vec::with_capacity(raw.len());
    let mut rest = raw.as_bytes();
    while let Some((&byte, tail)) = rest.split_first() {
        if byte == b'%' {
            let hex = tail
                .get(..2)
                .and_then(|h| std::str::from_utf8(h).ok())
                .ok_or_else(bad)?;
            bytes.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
            rest = &tail[2..];
        } else {
            bytes.push(byte);
            rest = tail;
        }
    }
    String::from_utf8(bytes).map_err(|_| "the credentials are not UTF-8 once decoded".to_owned())
}

/// The Message-ID of the letter `mail_id`.
pub fn message_id(mail_id: Uuid, domain: &str) -> String {
    format!("<{mail_id}@{domain}>")
}

impl Sender {
    /// A sender of `db`'s outbox to the SMTP server at `url` (see [`SmtpServer`] for its forms),
    /// woken by `wake`.
    pub fn new(db: PgPool, outreach: &Outreach, url: &str, wake: Arc<Notify>) -> anyhow::Result<Self> {
        let server = SmtpServer::from_url(url).map_err(|why| anyhow::anyhow!("SMTP_URL: {why}"))?;
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&server.host)
            .port(server.port)
            .timeout(Some(Duration::from_secs(10)));
        let tls = || {
            TlsParameters::new(server.host.clone())
                .map_err(|e| anyhow::anyhow!("SMTP_URL: no TLS to {}: {e}", server.host))
        };
        builder = match server.security {
            Security::Plain => builder,
            Security::StartTls => builder.tls(Tls::Required(tls()?)),
            Security::Implicit => builder.tls(Tls::Wrapper(tls()?)),
        };
        if let Some((user, password)) = server.credentials {
            builder = builder.credentials(Credentials::new(user, password));
        }
        let transport = builder.build();
        let from: Mailbox = outreach
            .mail_from
            .parse()
            .map_err(|e| anyhow::anyhow!("MAIL_FROM: {e}"))?;
        let domain = from.email.domain().to_owned();
        Ok(Self {
            db,
            transport,
            from,
            domain,
            retry_max: outreach.mail_retry_max,
            wake,
        })
    }

    /// Sends until `shutdown` resolves: at once when woken, else every [`POLL`].
    pub async fn run(self, shutdown: impl Future<Output = ()>) {
        tokio::pin!(shutdown);
        loop {
            match self.send_due().await {
                // A full batch: more may wait.
                Ok(sent) if sent as i64 == BATCH => continue,
                Ok(_) => {}
                Err(error) => tracing::warn!(error = format!("{error:#}"), "mail outbox not read; retrying"),
            }
            tokio::select! {
                () = &mut shutdown => return,
                () = self.wake.notified() => {}
                () = tokio::time::sleep(POLL) => {}
            }
        }
    }

    /// Tries every letter due now once; returns how many were tried.
    pub async fn send_due(&self) -> Result<usize, Error> {
        let mut tx = self.db.begin().await?;
        let due: Vec<Unsent> = sqlx::query_as(
            "select mail_id, to_address, subject, text_body, html_body, ics, attempts
             from identity.mail
             where sent_at is null and next_attempt_at <= now()
             order by next_attempt_at
             limit $1
             for update skip locked",
        )
        .bind(BATCH)
        .fetch_all(&mut *tx)
        .await?;
        let tried = due.len();
        let mut server_down = false;
        for letter in due {
            // One refused connection says the server is away: the rest wait for the next round.
            let outcome = if server_down {
                Err((false, "the mail server was unavailable".to_owned()))
            } else {
                self.send(&letter).await
            };
            match outcome {
                Ok(()) => {
                    // Delivered: the body (a reset link, say) is no longer kept.
                    sqlx::query(
                        "update identity.mail set sent_at = now(), attempts = attempts + 1, last_error = null,
                             text_body = '', html_body = '', ics = null
                         where mail_id = $1",
                    )
                        .bind(letter.mail_id)
                        .execute(&mut *tx)
                        .await?;
                }
                Err((permanent, why)) => {
                    server_down = server_down || !permanent;
                    let pause = if permanent {
                        // Never again: a malformed address, or one the server rejects for good.
                        None
                    } else {
                        let secs = 2_u64.saturating_pow(letter.attempts.clamp(0, 20) as u32);
                        Some(Duration::from_secs(secs).min(self.retry_max))
                    };
                    let next = pause.map(|p| Utc::now() + chrono::Duration::from_std(p).unwrap_or_default());
                    tracing::warn!(mail_id = %letter.mail_id, permanent, error = %why, "an email was not sent");
                    sqlx::query(
                        "update identity.mail set attempts = attempts + 1, last_error = $2,
                             next_attempt_at = coalesce($3, 'infinity'::timestamptz)
                         where mail_id = $1",
                    )
                    .bind(letter.mail_id)
                    .bind(&why)
                    .bind(next)
                    .execute(&mut *tx)
                    .await?;
                }
            }
        }
        tx.commit().await?;
        Ok(tried)
    }

    /// Sends one letter; on failure, whether it is for good and why.
    async fn send(&self, letter: &Unsent) -> Result<(), (bool, String)> {
        let message = self.message(letter).map_err(|why| (true, why))?;
        self.transport
            .send(message)
            .await
            .map(drop)
            .map_err(|e| (e.is_permanent(), e.to_string()))
    }

    fn message(&self, letter: &Unsent) -> Result<Message, String> {
        let to: Mailbox = letter
            .to_address
            .parse()
            .map_err(|e| format!("the address {:?} is not one: {e}", letter.to_address))?;
        let body = MultiPart::alternative_plain_html(letter.text_body.clone(), letter.html_body.clone());
        let body = match &letter.ics {
            Some(ics) => MultiPart::mixed().multipart(body).singlepart(
                Attachment::new("session.ics".to_owned()).body(
                    ics.clone(),
                    ContentType::parse("text/calendar; charset=utf-8; method=PUBLISH")
                        .map_err(|e| e.to_string())?,
                ),
            ),
            None => body,
        };
        Message::builder()
            .message_id(Some(message_id(letter.mail_id, &self.domain)))
            .from(self.from.clone())
            .to(to)
            .subject(letter.subject.clone())
            .multipart(body)
            .map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_smtp_url_gives_its_host_port_and_credentials() {
        assert_eq!(
            SmtpServer::from_url("smtp://127.0.0.1:1025").unwrap(),
            SmtpServer {
                host: "127.0.0.1".into(),
                port: 1025,
                security: Security::Plain,
                credentials: None
            }
        );
        assert_eq!(
            SmtpServer::from_url("smtp://ann:s3cret@relay.example.com").unwrap(),
            SmtpServer {
                host: "relay.example.com".into(),
                port: 25,
                security: Security::Plain,
                credentials: Some(("ann".into(), "s3cret".into()))
            }
        );
        assert!(SmtpServer::from_url("smtp://relay:port").is_err());
        assert!(SmtpServer::from_url("smtp://:25").is_err());
    }

    #[test]
    fn tls_is_required_starttls_on_smtp_and_implicit_on_smtps() {
        assert_eq!(
            SmtpServer::from_url("smtp://USER:PASSWORD@smtp.example.com:587?tls=required").unwrap(),
            SmtpServer {
                host: "smtp.example.com".into(),
                port: 587,
                security: Security::StartTls,
                credentials: Some(("USER".into(), "PASSWORD".into()))
            }
        );
        assert_eq!(
            SmtpServer::from_url("smtp://smtp.example.com?tls=required")
                .unwrap()
                .port,
            587
        );
        assert_eq!(
            SmtpServer::from_url("smtps://ann:s3cret@smtp.example.com").unwrap(),
            SmtpServer {
                host: "smtp.example.com".into(),
                port: 465,
                security: Security::Implicit,
                credentials: Some(("ann".into(), "s3cret".into()))
            }
        );
        assert_eq!(
            SmtpServer::from_url("smtps://smtp.example.com:2465/")
                .unwrap()
                .port,
            2465
        );
    }

    #[test]
    fn percent_encoded_credentials_are_decoded() {
        let server =
            SmtpServer::from_url("smtps://ann%40example.com:p%40ss%3Aw%2Fd@smtp.example.com").unwrap();
        assert_eq!(
            server.credentials,
            Some(("ann@example.com".into(), "p@ss:w/d".into()))
        );
        assert!(SmtpServer::from_url("smtps://ann:100%@smtp.example.com").is_err());
        assert!(SmtpServer::from_url("smtps://ann:%zz@smtp.example.com").is_err());
    }

    #[test]
    fn other_schemes_and_options_are_refused_naming_the_forms_that_work() {
        for url in [
            "http://smtp.example.com",
            "submission://smtp.example.com:587",
            "smtp.example.com:587",
            "smtp://smtp.example.com?tls=opportunistic",
            "smtps://smtp.example.com?tls=required",
        ] {
            let why = SmtpServer::from_url(url).unwrap_err();
            assert!(
                why.contains("smtp://host:587?tls=required (STARTTLS)"),
                "{url}: {why}"
            );
        }
    }

    #[tokio::test]
    async fn a_sender_is_built_for_every_form() {
        let outreach = Outreach::default();
        for url in [
            "smtp://127.0.0.1:1025",
            "smtp://u:p@smtp.example.com:587?tls=required",
            "smtps://u:p@smtp.example.com",
        ] {
            let db = sqlx::postgres::PgPoolOptions::new()
                .connect_lazy("postgres://localhost/none")
                .unwrap();
            assert!(Sender::new(db, &outreach, url, Arc::default()).is_ok(), "{url}");
        }
    }

    #[test]
    fn a_message_id_is_made_from_the_letters_id() {
        let id = Uuid::nil();
        assert_eq!(
            message_id(id, "courtside.local"),
            "<00000000-0000-0000-0000-000000000000@courtside.local>"
        );
    }
}
