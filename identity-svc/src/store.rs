//! identity's queries: one function per statement, schema-qualified, taking any executor (or a
//! transaction where the statement only makes sense inside one).

use chrono::{DateTime, NaiveDate, Utc};
use futures::Stream;
use platform::{
    auth::Role,
    database::{Violation, violated},
    pages::Page,
};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use crate::{
    domain::{PhoneChange, ProfileFields, UserFilter},
    error::Error,
};

const EMAIL_TAKEN: &str = "an account with this email already exists";

/// A user row.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct UserRow {
    pub user_id: Uuid,
    pub email: String,
    pub password_hash: String,
    pub full_name: String,
    pub phone: Option<String>,
    pub role: String,
    pub token_version: i64,
    pub created_at: DateTime<Utc>,
}

/// What a new user row holds.
pub struct NewUser<'a> {
    pub email: &'a str,
    pub password_hash: &'a str,
    pub full_name: &'a str,
    pub phone: Option<&'a str>,
    pub role: &'a str,
}

/// The columns of [`UserRow`], as a literal so statements stay `&'static str` (sqlx refuses
/// dynamically built SQL).
macro_rules! user_columns {
    () => {
        "user_id, email, password_hash, full_name, phone, role, token_version, created_at"
    };
}

pub async fn insert_user(db: impl PgExecutor<'_>, user: NewUser<'_>) -> Result<UserRow, Error> {
    sqlx::query_as::<_, UserRow>(concat!(
        "insert into identity.app_user (user_id, email, password_hash, full_name, phone, role)
         values ($1, $2, $3, $4, $5, $6) returning ",
        user_columns!()
    ))
    .bind(Uuid::new_v4())
    .bind(user.email)
    .bind(user.password_hash)
    .bind(user.full_name)
    .bind(user.phone)
    .bind(user.role)
    .fetch_one(db)
    .await
    .map_err(|e| {
        if violated(&e, Violation::Unique, "app_user_email_key") {
            Error::Conflict(EMAIL_TAKEN.into())
        } else {
            e.into()
        }
    })
}

pub async fn user_by_email(db: impl PgExecutor<'_>, email: &str) -> Result<Option<UserRow>, Error> {
    Ok(sqlx::query_as::<_, UserRow>(concat!(
        "select ",
        user_columns!(),
        " from identity.app_user where lower(email) = lower($1)"
    ))
    .bind(email)
    .fetch_optional(db)
    .await?)
}

/// The accounts of `emails` (matched as [`user_by_email`] matches one), in one query.
pub async fn users_by_emails(db: impl PgExecutor<'_>, emails: &[String]) -> Result<Vec<UserRow>, Error> {
    Ok(sqlx::query_as::<_, UserRow>(concat!(
        "select ",
        user_columns!(),
        " from identity.app_user where lower(email) = any(array(select lower(e) from unnest($1::text[]) as e))"
    ))
    .bind(emails)
    .fetch_all(db)
    .await?)
}

