//! Live notifications (issue 18): identity-svc publishes each new notification on the Redis
//! channel `{namespace}:notifications` as `{"user_id", "notification"}`; each gateway replica
//! holds one subscription to it ([`Hub`]) and hands every message to the open streams of that
//! replica (`GET /notifications/stream`), which keep their owner's. So a notification reaches its
//! owner's streams whichever replica they are connected to.
//!
//! Pub/sub delivers at most once: a message published while a replica is reconnecting is not
//! pushed, but it is in the inbox, and the web app reads the inbox again whenever its stream
//! (re)opens.

use std::{
    sync::{Arc, Once, Weak},
    time::Duration,
};

use futures::StreamExt;
use serde::Deserialize;
use tokio::sync::{broadcast, watch};
use uuid::Uuid;

/// How many messages a slow stream may fall behind before it skips some.
const BACKLOG: usize = 256;
/// How long a new stream waits for this replica's subscription before it answers anyway.
const SUBSCRIBED_WITHIN: Duration = Duration::from_secs(2);

/// One announced notification or message (issue 36): whose, the SSE event's name, and its JSON as
/// the API shows it.
#[derive(Clone, Debug)]
pub struct Announced {
    pub user_id: Uuid,
    /// `notification`, or `message` (`{conversation_id, message}`).
    pub kind: &'static str,
    pub json: String,
}

/// `{"user_id", "notification"}`, or `{"user_id", "kind": "message", "message"}`.
#[derive(Deserialize)]
struct Wire {
    user_id: Uuid,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    notification: Option<serde_json::Value>,
    #[serde(default)]
    message: Option<serde_json::Value>,
}

impl Wire {
    fn announced(self) -> Option<Announced> {
        let (kind, json) = match (self.kind.as_deref(), self.notification, self.message) {
            (None | Some("notification"), Some(notification), _) => ("notification", notification),
            (Some("message"), _, Some(message)) => ("message", message),
            _ => return None,
        };
        Some(Announced {
            user_id: self.user_id,
            kind,
            json: json.to_string(),
        })
    }
}

/// This replica's subscription to the announcements, shared by its open streams; it starts with
/// the first stream.
pub struct Hub {
    client: redis::Client,
    channel: String,
    sender: Arc<broadcast::Sender<Announced>>,
    subscribed: watch::Sender<bool>,
    started: Once,
}

impl Hub {
    pub fn new(url: &str, namespace: &str) -> anyhow::Result<Self> {
        Ok(Self {
            client: redis::Client::open(url)?,
            channel: format!("{namespace}:notifications"),
            sender: Arc::new(broadcast::channel(BACKLOG).0),
            subscribed: watch::channel(false).0,
            started: Once::new(),
        })
    }

    /// A receiver of every announcement from now on; waits (briefly) until the replica's
    /// subscription is in place, so that nothing published after the answer is missed.
    pub async fn subscribe(&self) -> broadcast::Receiver<Announced> {
        self.started.call_once(|| {
            tokio::spawn(listen(
                self.client.clone(),
                self.channel.clone(),
                Arc::downgrade(&self.sender),
                self.subscribed.clone(),
            ));
        });
        let receiver = self.sender.subscribe();
        let mut subscribed = self.subscribed.subscribe();
        let _ = tokio::time::timeout(SUBSCRIBED_WITHIN, subscribed.wait_for(|s| *s)).await;
        receiver
    }
}

/// Subscribes to `channel` and relays its messages until the hub is gone, reconnecting with a
/// back-off while Redis is away.
async fn listen(
    client: redis::Client,
    channel: String,
    sender: Weak<broadcast::Sender<Announced>>,
    subscribed: watch::Sender<bool>,
) {
    let mut backoff = Duration::from_millis(100);
    loop {
        if sender.strong_count() == 0 {
            return;
        }
        match client.get_async_pubsub().await {
            Ok(mut pubsub) => match pubsub.subscribe(&channel).await {
                Ok(()) => {
                    backoff = Duration::from_millis(100);
                    subscribed.send_replace(true);
                    let mut messages = pubsub.on_message();
                    while let Some(message) = messages.next().await {
                        let Some(sender) = sender.upgrade() else {
                            return;
                        };
                        let wire = message
                            .get_payload::<String>()
                            .ok()
                            .and_then(|text| serde_json::from_str::<Wire>(&text).ok())
                            .and_then(Wire::announced);
                        match wire {
                            // No receiver is no error: nobody of this replica is listening.
                            Some(announced) => drop(sender.send(announced)),
                            None => tracing::warn!("an unreadable notification announcement was skipped"),
                        }
                    }
                    subscribed.send_replace(false);
                    tracing::warn!("the notification channel closed; subscribing again");
                }
                Err(error) => tracing::warn!(%error, "subscribing to the notification channel failed"),
            },
            Err(error) => tracing::warn!(%error, "the notification channel is unavailable; retrying"),
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(5));
    }
}
