//! The books: a double-entry ledger in whole cents (`booking.ledger_txn`, `booking.ledger_entry`;
//! positive is a debit). A capture C with the platform's fee F is `provider +C`,
//! `coach:<id> −(C−F)`, `platform:fees −F`; a refund R returning fee Fr is `provider −R`,
//! `coach:<id> +(R−Fr)`, `platform:fees +Fr`. Every transaction sums to zero (the database refuses
//! one that does not, at commit) and names its `source` ("capture:<booking>", "refund:<refund>"),
//! unique, so an outcome is booked once however often it is applied.

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use super::money::Captured;
use crate::error::Error;

/// The account of the money at the provider.
pub const PROVIDER: &str = "provider";
/// The account of the platform's fees.
pub const FEES: &str = "platform:fees";

/// The account of what the platform owes a coach.
pub fn coach_account(coach_id: Uuid) -> String {
    format!("coach:{coach_id}")
}

/// Books one transaction of `kind` for `booking_id` from `source` at `at`, with the entries
/// (account, amount); false when `source` was already booked (nothing written then).
async fn book(
    tx: &mut PgConnection,
    booking_id: Uuid,
    kind: &str,
    source: &str,
    at: DateTime<Utc>,
    entries: &[(String, i64)],
) -> Result<bool, Error> {
    debug_assert_eq!(entries.iter().map(|(_, a)| a).sum::<i64>(), 0);
    let txn_id = sqlx::query_scalar::<_, Uuid>(
        "insert into booking.ledger_txn (txn_id, booking_id, kind, at, source)
         values ($1, $2, $3, $4, $5)
         on conflict (source) do nothing
         returning txn_id",
    )
    .bind(Uuid::now_v7())
    .bind(booking_id)
    .bind(kind)
    .bind(at)
    .bind(source)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(txn_id) = txn_id else {
        return Ok(false);
    };
    let accounts: Vec<&str> = entries.iter().map(|(a, _)| a.as_str()).collect();
    let amounts: Vec<i64> = entries.iter().map(|(_, c)| *c).collect();
    sqlx::query(
        "insert into booking.ledger_entry (txn_id, account, amount_cents)
         select $1, account, amount from unnest($2::text[], $3::int8[]) as e(account, amount)",
    )
    .bind(txn_id)
    .bind(&accounts)
    .bind(&amounts)
    .execute(&mut *tx)
    .await?;
    Ok(true)
}

/// Books the capture of `captured` cents of a booking of `coach_id`, with the platform's `fee`;
/// false when it was already booked.
pub async fn book_capture(
    tx: &mut PgConnection,
    booking_id: Uuid,
    coach_id: Uuid,
    captured: i64,
    fee: i64,
    at: DateTime<Utc>,
) -> Result<bool, Error> {
    let entries = [
        (PROVIDER.to_owned(), captured),
        (coach_account(coach_id), -(captured - fee)),
        (FEES.to_owned(), -fee),
    ];
    book(
        tx,
        booking_id,
        "capture",
        &format!("capture:{booking_id}"),
        at,
        &entries,
    )
    .await
}

/// Books refund `refund_id` of `amount` cents returning `fee_returned` of the platform's fee;
/// false when it was already booked.
pub async fn book_refund(
    tx: &mut PgConnection,
    booking_id: Uuid,
    coach_id: Uuid,
    refund_id: Uuid,
    amount: i64,
    fee_returned: i64,
    at: DateTime<Utc>,
) -> Result<bool, Error> {
    let entries = [
        (PROVIDER.to_owned(), -amount),
        (coach_account(coach_id), amount - fee_returned),
        (FEES.to_owned(), fee_returned),
    ];
    book(
        tx,
        booking_id,
        "refund",
        &format!("refund:{refund_id}"),
        at,
        &entries,
    )
    .await
}

