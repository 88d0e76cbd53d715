//! Names on the records that mention users: the user ids of a batch of records resolved to full
//! names in ONE `GetUsers` call to identity-svc (or from the gateway's memory under the current
//! names stamp), then composed into the answers.

use std::collections::HashMap;

use proto::identity::v1::GetUsersRequest;

use crate::{call, error::ApiError, extract::Session, state::AppState};

/// Shown where a record names a user whose account no longer exists.
pub const DELETED_USER: &str = "Deleted user";

/// Full names by user id; ids identity-svc does not know are absent.
pub struct Names(HashMap<String, String>);

impl Names {
    /// The user's name, if the account exists.
    pub fn get(&self, id: &str) -> Option<&str> {
        self.0.get(id).map(String::as_str)
    }

    /// The user's name, or [`DELETED_USER`].
    pub fn or_deleted(&self, id: &str) -> String {
        self.get(id).unwrap_or(DELETED_USER).to_owned()
    }
}

/// Full names of `ids`: those remembered under the current names stamp, the rest from
/// identity-svc in ONE call.
pub async fn names(
    state: &AppState,
    session: Option<&Session>,
    ids: impl IntoIterator<Item = String>,
) -> Result<Names, ApiError> {
    let mut user_ids: Vec<String> = ids.into_iter().collect();
    user_ids.sort_unstable();
    user_ids.dedup();
    let mut found = HashMap::with_capacity(user_ids.len());
    let stamp = crate::memo::stamps().of(crate::routes::cache::NAMES);
    if let Some(stamp) = &stamp {
        state.memo.recall_names(stamp, &mut user_ids, &mut found);
    }
    if user_ids.is_empty() {
        return Ok(Names(found));
    }
    let message = GetUsersRequest { user_ids };
    let reply = call::read!(state, identity.get_users, session, message).await?;
    let read: HashMap<String, String> = reply
        .users
        .into_iter()
        .map(|u| (u.user_id, u.full_name))
        .collect();
    if let Some(stamp) = &stamp {
        state.memo.remember_names(stamp, &read);
    }
    found.extend(read);
    Ok(Names(found))
}

/// `records` composed with the names of the users each mentions (`ids`), from ONE identity call,
/// in their order; a record `compose` answers `None` for is left out.
pub async fn named<R, T, I>(
    state: &AppState,
    session: Option<&Session>,
    records: Vec<R>,
    ids: impl Fn(&R) -> I,
    compose: impl Fn(R, &Names) -> Option<T>,
) -> Result<Vec<T>, ApiError>
where
    I: IntoIterator<Item = String>,
{
    let names = names(state, session, records.iter().flat_map(ids)).await?;
    Ok(records.into_iter().filter_map(|r| compose(r, &names)).collect())
}

/// One record of a write's reply (which must carry it), composed with names as [`named`] does.
pub async fn named_one<R, T, I>(
    state: &AppState,
    session: &Session,
    service: &'static str,
    record: Option<R>,
    ids: impl Fn(&R) -> I,
    compose: impl Fn(R, &Names) -> T,
) -> Result<T, ApiError>
where
    I: IntoIterator<Item = String>,
{
    let record = call::present(service, record)?;
    let names = names(state, Some(session), ids(&record)).await?;
    Ok(compose(record, &names))
}
