//! The audit trail of admin actions on users: what an entry records of each action (the fields
//! it changed, with old and new values, never a password or its hash) and how an entry reads over
//! gRPC. Entries are written by the RPCs in the transaction of the change (`store::record_audit`)
//! and only ever read afterwards; the table refuses updates and deletes.

use proto::identity::v1 as pb;
use tonic::Request;

use crate::store::{AuditChange, AuditRow, UserRow};

pub const USER_CREATED: &str = "user_created";
pub const USER_UPDATED: &str = "user_updated";
pub const USER_DELETED: &str = "user_deleted";
/// An admin suspended a user (issue 36): changes `suspended_at` and `reason`.
pub const USER_SUSPENDED: &str = "user_suspended";
/// An admin's API token was used (issue 37): the target is the token, "used_for" what for.
pub const API_TOKEN_USED: &str = "api_token_used";
/// The field a password change is recorded under, with neither value.
pub const PASSWORD: &str = "password";

/// The request id the gateway passed along (`x-request-id`, nginx's `X-Request-Id`), or "".
pub fn request_id<T>(request: &Request<T>) -> String {
    request
        .metadata()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .map(|v| v.chars().take(64).collect())
        .unwrap_or_default()
}

fn change(field: &str, old: Option<&str>, new: Option<&str>) -> AuditChange {
    AuditChange {
        field: field.to_owned(),
        old: old.map(str::to_owned),
        new: new.map(str::to_owned),
    }
}

/// The fields of a new user: each with its value, the password as set but not shown.
pub fn created(user: &UserRow) -> Vec<AuditChange> {
    let mut changes = vec![
        change("email", None, Some(&user.email)),
        change("full_name", None, Some(&user.full_name)),
        change("role", None, Some(&user.role)),
    ];
    if let Some(phone) = &user.phone {
        changes.push(change("phone", None, Some(phone)));
    }
    changes.push(change(PASSWORD, None, None));
    changes
}

/// The fields an update changed, from the row before and after it; `password_changed` when the
/// update set a password (the hashes are never compared or recorded).
pub fn updated(before: &UserRow, after: &UserRow, password_changed: bool) -> Vec<AuditChange> {
    let mut changes = Vec::new();
    let fields = [
        ("email", Some(&before.email), Some(&after.email)),
        ("full_name", Some(&before.full_name), Some(&after.full_name)),
        ("phone", before.phone.as_ref(), after.phone.as_ref()),
        ("role", Some(&before.role), Some(&after.role)),
    ];
    for (field, old, new) in fields {
        if old != new {
            changes.push(change(field, old.map(String::as_str), new.map(String::as_str)));
        }
    }
    if password_changed {
        changes.push(change(PASSWORD, None, None));
    }
    changes
}

/// What a deleted user was.
pub fn deleted(user: &UserRow) -> Vec<AuditChange> {
    let mut changes = vec![
        change("email", Some(&user.email), None),
        change("full_name", Some(&user.full_name), None),
        change("role", Some(&user.role), None),
    ];
    if let Some(phone) = &user.phone {
        changes.push(change("phone", Some(phone), None));
    }
    changes
}

impl From<AuditRow> for pb::AuditEntry {
    fn from(row: AuditRow) -> Self {
        let changes: Vec<AuditChange> = serde_json::from_str(&row.changes).unwrap_or_default();
        pb::AuditEntry {
            audit_id: row.audit_id.to_string(),
            at: row.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            admin_id: row.admin_id.to_string(),
            action: row.action,
            target_type: row.target_type,
            target_id: row.target_id.to_string(),
            target_label: row.target_label,
            request_id: row.request_id,
            changes: changes
                .into_iter()
                .map(|c| pb::AuditChange {
                    field: c.field,
                    old_value: c.old,
                    new_value: c.new,
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::Utc;
    use uuid::Uuid;

    use super::*;

    fn user() -> UserRow {
        UserRow {
            user_id: Uuid::new_v4(),
            email: "old@example.com".into(),
            password_hash: "$argon2id$secret".into(),
            full_name: "Old Name".into(),
            phone: None,
            role: "client".into(),
            token_version: 1,
            created_at: Utc::now(),
        }
    }

    #[test]
    fn an_update_records_only_the_fields_it_changed_with_old_and_new() {
        let before = user();
        let after = UserRow {
            full_name: "New Name".into(),
            phone: Some("555-0100".into()),
            password_hash: "$argon2id$other".into(),
            ..user()
        };
        let changes = updated(&before, &after, false);
        assert_eq!(
            changes,
            [
                change("full_name", Some("Old Name"), Some("New Name")),
                change("phone", None, Some("555-0100")),
            ]
        );
    }

    #[test]
    fn a_password_change_is_recorded_without_any_value() {
        let changes = updated(&user(), &user(), true);
        assert_eq!(changes, [change(PASSWORD, None, None)]);
        let text = serde_json::to_string(&created(&user())).unwrap();
        assert!(!text.contains("argon2"), "{text}");
    }
}