/// What the books say of a booking's capture: captured, its fee, refunded, the fee returned.
pub async fn captured_of(db: impl PgExecutor<'_>, booking_id: Uuid) -> Result<Captured, Error> {
    let (amount, fee, refunded, fee_returned) = sqlx::query_as::<_, (i64, i64, i64, i64)>(
        "select coalesce(sum(e.amount_cents) filter (where t.kind = 'capture' and e.account = $2), 0)::int8,
                coalesce(-sum(e.amount_cents) filter (where t.kind = 'capture' and e.account = $3), 0)::int8,
                coalesce(-sum(e.amount_cents) filter (where t.kind = 'refund' and e.account = $2), 0)::int8,
                coalesce(sum(e.amount_cents) filter (where t.kind = 'refund' and e.account = $3), 0)::int8
         from booking.ledger_txn t join booking.ledger_entry e using (txn_id)
         where t.booking_id = $1",
    )
    .bind(booking_id)
    .bind(PROVIDER)
    .bind(FEES)
    .fetch_one(db)
    .await?;
    Ok(Captured {
        amount,
        fee,
        refunded,
        fee_returned,
    })
}

/// The platform's money: every capture, the fees less what refunds returned, every refund.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub gross: i64,
    pub fees: i64,
    pub refunds: i64,
}

/// [`Totals`] from the whole ledger (one scan of the entries of two accounts).
pub async fn totals(db: impl PgExecutor<'_>) -> Result<Totals, Error> {
    let (gross, fees, refunds) = sqlx::query_as::<_, (i64, i64, i64)>(
        "select coalesce(sum(e.amount_cents) filter (where t.kind = 'capture' and e.account = $1), 0)::int8,
                coalesce(-sum(e.amount_cents) filter (where e.account = $2), 0)::int8,
                coalesce(-sum(e.amount_cents) filter (where t.kind = 'refund' and e.account = $1), 0)::int8
         from booking.ledger_entry e join booking.ledger_txn t using (txn_id)
         where e.account in ($1, $2)",
    )
    .bind(PROVIDER)
    .bind(FEES)
    .fetch_one(db)
    .await?;
    Ok(Totals { gross, fees, refunds })
}

/// One of a coach's ledger transactions, as their statement lists it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct CoachLine {
    pub booking_id: Uuid,
    pub booking_date: NaiveDate,
    pub client_id: Uuid,
    pub kind: String,
    /// Captured (negative for a refund).
    pub gross_cents: i64,
    /// The platform's share (negative when a refund returns it).
    pub fee_cents: i64,
    /// What the coach earns of it (gross less fee).
    pub net_cents: i64,
    pub at: DateTime<Utc>,
}

/// The coach's ledger transactions from `from` (inclusive) to `to` (exclusive), oldest first.
pub async fn coach_lines(
    db: impl PgExecutor<'_>,
    coach_id: Uuid,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> Result<Vec<CoachLine>, Error> {
    Ok(sqlx::query_as::<_, CoachLine>(
        "select t.booking_id, b.booking_date, b.client_id, t.kind,
                coalesce(sum(e.amount_cents) filter (where e.account = $4), 0)::int8 as gross_cents,
                coalesce(-sum(e.amount_cents) filter (where e.account = $5), 0)::int8 as fee_cents,
                coalesce(-sum(e.amount_cents) filter (where e.account = $1), 0)::int8 as net_cents,
                t.at
         from booking.ledger_txn t
         join booking.ledger_entry e using (txn_id)
         join booking.booking b on b.booking_id = t.booking_id
         where b.coach_id = $6 and t.at >= $2 and t.at < $3
           and exists (select 1 from booking.ledger_entry c
                       where c.txn_id = t.txn_id and c.account = $1)
         group by t.txn_id, t.booking_id, b.booking_date, b.client_id, t.kind, t.at
         order by t.at, t.txn_id",
    )
    .bind(coach_account(coach_id))
    .bind(from)
    .bind(to)
    .bind(PROVIDER)
    .bind(FEES)
    .bind(coach_id)
    .fetch_all(db)
    .await?)
}
