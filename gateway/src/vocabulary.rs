//! The closed sets of the API: each a Rust enum whose serde names are the words on the wire, so
//! the OpenAPI document lists them as an `enum` and a request with any other word is refused
//! naming its field (see `crate::body_check`). Fields declare them as their schema.

use serde::{Deserialize, Serialize};
use utoipa::{
    ToSchema,
    openapi::{KnownFormat, ObjectBuilder, OneOfBuilder, Ref, RefOr, Schema, SchemaFormat, schema::Type},
};

/// What an account is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Admin,
    Coach,
    Client,
    Gym,
}

impl Role {
    /// The word on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Admin => "admin",
            Self::Coach => "coach",
            Self::Client => "client",
            Self::Gym => "gym",
        }
    }
}

/// The roles a person may choose when registering (an admin is made by an admin).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SignUpRole {
    Client,
    Coach,
    Gym,
}

/// Weekly on a day (recurring) or on one date (one-time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SlotType {
    Recurring,
    OneTime,
}

/// What an API token may do: read (`GET`) or write (any other method) one area of the API
/// (`crate::routes::scopes`); the admin's two for admins only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum TokenScope {
    #[serde(rename = "bookings:read")]
    BookingsRead,
    #[serde(rename = "bookings:write")]
    BookingsWrite,
    #[serde(rename = "availability:read")]
    AvailabilityRead,
    #[serde(rename = "availability:write")]
    AvailabilityWrite,
    #[serde(rename = "court_requests:read")]
    CourtRequestsRead,
    #[serde(rename = "court_requests:write")]
    CourtRequestsWrite,
    #[serde(rename = "profile:read")]
    ProfileRead,
    #[serde(rename = "profile:write")]
    ProfileWrite,
    #[serde(rename = "admin:read")]
    AdminRead,
    #[serde(rename = "admin:write")]
    AdminWrite,
}

/// What a webhook can be told about (and `webhook.test`, which only its test button sends).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum WebhookEventType {
    #[serde(rename = "booking.created")]
    BookingCreated,
    #[serde(rename = "booking.confirmed")]
    BookingConfirmed,
    #[serde(rename = "booking.denied")]
    BookingDenied,
    #[serde(rename = "booking.cancelled")]
    BookingCancelled,
    #[serde(rename = "booking.rescheduled")]
    BookingRescheduled,
    #[serde(rename = "booking.expired")]
    BookingExpired,
    #[serde(rename = "booking.completed")]
    BookingCompleted,
    #[serde(rename = "booking.no_show")]
    BookingNoShow,
    #[serde(rename = "court_request.created")]
    CourtRequestCreated,
    #[serde(rename = "court_request.approved")]
    CourtRequestApproved,
    #[serde(rename = "court_request.denied")]
    CourtRequestDenied,
    #[serde(rename = "court_request.cancelled")]
    CourtRequestCancelled,
    #[serde(rename = "court_request.expired")]
    CourtRequestExpired,
    #[serde(rename = "review.posted")]
    ReviewPosted,
    #[serde(rename = "payment.captured")]
    PaymentCaptured,
    #[serde(rename = "payment.refunded")]
    PaymentRefunded,
    #[serde(rename = "payment.failed")]
    PaymentFailed,
}

/// A day of the week, as the slots name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum DayOfWeek {
    Monday,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
    Saturday,
    Sunday,
}

/// How far a client has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SkillLevel {
    Beginner,
    Intermediate,
    Advanced,
}

/// What a court is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CourtType {
    Basketball,
    Volleyball,
    MultiPurpose,
}

/// Where a booking stands: pending until the coach approves (confirmed) or denies it, the client
/// cancels it, or nobody answers it in time (expired); a confirmed booking is completed at its
/// end, unless either side cancels it before it starts; the coach may mark a completed one
/// no_show within 7 days of its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BookingStatus {
    Pending,
    Confirmed,
    Denied,
    Cancelled,
    Expired,
    Completed,
    NoShow,
}

/// Who cancelled a booking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum CancelledBy {
    Client,
    Coach,
}

/// Where a court reservation stands: pending until the gym approves or denies it, the coach
/// cancels it, or its start passes unanswered (expired); an approved one may be cancelled by the
/// gym before it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReservationStatus {
    Pending,
    Approved,
    Denied,
    Cancelled,
    Expired,
}

