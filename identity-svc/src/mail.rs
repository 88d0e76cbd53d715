//! Email: every letter identity sends (a notification's, a password-reset link) is rendered from
//! the templates in `identity-svc/templates/` (plain text and HTML) and written to the mail outbox
//! (`identity.mail`) in the transaction that makes it; [`crate::sender`] delivers the outbox over
//! SMTP and empties a letter's body once the server took it, so no link (a reset link above all)
//! stays at rest. Links are built from `PUBLIC_URL`.

use chrono::{DateTime, Utc};
use icalendar::{Calendar, Component, EventLike, EventStatus, Property};
use platform::events::BookingFact;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{domain::notice::dashboard_of, error::Error, inbox::NotificationRow};

const NOTIFICATION_TXT: &str = include_str!("../templates/notification.txt");
const NOTIFICATION_HTML: &str = include_str!("../templates/notification.html");
const RESET_TXT: &str = include_str!("../templates/password_reset.txt");
const RESET_HTML: &str = include_str!("../templates/password_reset.html");

/// One email, ready to send.
#[derive(Clone, Debug, PartialEq)]
pub struct Letter {
    /// A notification's id for its email (the Message-ID is made from it), else a new id.
    pub mail_id: Uuid,
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// An iCalendar attachment.
    pub ics: Option<String>,
    /// The account a password-reset letter is for (its hourly limit counts these).
    pub reset_for: Option<Uuid>,
}