pub async fn user_by_id(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<Option<UserRow>, Error> {
    Ok(sqlx::query_as::<_, UserRow>(concat!(
        "select ",
        user_columns!(),
        " from identity.app_user where user_id = $1"
    ))
    .bind(user_id)
    .fetch_optional(db)
    .await?)
}

/// Names and roles of the users among `ids` that exist, in one statement.
pub async fn user_summaries(
    db: impl PgExecutor<'_>,
    ids: &[Uuid],
) -> Result<Vec<(Uuid, String, String)>, Error> {
    Ok(sqlx::query_as::<_, (Uuid, String, String)>(
        "select user_id, full_name, role from identity.app_user where user_id = any($1)",
    )
    .bind(ids)
    .fetch_all(db)
    .await?)
}

pub async fn admin_exists(db: impl PgExecutor<'_>) -> Result<bool, Error> {
    Ok(
        sqlx::query_scalar::<_, bool>("select exists(select 1 from identity.app_user where role = 'admin')")
            .fetch_one(db)
            .await?,
    )
}

/// The user's token version (None when the user is gone) and whether `jti` was revoked.
pub async fn token_state(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    jti: Uuid,
) -> Result<(Option<i64>, bool), Error> {
    Ok(sqlx::query_as::<_, (Option<i64>, bool)>(
        "select (select token_version from identity.app_user where user_id = $1),
                exists(select 1 from identity.revoked_token where jti = $2)",
    )
    .bind(user_id)
    .bind(jti)
    .fetch_one(db)
    .await?)
}

pub async fn revoke_token(
    db: impl PgExecutor<'_>,
    jti: Uuid,
    expires_at: DateTime<Utc>,
) -> Result<(), Error> {
    sqlx::query(
        "insert into identity.revoked_token (jti, expires_at) values ($1, $2) on conflict do nothing",
    )
    .bind(jti)
    .bind(expires_at)
    .execute(db)
    .await?;
    Ok(())
}

/// A user as the admin's list shows them: what [`UserRow`] holds but the password hash and the
/// token version, which a list has no use for.
#[derive(Debug, sqlx::FromRow)]
pub struct ListedUser {
    pub user_id: Uuid,
    pub email: String,
    pub full_name: String,
    pub phone: Option<String>,
    pub role: String,
    pub created_at: DateTime<Utc>,
}

/// Where a page of users starts: after the user created at this instant with this id, in the
/// list's order (newest first, then by id).
pub type UserKeyset = (DateTime<Utc>, Uuid);

/// The users' columns, after a keyset ($1, $2), at most $3 of them (null: all), newest first:
/// one range of the `app_user_page_idx` order (of `app_user_role_page_idx` with a role), or the
/// trigram index's matches with a search, whichever PostgreSQL finds cheaper.
macro_rules! users_after {
    ($($filters:tt)*) => {
        concat!(
            "select user_id, email, full_name, phone, role, created_at
             from identity.app_user
             where created_at <= $1 and (created_at < $1 or user_id > $2)",
            $($filters)*,
            " order by created_at desc, user_id limit $3"
        )
    };
}
/// What the search reads: the text `app_user_search_idx` indexes.
macro_rules! searched {
    () => {
        "(lower(full_name) || chr(31) || lower(email) || chr(31) || user_id::text) like"
    };
}

/// The first page starts after this keyset: later than any user.
fn before_everyone() -> UserKeyset {
    (DateTime::<Utc>::MAX_UTC, Uuid::nil())
}

/// The users `filter` lets through, newest first, from `page`'s keyset on, at most `page`'s limit
/// plus one (all of them without a limit), row by row as PostgreSQL sends them: a list of every
/// user is never held twice, once as rows and once as what is made of them. One statement.
pub fn list_users<'e>(
    db: impl PgExecutor<'e> + 'e,
    filter: &UserFilter,
    page: &Page<UserKeyset>,
) -> impl Stream<Item = Result<ListedUser, sqlx::Error>> + 'e {
    let (after_at, after_id) = page.after.unwrap_or_else(before_everyone);
    let role = filter.role.map(Role::as_str);
    let paged = |sql| {
        sqlx::query_as::<_, ListedUser>(sql)
            .bind(after_at)
            .bind(after_id)
            .bind(page.fetch())
    };
    let query = match (role, filter.pattern.clone()) {
        (None, None) => paged(users_after!("")),
        (Some(role), None) => paged(users_after!(" and role = $4")).bind(role),
        // A search is planned for its own pattern (an unnamed statement): how many users a
        // pattern matches decides between the trigram index and the page order.
        (None, Some(pattern)) => paged(users_after!(" and ", searched!(), " $4"))
            .bind(pattern)
            .persistent(false),
        (Some(role), Some(pattern)) => paged(users_after!(" and role = $4 and ", searched!(), " $5"))
            .bind(role)
            .bind(pattern)
            .persistent(false),
    };
    query.fetch(db)
}

/// Replaces the user's password hash `old` by `new` (the same password, hashed at other
/// parameters); nothing happens if the hash is no longer `old`, as when the password changed
/// meanwhile. Tokens stay valid: the password did not change.
pub async fn replace_password_hash(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    old: &str,
    new: &str,
) -> Result<bool, Error> {
    let replaced = sqlx::query(
        "update identity.app_user set password_hash = $3 where user_id = $1 and password_hash = $2",
    )
    .bind(user_id)
    .bind(old)
    .bind(new)
    .execute(db)
    .await?;
    Ok(replaced.rows_affected() == 1)
}

/// The user, locked until the transaction ends, so concurrent changes to one user queue up.
pub async fn lock_user(tx: &mut PgConnection, user_id: Uuid) -> Result<Option<UserRow>, Error> {
    Ok(sqlx::query_as::<_, UserRow>(concat!(
        "select ",
        user_columns!(),
        " from identity.app_user where user_id = $1 for update"
    ))
    .bind(user_id)
    .fetch_optional(tx)
    .await?)
}