/// Where a booking's money stands (booking.v1's `payments.proto` vocabulary): `none`, the session
/// is free (no card, nothing held); `pending`, nothing held yet (the hold is made up to 6 days
/// before the session); `authorized`, the price is held on the client's card; `paid`, captured in
/// full; `partially_paid`, a fee was captured (a late cancellation, a no-show) and the rest
/// released; `released`, the hold was let go and nothing charged; `refunded`, everything captured
/// was refunded; `partially_refunded`, part of it was; `failed`, the card was declined (or is
/// gone) and the client must add or choose another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PaymentStatus {
    None,
    Pending,
    Authorized,
    Paid,
    PartiallyPaid,
    Released,
    Refunded,
    PartiallyRefunded,
    Failed,
}

impl PaymentStatus {
    /// The word on the wire (and in booking.v1).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Pending => "pending",
            Self::Authorized => "authorized",
            Self::Paid => "paid",
            Self::PartiallyPaid => "partially_paid",
            Self::Released => "released",
            Self::Refunded => "refunded",
            Self::PartiallyRefunded => "partially_refunded",
            Self::Failed => "failed",
        }
    }
}

/// One movement of a booking's money: the price `hold` on the card, a `capture` (charged), a
/// `release` (the hold, or what was left of it, let go) or a `refund`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PaymentLineKind {
    Hold,
    Capture,
    Release,
    Refund,
}

/// A line of a coach's earnings: a `capture` (a client charged) or a `refund` (given back).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum EarningsKind {
    Capture,
    Refund,
}

/// The schema of an optional field where an empty string means none, as the server treats it:
/// `null`, `""` or a value of `schema`.
fn blank_or(schema: impl Into<RefOr<Schema>>) -> Schema {
    let blank = ObjectBuilder::new().schema_type(Type::String).max_length(Some(0));
    let null = ObjectBuilder::new().schema_type(Type::Null);
    OneOfBuilder::new()
        .item(schema)
        .item(blank)
        .item(null)
        .build()
        .into()
}

/// `day_of_week` of a new slot: a [`DayOfWeek`], blank or null.
pub fn blank_or_day() -> Schema {
    blank_or(Ref::from_schema_name("DayOfWeek"))
}

/// `skill_level` of a client profile: a [`SkillLevel`], blank or null.
pub fn blank_or_skill_level() -> Schema {
    blank_or(Ref::from_schema_name("SkillLevel"))
}

/// A date (`YYYY-MM-DD`), blank or null.
pub fn blank_or_date() -> Schema {
    blank_or(
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Date))),
    )
}

/// A time zone of the IANA database the services read (chrono-tz's), by name: `America/Chicago`.
/// Every name is listed, so a client knows before sending which ones the server accepts.
pub struct TimeZoneName;

impl utoipa::PartialSchema for TimeZoneName {
    fn schema() -> RefOr<Schema> {
        let names = chrono_tz::TZ_VARIANTS.iter().map(|zone| zone.name());
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some("An IANA time zone name."))
            .enum_values(Some(names))
            .into()
    }
}

impl ToSchema for TimeZoneName {}

/// `time_zone` of a request: a [`TimeZoneName`], or blank or null to have the server work it out
/// (or keep it).
pub fn blank_or_time_zone() -> Schema {
    blank_or(Ref::from_schema_name("TimeZoneName"))
}

/// A UUID, blank or null.
pub fn blank_or_uuid() -> Schema {
    blank_or(
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Uuid))),
    )
}

#[cfg(test)]
mod tests {
    use utoipa::PartialSchema;

    use super::*;

    #[test]
    fn the_document_lists_the_words_serde_reads() {
        assert_eq!(serde_json::to_value(SlotType::OneTime).unwrap(), "one-time");
        assert_eq!(
            serde_json::from_str::<CourtType>("\"multi-purpose\"").unwrap(),
            CourtType::MultiPurpose
        );
        assert!(serde_json::from_str::<DayOfWeek>("\"Funday\"").is_err());
        let schema = serde_json::to_value(SlotType::schema()).unwrap();
        assert_eq!(schema["enum"], serde_json::json!(["recurring", "one-time"]));
    }

    #[test]
    fn payment_statuses_are_the_words_of_payments_proto() {
        let words = [
            "none",
            "pending",
            "authorized",
            "paid",
            "partially_paid",
            "released",
            "refunded",
            "partially_refunded",
            "failed",
        ];
        let schema = serde_json::to_value(PaymentStatus::schema()).unwrap();
        assert_eq!(schema["enum"], serde_json::json!(words));
        for word in words {
            let status: PaymentStatus = serde_json::from_value(serde_json::json!(word)).unwrap();
            assert_eq!(status.as_str(), word);
        }
    }
}