/// Escapes text for HTML (element content and quoted attribute values).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Fills `{{name}}` placeholders of `template` with `values` (escaped for HTML when `html`).
/// Values are inserted in one pass, so a value holding `{{…}}` is never expanded.
pub fn render(template: &str, values: &[(&str, &str)], html: bool) -> String {
    let mut out = String::with_capacity(template.len() + 256);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}") {
            Some(end) => {
                let key = after[..end].trim();
                match values.iter().find(|(k, _)| *k == key) {
                    Some((_, value)) if html => out.push_str(&escape(value)),
                    Some((_, value)) => out.push_str(value),
                    None => out.push_str(&rest[start..start + 2 + end + 2]),
                }
                rest = &after[end + 2..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The letter with a password-reset `link` for `name` at `to`, the account `user_id`.
pub fn reset_letter(to: &str, name: &str, link: &str, user_id: Uuid) -> Letter {
    let values = [("name", name), ("link", link)];
    Letter {
        mail_id: Uuid::new_v4(),
        to: to.to_owned(),
        subject: "Reset your Courtside password".into(),
        text: render(RESET_TXT, &values, false),
        html: render(RESET_HTML, &values, true),
        ics: None,
        reset_for: Some(user_id),
    }
}

/// The letter of a notification for `name` at `to`, whose account has `role`; links from
/// `public_url`.
pub fn notification_letter(
    row: &NotificationRow,
    to: &str,
    name: &str,
    role: &str,
    public_url: &str,
    ics: Option<String>,
) -> Letter {
    let link = format!("{public_url}{}", row.link);
    let preferences = format!("{public_url}{}", preferences_link(role));
    let values = [
        ("name", name),
        ("title", row.title.as_str()),
        ("body", row.body.as_str()),
        ("link", link.as_str()),
        ("preferences", preferences.as_str()),
    ];
    Letter {
        mail_id: row.notification_id,
        to: to.to_owned(),
        subject: row.title.clone(),
        text: render(NOTIFICATION_TXT, &values, false),
        html: render(NOTIFICATION_HTML, &values, true),
        ics,
        reset_for: None,
    }
}

/// The letter telling `name` at `to` (an account with `role`) that the platform disabled their
/// webhook to `url` for `reason`; it links to the Developers page, where it is enabled again.
pub fn webhook_disabled_letter(
    to: &str,
    name: &str,
    role: &str,
    url: &str,
    reason: &str,
    public_url: &str,
) -> Letter {
    let title = "Your webhook was disabled";
    let body = format!(
        "Courtside stopped sending events to {url}: {reason} Events that happen while it is \
         disabled are not sent to it. Fix the receiver, then enable the webhook again on the \
         Developers page."
    );
    let link = format!("{public_url}/developers");
    let preferences = format!("{public_url}{}", preferences_link(role));
    let values = [
        ("name", name),
        ("title", title),
        ("body", body.as_str()),
        ("link", link.as_str()),
        ("preferences", preferences.as_str()),
    ];
    Letter {
        mail_id: Uuid::new_v4(),
        to: to.to_owned(),
        subject: title.into(),
        text: render(NOTIFICATION_TXT, &values, false),
        html: render(NOTIFICATION_HTML, &values, true),
        ics: None,
        reset_for: None,
    }
}

/// Where the reader sets their email preferences: the bell's panel on their role's dashboard
/// (whatever page the notification itself links to: a receipt, the payment methods).
pub fn preferences_link(role: &str) -> String {
    format!("{}#email-preferences", dashboard_of(role))
}

/// Control characters would end an iCalendar line early: each becomes a space.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// A confirmed session as an iCalendar file, to attach to the client's email. Its UID is the one
/// the calendar feeds give the booking (`gateway/src/ics.rs`), so a calendar that also subscribes
/// keeps one event.
pub fn session_ics(b: &BookingFact, coach_name: &str, public_url: &str) -> String {
    let at = |raw: &str| DateTime::parse_from_rfc3339(raw).map(|t| t.to_utc()).ok();
    let mut event = icalendar::Event::new();
    event
        .uid(&format!("booking-{}@courtside", b.booking_id))
        .timestamp(Utc::now())
        .summary(&one_line(&format!("Coaching session with {coach_name}")))
        .status(EventStatus::Confirmed)
        .url(&format!("{public_url}/client/dashboard"));
    if let (Some(starts), Some(ends)) = (at(&b.starts_at), at(&b.ends_at)) {
        event.starts(starts).ends(ends);
    }
    if !b.location_name.trim().is_empty() {
        event.location(&one_line(&b.location_name));
    }
    let mut calendar = Calendar::empty();
    calendar
        .append_property(Property::new("VERSION", "2.0"))
        .append_property(Property::new("PRODID", "-//Courtside//Notifications//EN"))
        .append_property(Property::new("METHOD", "PUBLISH"))
        .push(event.done());
    calendar.done().to_string()
}

/// Writes `letters` to the outbox in the caller's transaction, in one statement.
pub async fn enqueue(tx: &mut PgConnection, letters: &[Letter]) -> Result<(), Error> {
    if letters.is_empty() {
        return Ok(());
    }
    let ids: Vec<Uuid> = letters.iter().map(|l| l.mail_id).collect();
    let to: Vec<&str> = letters.iter().map(|l| l.to.as_str()).collect();
    let subjects: Vec<&str> = letters.iter().map(|l| l.subject.as_str()).collect();
    let texts: Vec<&str> = letters.iter().map(|l| l.text.as_str()).collect();
    let htmls: Vec<&str> = letters.iter().map(|l| l.html.as_str()).collect();
    let ics: Vec<Option<&str>> = letters.iter().map(|l| l.ics.as_deref()).collect();
    let reset_for: Vec<Option<Uuid>> = letters.iter().map(|l| l.reset_for).collect();
    sqlx::query(
        "insert into identity.mail (mail_id, to_address, subject, text_body, html_body, ics, reset_for)
         select * from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                              $7::uuid[])
         on conflict (mail_id) do nothing",
    )
    .bind(&ids)
    .bind(&to)
    .bind(&subjects)
    .bind(&texts)
    .bind(&htmls)
    .bind(&ics)
    .bind(&reset_for)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_and_escaped_in_html_only() {
        let values = [("name", "Ann <b>&</b>"), ("link", "https://x.test/?a=1&b=2")];
        assert_eq!(
            render("Hi {{name}}: {{ link }} {{unknown}}", &values, false),
            "Hi Ann <b>&</b>: https://x.test/?a=1&b=2 {{unknown}}"
        );
        assert_eq!(
            render("<p>{{name}}</p><a href=\"{{link}}\">", &values, true),
            "<p>Ann &lt;b&gt;&amp;&lt;/b&gt;</p><a href=\"https://x.test/?a=1&amp;b=2\">"
        );
    }

    #[test]
    fn a_value_holding_a_placeholder_is_not_expanded() {
        let values = [("name", "{{link}}"), ("link", "secret")];
        assert_eq!(render("{{name}}", &values, false), "{{link}}");
    }

    #[test]
    fn a_reset_letter_carries_the_link_in_both_parts() {
        let letter = reset_letter(
            "a@x.test",
            "Ann",
            "https://x.test/reset-password#token=abc",
            Uuid::nil(),
        );
        assert!(letter.text.contains("https://x.test/reset-password#token=abc"));
        assert!(letter.html.contains("https://x.test/reset-password#token=abc"));
        assert_eq!(letter.subject, "Reset your Courtside password");
    }
}
