//! The slots booking-svc has read from coaching-svc, remembered while coaching's change stamp
//! ([`platform::stamps`]) reads the same.
//!
//! Every booking needs its slot's times and place, and most slots are booked again and again (a
//! weekly slot on every week's date). Asking coaching-svc each time costs a gRPC round trip and
//! a query; remembering costs one Redis GET. Coaching's stamp is replaced after every change of
//! coaching's data: by the gateway after each write of the API that changes it (a slot, a
//! location, a profile or a policy; declared in `gateway/src/routes/cache.rs`, where this memory
//! is declared too) and by coaching-svc after the events it applies (a coach gone), so a slot read
//! after the stamp was seen is current for as long as the stamp stays the same. When the stamp cannot be
//! read, nothing is remembered and every booking asks coaching-svc, as before.
//!
//! One request per slot asks; the others booking the same slot at the same moment wait for its
//! answer (fifty clients racing for one slot cost one GetSlot, not fifty).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, PoisonError},
    time::{Duration, Instant},
};

use platform::stamps::Stamp;
use tokio::sync::OnceCell;
use tonic::metadata::AsciiMetadataValue;

use crate::{
    coaching::Coaching,
    domain::{Slot, SlotId},
    error::Error,
};

/// However the stamp reads, a slot is asked for again after this long: a lost stamp renewal
/// leaves a slot stale for this long at most.
const MAX_AGE: Duration = Duration::from_secs(60);

/// At most this many slots are remembered (a few hundred bytes each); past it the memory starts
/// over.
const CAPACITY: usize = 20_000;

/// Slots by id, as read from coaching-svc, and the stamp they were read under. Cheap to clone.
#[derive(Clone)]
pub struct Slots {
    coaching: Coaching,
    stamp: Stamp,
    memory: Arc<Mutex<Memory>>,
}

/// The slots read while coaching's stamp was `stamp`.
#[derive(Default)]
struct Memory {
    stamp: String,
    slots: HashMap<SlotId, Arc<OnceCell<Read>>>,
}

#[derive(Clone)]
struct Read {
    slot: Slot,
    at: Instant,
}

impl Slots {
    pub fn new(coaching: Coaching, stamp: Stamp) -> Self {
        Self {
            coaching,
            stamp,
            memory: Arc::default(),
        }
    }

    /// Connects to Redis now (at best effort), so the first bookings do not wait for it.
    pub async fn connect(&self) {
        if let Err(error) = self.stamp.current().await {
            tracing::warn!(%error, "coaching's change stamp unread; slots are asked for until Redis answers");
        }
    }

    /// The coaching-svc client the slots are asked of.
    pub fn coaching(&self) -> &Coaching {
        &self.coaching
    }

    /// The slot as coaching-svc has it now: remembered, or asked for with the caller's
    /// `authorization`.
    pub async fn slot(
        &self,
        slot_id: SlotId,
        authorization: Option<AsciiMetadataValue>,
    ) -> Result<Slot, Error> {
        let stamp = match self.stamp.current().await {
            Ok(Some(stamp)) => stamp,
            Ok(None) => return self.coaching.slot(slot_id, authorization).await,
            Err(error) => {
                tracing::debug!(%error, "coaching's stamp unread; asking coaching-svc for the slot");
                return self.coaching.slot(slot_id, authorization).await;
            }
        };
        let cell = self.cell(stamp, slot_id);
        let read = cell
            .get_or_try_init(|| async {
                let slot = self.coaching.slot(slot_id, authorization).await?;
                Ok::<_, Error>(Read {
                    slot,
                    at: Instant::now(),
                })
            })
            .await?;
        Ok(read.slot.clone())
    }

    /// Where the slot read under `stamp` is (or will be) kept. A new stamp forgets every slot
    /// read under the old one.
    fn cell(&self, stamp: String, slot_id: SlotId) -> Arc<OnceCell<Read>> {
        let mut memory = self.memory.lock().unwrap_or_else(PoisonError::into_inner);
        if memory.stamp != stamp || memory.slots.len() >= CAPACITY {
            *memory = Memory {
                stamp,
                slots: HashMap::new(),
            };
        }
        let cell = memory.slots.entry(slot_id).or_default();
        if cell.get().is_some_and(|read| read.at.elapsed() > MAX_AGE) {
            *cell = Arc::default();
        }
        Arc::clone(cell)
    }
}