/// The new values of a user's columns; `None` keeps a column as it is.
pub struct UserUpdate<'a> {
    pub email: Option<&'a str>,
    pub full_name: Option<&'a str>,
    pub phone: &'a PhoneChange,
    pub role: Option<&'a str>,
    pub password_hash: Option<&'a str>,
    pub bump_token_version: bool,
}

/// Writes `update` to the user and returns the row as it now is.
pub async fn update_user(
    tx: &mut PgConnection,
    user_id: Uuid,
    update: UserUpdate<'_>,
) -> Result<UserRow, Error> {
    let (set_phone, phone) = match update.phone {
        PhoneChange::Keep => (false, None),
        PhoneChange::Set(p) => (true, Some(p.as_str())),
        PhoneChange::Clear => (true, None),
    };
    sqlx::query_as::<_, UserRow>(concat!(
        "update identity.app_user set
             email = coalesce($2, email),
             full_name = coalesce($3, full_name),
             phone = case when $4 then $5 else phone end,
             role = coalesce($6, role),
             password_hash = coalesce($7, password_hash),
             token_version = token_version + case when $8 then 1 else 0 end
         where user_id = $1
         returning ",
        user_columns!()
    ))
    .bind(user_id)
    .bind(update.email)
    .bind(update.full_name)
    .bind(set_phone)
    .bind(phone)
    .bind(update.role)
    .bind(update.password_hash)
    .bind(update.bump_token_version)
    .fetch_one(tx)
    .await
    .map_err(|e| {
        if violated(&e, Violation::Unique, "app_user_email_key") {
            Error::Conflict(EMAIL_TAKEN.into())
        } else {
            e.into()
        }
    })
}

/// Deletes the user (their client profile goes with them).
pub async fn delete_user(tx: &mut PgConnection, user_id: Uuid) -> Result<(), Error> {
    sqlx::query("delete from identity.app_user where user_id = $1")
        .bind(user_id)
        .execute(tx)
        .await?;
    Ok(())
}

/// How many users there are, in all and per role.
#[derive(Debug, sqlx::FromRow)]
pub struct UserCounts {
    pub total: i64,
    pub coaches: i64,
    pub gyms: i64,
    pub clients: i64,
    pub admins: i64,
}

/// From the counters the migration's triggers keep in step with every write to the users: at most
/// 16 rows a role, whatever the number of users.
pub async fn user_counts(db: impl PgExecutor<'_>) -> Result<UserCounts, Error> {
    Ok(sqlx::query_as::<_, UserCounts>(
        "select coalesce(sum(users), 0)::int8 as total,
                coalesce(sum(users) filter (where role = 'coach'), 0)::int8 as coaches,
                coalesce(sum(users) filter (where role = 'gym'), 0)::int8 as gyms,
                coalesce(sum(users) filter (where role = 'client'), 0)::int8 as clients,
                coalesce(sum(users) filter (where role = 'admin'), 0)::int8 as admins
         from identity.user_count",
    )
    .fetch_one(db)
    .await?)
}

/// How many users have `role` (every user: `None`), from the counters.
pub async fn user_total(db: impl PgExecutor<'_>, role: Option<Role>) -> Result<i64, Error> {
    Ok(sqlx::query_scalar::<_, i64>(
        "select coalesce(sum(users), 0)::int8 from identity.user_count
         where $1::text is null or role = $1",
    )
    .bind(role.map(Role::as_str))
    .fetch_one(db)
    .await?)
}

/// Sign-ups per week (weeks start on Monday, UTC) for the last `weeks` weeks including this one,
/// oldest first, weeks without sign-ups included as zero: from the weekly counters (at most 16
/// rows a week), never the users.
pub async fn weekly_signups(db: impl PgExecutor<'_>, weeks: i32) -> Result<Vec<(NaiveDate, i64)>, Error> {
    Ok(sqlx::query_as::<_, (NaiveDate, i64)>(
        "select week::date,
                coalesce((select sum(w.signups) from identity.signup_week w
                          where w.week_start = week::date), 0)::int8
         from generate_series(
                  date_trunc('week', now() at time zone 'utc') - make_interval(weeks => $1 - 1),
                  date_trunc('week', now() at time zone 'utc'),
                  interval '1 week'
              ) as week
         order by week",
    )
    .bind(weeks)
    .fetch_all(db)
    .await?)
}

