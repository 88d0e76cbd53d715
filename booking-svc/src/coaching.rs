//! booking's one dependency on coaching-svc: reading the slot a client asks for (GetSlot), a
//! coach's whole schedule for the bookable calendar (GetCoachSchedule), and whether coaching-svc
//! answers at all (for `/readyz`).
//!
//! The transport is made once over every endpoint `COACHING_URL` names (balanced per call, see
//! [`platform::balance`]) and connects lazily, so start order does not matter; every call has a
//! deadline and carries the caller's own `authorization` and the trace context.

use std::time::Duration;

use anyhow::Context;
use platform::balance::{Balanced, Options};
use platform::instants::Zone;
use proto::coaching::v1::{
    self as cpb, BookingPolicy, GetCoachScheduleRequest, GetSlotRequest, GetSlotResponse,
    coaching_client::CoachingClient,
};
use tonic::{
    Code, Request,
    metadata::{AsciiMetadataValue, MetadataValue},
};
use tonic_health::pb::{
    HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient,
};

use crate::{
    domain::{CalendarRange, CoachId, Policy, Slot, SlotId, SlotWhen, TimeOff, parse_time},
    error::Error,
};

/// The pause before GetSlot is tried a second time.
const RETRY_PAUSE: Duration = Duration::from_millis(200);

const UNAVAILABLE: &str = "the coaching service is unavailable; please try again shortly";

/// A cheap-to-clone client of coaching-svc.
#[derive(Clone)]
pub struct Coaching {
    channel: Balanced,
    /// How long booking waits for coaching-svc before telling the client to try again.
    deadline: Duration,
}

impl Coaching {
    /// A client of every endpoint `url` names (host names re-resolved every `resolve_interval`)
    /// that connects on first use; each call waits at most `deadline`.
    pub fn connect_lazy(url: &str, deadline: Duration, resolve_interval: Duration) -> anyhow::Result<Self> {
        // The transport registers its per-endpoint series as it is made.
        platform::ops::metrics_handle();
        let options = Options::new("coaching").resolve_interval(resolve_interval);
        let channel =
            platform::balance::channel(url, options).with_context(|| format!("COACHING_URL {url:?}"))?;
        Ok(Self { channel, deadline })
    }

    /// The slot, as the caller (whose `authorization` is forwarded) may see it.
    ///
    /// GetSlot is a read, so an `Unavailable` answer (coaching-svc shedding a burst, or a
    /// connection being re-made) is tried once more after a short pause before the client is
    /// told to try again.
    pub async fn slot(
        &self,
        slot_id: SlotId,
        authorization: Option<AsciiMetadataValue>,
    ) -> Result<Slot, Error> {
        let mut retried = false;
        loop {
            match self.get_slot(slot_id, authorization.clone()).await {
                Ok(response) => return slot_from_proto(response),
                Err(status) if status.code() == Code::Unavailable && !retried => {
                    tracing::info!(%status, "coaching-svc unavailable; retrying GetSlot once");
                    retried = true;
                    tokio::time::sleep(RETRY_PAUSE).await;
                }
                Err(status) => {
                    return Err(match status.code() {
                        Code::NotFound => Error::NotFound("this slot no longer exists".into()),
                        _ => failed("GetSlot", status),
                    });
                }
            }
        }
    }

    /// Every slot of `coach_id` with its place, under the coach's policy and with the time off
    /// that meets `range`: one call, whatever the range.
    pub async fn schedule(
        &self,
        coach_id: CoachId,
        range: CalendarRange,
        authorization: Option<AsciiMetadataValue>,
    ) -> Result<Vec<Slot>, Error> {
        let mut request = Request::new(GetCoachScheduleRequest {
            coach_id: coach_id.to_string(),
            from: range.from.to_string(),
            to: range.to.to_string(),
        });
        request.set_timeout(self.deadline);
        if let Some(value) = authorization {
            request.metadata_mut().insert("authorization", value);
        }
        platform::telemetry::inject(request.metadata_mut());
        let response = CoachingClient::new(self.channel.clone())
            .get_coach_schedule(request)
            .await
            .map_err(|status| failed("GetCoachSchedule", status))?
            .into_inner();
        let policy = response.policy.map(policy).unwrap_or_default();
        let time_off = time_off(response.time_off)?;
        response
            .slots
            .into_iter()
            .map(|s| slot_of(s.slot, s.location_name, &s.time_zone, policy, time_off.clone()))
            .collect()
    }

    async fn get_slot(
        &self,
        slot_id: SlotId,
        authorization: Option<AsciiMetadataValue>,
    ) -> Result<GetSlotResponse, tonic::Status> {
        let mut request = Request::new(GetSlotRequest {
            slot_id: slot_id.to_string(),
        });
        request.set_timeout(self.deadline);
        if let Some(value) = authorization {
            request.metadata_mut().insert("authorization", value);
        }
        platform::telemetry::inject(request.metadata_mut());
        Ok(CoachingClient::new(self.channel.clone())
            .get_slot(request)
            .await?
            .into_inner())
    }

