//! Test support shared by the services' test suites (feature `testing`, for dev-dependencies only).

use std::sync::{
    Arc,
    atomic::{AtomicUsize, Ordering},
};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
};

/// A TCP relay in front of PostgreSQL that counts the statements passing through it: each
/// Execute (extended protocol) or Query (simple protocol) message a client sends. A service
/// connected through [`StatementCounter::url`] lets a test assert how many statements a request
/// cost (no N+1). It also counts pings: a Sync with no statement since the last one, a round trip
/// that only checks the connection is alive.
pub struct StatementCounter {
    postgres: String,
    port: u16,
    counts: Arc<Counts>,
}

#[derive(Default)]
struct Counts {
    statements: AtomicUsize,
    pings: AtomicUsize,
}

impl StatementCounter {
    /// Starts the relay in front of the PostgreSQL at `postgres` (`host:port`).
    pub async fn start(postgres: &str) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let port = listener.local_addr()?.port();
        let counts = Arc::new(Counts::default());
        let (upstream, counted) = (postgres.to_owned(), counts.clone());
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                tokio::spawn(relay(client, upstream.clone(), counted.clone()));
            }
        });
        Ok(Self {
            postgres: postgres.to_owned(),
            port,
            counts,
        })
    }

    /// `database_url` (which names the relayed PostgreSQL) pointed at the relay instead, without
    /// TLS so the messages can be read.
    pub fn url(&self, database_url: &str) -> String {
        let relayed = database_url.replace(&self.postgres, &format!("127.0.0.1:{}", self.port));
        let separator = if relayed.contains('?') { '&' } else { '?' };
        format!("{relayed}{separator}sslmode=disable")
    }

    /// How many statements went through so far.
    pub fn count(&self) -> usize {
        self.counts.statements.load(Ordering::SeqCst)
    }

    /// How many pings went through so far.
    pub fn pings(&self) -> usize {
        self.counts.pings.load(Ordering::SeqCst)
    }
}

async fn relay(client: TcpStream, postgres: String, counts: Arc<Counts>) {
    let Ok(server) = TcpStream::connect(postgres).await else {
        return;
    };
    // Each message goes on at once, as the client sent it (no Nagle delays).
    let _ = (client.set_nodelay(true), server.set_nodelay(true));
    let (mut from_client, mut to_client) = client.into_split();
    let (mut from_server, mut to_server) = server.into_split();
    tokio::spawn(async move { tokio::io::copy(&mut from_server, &mut to_client).await });
    let _ = relay_frontend(&mut from_client, &mut to_server, &counts).await;
}

/// Forwards the client's side of the protocol, message by message: the untyped startup message,
/// then typed messages (one type byte, a length that counts itself, the body).
async fn relay_frontend(
    from: &mut (impl AsyncReadExt + Unpin),
    to: &mut (impl AsyncWriteExt + Unpin),
    counts: &Counts,
) -> std::io::Result<()> {
    let length = from.read_u32().await?;
    let mut startup = length.to_be_bytes().to_vec();
    startup.resize(length as usize, 0);
    from.read_exact(&mut startup[4..]).await?;
    to.write_all(&startup).await?;
    let mut statement_since_sync = false;
    loop {
        let kind = from.read_u8().await?;
        let length = from.read_u32().await?;
        let mut message = vec![kind];
        message.extend_from_slice(&length.to_be_bytes());
        message.resize(1 + length as usize, 0);
        from.read_exact(&mut message[5..]).await?;
        match kind {
            b'E' | b'Q' => {
                counts.statements.fetch_add(1, Ordering::SeqCst);
                statement_since_sync = true;
            }
            b'S' => {
                if !statement_since_sync {
                    counts.pings.fetch_add(1, Ordering::SeqCst);
                }
                statement_since_sync = false;
            }
            _ => {}
        }
        to.write_all(&message).await?;
    }
}