/// A client profile row.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ProfileRow {
    pub user_id: Uuid,
    pub age: Option<i32>,
    pub grade: Option<String>,
    pub sport: Option<String>,
    pub skill_level: Option<String>,
    pub profile_picture_url: Option<String>,
}

pub async fn client_profile(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<Option<ProfileRow>, Error> {
    Ok(sqlx::query_as::<_, ProfileRow>(
        "select user_id, age, grade, sport, skill_level, profile_picture_url
         from identity.client_profile where user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(db)
    .await?)
}

pub async fn insert_client_profile(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    fields: &ProfileFields,
) -> Result<ProfileRow, Error> {
    sqlx::query_as::<_, ProfileRow>(
        "insert into identity.client_profile
             (user_id, age, grade, sport, skill_level, profile_picture_url)
         values ($1, $2, $3, $4, $5, $6)
         returning user_id, age, grade, sport, skill_level, profile_picture_url",
    )
    .bind(user_id)
    .bind(fields.age)
    .bind(fields.grade.as_deref())
    .bind(fields.sport.as_deref())
    .bind(fields.skill_level.map(|s| s.as_str()))
    .bind(fields.profile_picture_url.as_deref())
    .fetch_one(db)
    .await
    .map_err(|e| {
        if violated(&e, Violation::Unique, "client_profile_pkey") {
            Error::Conflict("you already have a profile; update it instead".into())
        } else if violated(&e, Violation::ForeignKey, "client_profile_user_id_fkey") {
            Error::Unauthenticated("this account no longer exists".into())
        } else {
            e.into()
        }
    })
}

/// Replaces every field of the profile; `None` when there is no profile.
pub async fn update_client_profile(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    fields: &ProfileFields,
) -> Result<Option<ProfileRow>, Error> {
    Ok(sqlx::query_as::<_, ProfileRow>(
        "update identity.client_profile
         set age = $2, grade = $3, sport = $4, skill_level = $5, profile_picture_url = $6
         where user_id = $1
         returning user_id, age, grade, sport, skill_level, profile_picture_url",
    )
    .bind(user_id)
    .bind(fields.age)
    .bind(fields.grade.as_deref())
    .bind(fields.sport.as_deref())
    .bind(fields.skill_level.map(|s| s.as_str()))
    .bind(fields.profile_picture_url.as_deref())
    .fetch_optional(db)
    .await?)
}

/// A user and, if there is one, their client profile.
#[derive(Debug, sqlx::FromRow)]
pub struct UserWithProfileRow {
    #[sqlx(flatten)]
    pub user: UserRow,
    pub profile_user_id: Option<Uuid>,
    pub age: Option<i32>,
    pub grade: Option<String>,
    pub sport: Option<String>,
    pub skill_level: Option<String>,
    pub profile_picture_url: Option<String>,
}

impl UserWithProfileRow {
    pub fn split(self) -> (UserRow, Option<ProfileRow>) {
        let profile = self.profile_user_id.map(|user_id| ProfileRow {
            user_id,
            age: self.age,
            grade: self.grade,
            sport: self.sport,
            skill_level: self.skill_level,
            profile_picture_url: self.profile_picture_url,
        });
        (self.user, profile)
    }
}

pub async fn user_with_profile(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
) -> Result<Option<UserWithProfileRow>, Error> {
    Ok(sqlx::query_as::<_, UserWithProfileRow>(
        "select u.user_id, u.email, u.password_hash, u.full_name, u.phone, u.role,
                u.token_version, u.created_at,
                p.user_id as profile_user_id, p.age, p.grade, p.sport, p.skill_level,
                p.profile_picture_url
         from identity.app_user u
         left join identity.client_profile p on p.user_id = u.user_id
         where u.user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(db)
    .await?)
}

/// Where identity's events wait for the relay (platform::outbox).
pub const OUTBOX: platform::outbox::Outbox = platform::outbox::Outbox::of("identity");

/// Forgets revocations of tokens that have expired anyway, and those tokens' sessions.
pub async fn delete_expired_revocations(db: impl PgExecutor<'_>) -> Result<u64, Error> {
    Ok(sqlx::query(
        "with sessions as (delete from identity.session where expires_at < now())
         delete from identity.revoked_token where expires_at < now()",
    )
    .execute(db)
    .await?
    .rows_affected())
}

/// A session as its owner's list shows it.
#[derive(Debug, sqlx::FromRow)]
pub struct SessionRow {
    pub jti: Uuid,
    pub created_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub user_agent: String,
}

/// Records the session of a token just issued.
pub async fn insert_session(
    db: impl PgExecutor<'_>,
    jti: Uuid,
    user_id: Uuid,
    token_version: i64,
    expires_at: DateTime<Utc>,
    user_agent: &str,
) -> Result<(), Error> {
    sqlx::query(
        "insert into identity.session (jti, user_id, token_version, expires_at, user_agent)
         values ($1, $2, $3, $4, $5)",
    )
    .bind(jti)
    .bind(user_id)
    .bind(token_version)
    .bind(expires_at)
    .bind(user_agent)
    .execute(db)
    .await?;
    Ok(())
}

/// A user's sessions still in force (not revoked, not expired, of the current token version),
/// newest first.
pub async fn live_sessions(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<Vec<SessionRow>, Error> {
    Ok(sqlx::query_as::<_, SessionRow>(
        "select s.jti, s.created_at, s.last_seen_at, s.expires_at, s.user_agent
           from identity.session s
           join identity.app_user u on u.user_id = s.user_id and u.token_version = s.token_version
          where s.user_id = $1 and s.expires_at > now()
            and not exists (select 1 from identity.revoked_token r where r.jti = s.jti)
          order by s.created_at desc, s.jti",
    )
    .bind(user_id)
    .fetch_all(db)
    .await?)
}

/// Notes that a session was seen now, at most once a minute.
pub async fn touch_session(db: impl PgExecutor<'_>, jti: Uuid) -> Result<(), Error> {
    sqlx::query(
        "update identity.session set last_seen_at = now()
          where jti = $1 and last_seen_at < now() - interval '1 minute'",
    )
    .bind(jti)
    .execute(db)
    .await?;
    Ok(())
}

/// One field an admin action changed. A password is a change of the field `password` with
/// neither value: its text and its hash are never recorded.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AuditChange {
    pub field: String,
    pub old: Option<String>,
    pub new: Option<String>,
}

/// An entry of the admin audit trail, as it is written.
pub struct NewAudit<'a> {
    pub admin_id: Uuid,
    /// `user_created`, `user_updated` or `user_deleted`.
    pub action: &'a str,
    pub target_id: Uuid,
    /// What the target was called then (a user's email).
    pub target_label: &'a str,
    pub request_id: &'a str,
    pub changes: Vec<AuditChange>,
}

/// An entry of the admin audit trail, as it is read.
#[derive(Debug, sqlx::FromRow)]
pub struct AuditRow {
    pub audit_id: Uuid,
    pub at: DateTime<Utc>,
    pub admin_id: Uuid,
    pub action: String,
    pub target_type: String,
    pub target_id: Uuid,
    pub target_label: String,
    pub request_id: String,
    /// JSON: the [`AuditChange`]s.
    pub changes: String,
}

/// Where a page of the audit trail starts: after this time and id (newest first).
pub type AuditKeyset = (DateTime<Utc>, Uuid);

/// Records an admin action; called in the transaction of the change it records.
pub async fn record_audit(db: impl PgExecutor<'_>, entry: &NewAudit<'_>) -> Result<(), Error> {
    let changes = serde_json::to_string(&entry.changes).map_err(anyhow::Error::from)?;
    sqlx::query(
        "insert into identity.admin_audit
             (audit_id, admin_id, action, target_id, target_label, request_id, changes)
         values ($1, $2, $3, $4, $5, $6, $7::jsonb)",
    )
    .bind(Uuid::now_v7())
    .bind(entry.admin_id)
    .bind(entry.action)
    .bind(entry.target_id)
    .bind(entry.target_label)
    .bind(entry.request_id)
    .bind(changes)
    .execute(db)
    .await?;
    Ok(())
}

/// A page of the audit trail, newest first.
pub async fn audit_entries(
    db: impl PgExecutor<'_>,
    page: &Page<AuditKeyset>,
) -> Result<Vec<AuditRow>, Error> {
    Ok(sqlx::query_as::<_, AuditRow>(
        "select audit_id, at, admin_id, action, target_type, target_id, target_label, request_id,
                changes::text as changes
           from identity.admin_audit
          where $1::timestamptz is null or (at, audit_id) < ($1, $2)
          order by at desc, audit_id desc
          limit $3",
    )
    .bind(page.after.map(|(at, _)| at))
    .bind(page.after.map(|(_, id)| id))
    .bind(page.fetch())
    .fetch_all(db)
    .await?)
}
