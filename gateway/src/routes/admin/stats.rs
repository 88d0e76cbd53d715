//! Platform statistics: users by role (identity-svc), bookings and the platform's money
//! (booking-svc), with the weekly activity of users and bookings joined on the week.

use std::collections::BTreeMap;

use axum::extract::State;
use proto::{booking::v1 as booking, identity::v1 as pb};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{call, error::ApiError, extract::Session, state::AppState};

/// The platform's counts and its weekly activity.
#[derive(Debug, Serialize, ToSchema)]
pub struct Stats {
    pub total_users: i64,
    pub total_coaches: i64,
    pub total_gyms: i64,
    pub total_bookings: i64,
    /// Every charge ever captured, whole cents (refunds not taken off).
    pub gross_cents: i64,
    /// The platform's fees of those charges, less the fees refunds gave back, whole cents.
    pub fees_cents: i64,
    /// Every refund, whole cents.
    pub refunds_cents: i64,
    /// The last 12 weeks, oldest first.
    pub activity: Vec<WeekActivity>,
}

/// Sign-ups and bookings made in one week.
#[derive(Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct WeekActivity {
    /// The Monday that starts the week, YYYY-MM-DD.
    #[schema(format = Date)]
    pub week_start: String,
    pub signups: i64,
    pub bookings: i64,
}

/// Joins the weekly sign-ups and bookings on their week.
fn activity(signups: Vec<pb::WeeklyCount>, bookings: Vec<booking::WeeklyCount>) -> Vec<WeekActivity> {
    let mut weeks: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    for week in signups {
        weeks.entry(week.week_start).or_default().0 += week.count;
    }
    for week in bookings {
        weeks.entry(week.week_start).or_default().1 += week.count;
    }
    weeks
        .into_iter()
        .map(|(week_start, (signups, bookings))| WeekActivity {
            week_start,
            signups,
            bookings,
        })
        .collect()
}

/// Platform statistics: users by role (identity), bookings and the platform's money (booking),
/// asked concurrently.
#[utoipa::path(get, path = "/admin/stats", tag = "admin",
    responses((status = 200, description = "The counts and the weekly activity", body = Stats)))]
pub(crate) async fn admin_stats(
    State(state): State<AppState>,
    session: Session,
) -> Result<axum::Json<Stats>, ApiError> {
    let (users, bookings, money) = tokio::join!(
        call::read!(
            state,
            identity.count_users,
            Some(&session),
            pb::CountUsersRequest {}
        ),
        call::read!(
            state,
            booking.count_bookings,
            Some(&session),
            booking::CountBookingsRequest { user_id: None }
        ),
        call::read!(
            state,
            booking.get_payment_totals,
            Some(&session),
            booking::GetPaymentTotalsRequest {}
        ),
    );
    let (users, bookings, money) = (users?, bookings?, money?);
    Ok(axum::Json(Stats {
        total_users: users.total_users,
        total_coaches: users.total_coaches,
        total_gyms: users.total_gyms,
        total_bookings: bookings.total,
        gross_cents: money.gross_cents,
        fees_cents: money.fees_cents,
        refunds_cents: money.refunds_cents,
        activity: activity(users.signups_per_week, bookings.per_week),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn activity_joins_signups_and_bookings_by_week_oldest_first() {
        let signups = vec![
            pb::WeeklyCount {
                week_start: "2025-01-06".into(),
                count: 2,
            },
            pb::WeeklyCount {
                week_start: "2025-01-13".into(),
                count: 0,
            },
        ];
        let bookings = vec![
            booking::WeeklyCount {
                week_start: "2025-01-13".into(),
                count: 5,
            },
            booking::WeeklyCount {
                week_start: "2024-12-30".into(),
                count: 1,
            },
        ];
        let weeks: Vec<_> = activity(signups, bookings)
            .into_iter()
            .map(|w| (w.week_start, w.signups, w.bookings))
            .collect();
        assert_eq!(
            weeks,
            [
                ("2024-12-30".to_owned(), 0, 1),
                ("2025-01-06".to_owned(), 2, 0),
                ("2025-01-13".to_owned(), 0, 5),
            ]
        );
    }
}
