//! The directory kept in memory between changes: each request reads the directory's revision (one
//! primary-key read), and only a request that finds it moved reads every coach again, one such
//! read at a time. The revision moves in the transaction of every change a listing shows
//! (`coaching.directory_revision`), so a change is seen by the next request on every replica.

use std::sync::{Arc, RwLock};

use sqlx::PgPool;
use tokio::sync::Mutex;

use crate::{directory::Snapshot, error::Error, store};

#[derive(Default)]
pub struct RememberedDirectory {
    current: RwLock<Option<Arc<Snapshot>>>,
    /// Held while the rows are read again, so requests that find the same change read them once.
    reading: Mutex<()>,
}

impl RememberedDirectory {
    /// The directory as of now: at least as new as every change committed before this call.
    pub async fn get(&self, db: &PgPool) -> Result<Arc<Snapshot>, Error> {
        let revision = store::directory_revision(db).await?;
        if let Some(snapshot) = self.at_least(revision) {
            return Ok(snapshot);
        }
        let _reading = self.reading.lock().await;
        if let Some(snapshot) = self.at_least(revision) {
            return Ok(snapshot);
        }
        // Read after the revision: the rows are at least as new as it says.
        let snapshot = Arc::new(Snapshot::new(revision, store::directory(db).await?));
        let mut current = self
            .current
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if current.as_ref().is_none_or(|kept| kept.revision() < revision) {
            *current = Some(Arc::clone(&snapshot));
        }
        Ok(snapshot)
    }

    fn at_least(&self, revision: i64) -> Option<Arc<Snapshot>> {
        let current = self
            .current
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        current
            .as_ref()
            .filter(|kept| kept.revision() >= revision)
            .cloned()
    }
}