    /// Ok when coaching-svc answers its health check as serving.
    pub async fn check_health(&self) -> Result<(), String> {
        let mut request = Request::new(HealthCheckRequest {
            service: "coaching.v1.Coaching".into(),
        });
        request.set_timeout(Duration::from_secs(1));
        let response = HealthClient::new(self.channel.clone())
            .check(request)
            .await
            .map_err(|status| format!("{}: {}", status.code(), status.message()))?;
        match response.into_inner().status() {
            ServingStatus::Serving => Ok(()),
            other => Err(format!("it reports {}", other.as_str_name())),
        }
    }
}

/// A failed call: coaching-svc down or too slow is a 503 to try again; anything else is ours.
fn failed(rpc: &str, status: tonic::Status) -> Error {
    match status.code() {
        Code::Unavailable | Code::DeadlineExceeded | Code::Cancelled => {
            tracing::warn!(%status, rpc, "coaching-svc did not answer");
            Error::Unavailable(UNAVAILABLE.into())
        }
        _ => Error::Other(anyhow::anyhow!("coaching-svc {rpc} failed: {status}")),
    }
}

/// coaching-svc's slot as booking's domain slot; a slot that cannot be read is coaching's fault,
/// not the client's.
fn slot_from_proto(response: GetSlotResponse) -> Result<Slot, Error> {
    let policy = response.policy.map(policy).unwrap_or_default();
    let time_off = time_off(response.time_off)?;
    let slot = slot_of(
        response.slot,
        response.location_name,
        &response.time_zone,
        policy,
        time_off,
    )?;
    Ok(Slot {
        hourly_rate_cents: response.hourly_rate_cents.max(0),
        ..slot
    })
}

fn unreadable(what: &str) -> Error {
    Error::Other(anyhow::anyhow!("coaching-svc sent a slot with {what}"))
}

/// The coach's time off as coaching-svc sends it.
fn time_off(time_off: Vec<cpb::TimeOff>) -> Result<Vec<TimeOff>, Error> {
    time_off
        .into_iter()
        .map(|off| {
            Ok(TimeOff {
                start_date: crate::domain::parse_date(&off.start_date)
                    .ok_or_else(|| unreadable("a time off of unreadable dates"))?,
                end_date: crate::domain::parse_date(&off.end_date)
                    .ok_or_else(|| unreadable("a time off of unreadable dates"))?,
            })
        })
        .collect()
}

fn slot_of(
    slot: Option<cpb::Slot>,
    location_name: Option<String>,
    time_zone: &str,
    policy: Policy,
    time_off: Vec<TimeOff>,
) -> Result<Slot, Error> {
    let slot = slot.ok_or_else(|| unreadable("no slot"))?;
    let when = SlotWhen::parse(
        &slot.slot_type,
        slot.day_of_week.as_deref(),
        slot.specific_date.as_deref(),
    )
    .ok_or_else(|| unreadable("an unreadable day or date"))?;
    Ok(Slot {
        slot_id: SlotId::parse(&slot.slot_id).map_err(|_| unreadable("a malformed slot_id"))?,
        coach_id: CoachId::parse(&slot.coach_id).map_err(|_| unreadable("a malformed coach_id"))?,
        when,
        start_time: parse_time(&slot.start_time).ok_or_else(|| unreadable("a malformed start_time"))?,
        end_time: parse_time(&slot.end_time).ok_or_else(|| unreadable("a malformed end_time"))?,
        location_name: location_name.unwrap_or_default(),
        time_zone: zone(time_zone).ok_or_else(|| unreadable("an unknown time zone"))?,
        policy,
        time_off,
        // Only GetSlot (what a booking is made from) says the rate; the calendar needs none.
        hourly_rate_cents: 0,
    })
}

/// The slot's zone; a coaching-svc that sends none (one from before zones were kept) means UTC.
fn zone(name: &str) -> Option<Zone> {
    match name.trim() {
        "" => Some(Zone::UTC),
        name => name.parse().ok(),
    }
}

/// The coach's policy as coaching-svc sends it (absent: the defaults; absent fees: 50 % and
/// 100 %).
fn policy(p: BookingPolicy) -> Policy {
    Policy::from_minutes(
        i64::from(p.min_notice_minutes),
        i64::from(p.max_advance_days),
        i64::from(p.response_window_minutes),
        i64::from(p.cancellation_window_minutes),
    )
    .with_fees(p.late_cancellation_fee_percent, p.no_show_fee_percent)
}

/// The caller's `authorization` metadata, to forward as it came.
pub fn authorization<T>(request: &Request<T>) -> Option<AsciiMetadataValue> {
    request
        .metadata()
        .get("authorization")
        .cloned()
        .filter(|v: &MetadataValue<_>| !v.is_empty())
}
