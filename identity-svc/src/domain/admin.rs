//! The admin's changes to users: what a partial update may change, what it sets in motion (a new
//! token version, the events other contexts react to), and who may not be deleted.

use platform::{auth::Role, events::Event};
use uuid::Uuid;

use super::user::{Email, FullName, NewPassword, Phone, parse_role};
use crate::error::Error;

/// The message for a password that is too short (an empty one too: the admin's form sends it).
pub const SHORT_PASSWORD: &str = NewPassword::TOO_SHORT;

/// A partial update as it arrives: `None` leaves the field as it is.
#[derive(Default)]
pub struct RawUserChanges<'a> {
    pub full_name: Option<&'a str>,
    pub email: Option<&'a str>,
    pub phone: Option<&'a str>,
    pub clear_phone: bool,
    pub role: Option<&'a str>,
    pub password: Option<&'a str>,
}

/// What happens to the phone number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PhoneChange {
    Keep,
    Set(String),
    Clear,
}

/// A checked partial update.
pub struct UserChanges {
    pub full_name: Option<FullName>,
    pub email: Option<Email>,
    pub phone: PhoneChange,
    pub role: Option<Role>,
    pub password: Option<NewPassword>,
}

impl UserChanges {
    pub fn parse(raw: RawUserChanges<'_>) -> Result<Self, Error> {
        let phone = match (raw.phone.map(str::trim), raw.clear_phone) {
            (Some(p), true) if !p.is_empty() => {
                return Err(Error::Invalid(
                    "send either a new phone or clear_phone, not both".into(),
                ));
            }
            (_, true) => PhoneChange::Clear,
            (None, false) => PhoneChange::Keep,
            // An empty phone is how the admin's form says "no phone".
            (Some(p), false) => match Phone::parse(Some(p))?.as_deref() {
                Some(p) => PhoneChange::Set(p.to_owned()),
                None => PhoneChange::Clear,
            },
        };
        let role = match raw.role.map(str::trim) {
            None => None,
            Some("") => {
                return Err(Error::Invalid(
                    "role must be one of admin, coach, client or gym".into(),
                ));
            }
            Some(role) => Some(parse_role(role)?),
        };
        let password = match raw.password {
            None => None,
            Some(p) if p.chars().count() < NewPassword::MIN_CHARS => {
                return Err(Error::Invalid(SHORT_PASSWORD.into()));
            }
            Some(p) => {
                let known: Vec<&str> = [raw.email, raw.full_name].into_iter().flatten().collect();
                Some(NewPassword::parse(p, &known)?)
            }
        };
        Ok(Self {
            full_name: raw.full_name.map(FullName::parse).transpose()?,
            email: raw.email.map(Email::parse).transpose()?,
            phone,
            role,
            password,
        })
    }
}

/// The part of a user the update rules look at.
pub struct Target<'a> {
    pub user_id: Uuid,
    pub role: Role,
    pub full_name: &'a str,
}

/// What an update does beyond writing the fields.
#[derive(Debug, PartialEq)]
pub struct UpdatePlan {
    /// The role or password changed: tokens issued before stop working.
    pub bump_token_version: bool,
    /// The facts other contexts must hear about, in the order they happened.
    pub events: Vec<Event>,
}

/// Decides what `changes` to `target`, made by the admin `actor`, set in motion. An admin may not
/// change their own role: that is how a platform loses its last admin.
pub fn plan_update(actor: Uuid, target: &Target<'_>, changes: &UserChanges) -> Result<UpdatePlan, Error> {
    let new_role = changes.role.filter(|r| *r != target.role);
    if new_role.is_some() && actor == target.user_id {
        return Err(Error::Forbidden("you cannot change your own role".into()));
    }
    let mut events = Vec::new();
    if let Some(name) = &changes.full_name
        && name.as_str() != target.full_name
    {
        events.push(Event::UserRenamed {
            user_id: target.user_id,
            full_name: name.as_str().to_owned(),
        });
    }
    if let Some(new_role) = new_role {
        events.push(Event::RoleChanged {
            user_id: target.user_id,
            old_role: target.role,
            new_role,
        });
    }
    Ok(UpdatePlan {
        bump_token_version: new_role.is_some() || changes.password.is_some(),
        events,
    })
}

/// Whether `actor` may delete the user `target_id`, whose role is `target_role`.
pub fn check_deletable(actor: Uuid, target_id: Uuid, target_role: Role) -> Result<(), Error> {
    if actor == target_id {
        return Err(Error::Forbidden("you cannot delete your own account".into()));
    }
    if target_role == Role::Admin {
        return Err(Error::Forbidden("admin accounts cannot be deleted".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changes(raw: RawUserChanges<'_>) -> UserChanges {
        UserChanges::parse(raw).unwrap()
    }

    fn target(user_id: Uuid) -> Target<'static> {
        Target {
            user_id,
            role: Role::Coach,
            full_name: "Ann Lee",
        }
    }

    #[test]
    fn absent_fields_are_left_alone() {
        let c = changes(RawUserChanges::default());
        assert!(c.full_name.is_none() && c.email.is_none() && c.role.is_none());
        assert!(c.password.is_none());
        assert_eq!(c.phone, PhoneChange::Keep);
    }

    #[test]
    fn an_empty_phone_or_clear_phone_clears_it() {
        let empty = changes(RawUserChanges {
            phone: Some(" "),
            ..Default::default()
        });
        let cleared = changes(RawUserChanges {
            clear_phone: true,
            ..Default::default()
        });
        assert_eq!(empty.phone, PhoneChange::Clear);
        assert_eq!(cleared.phone, PhoneChange::Clear);
    }

    #[test]
    fn a_new_phone_and_clear_phone_together_are_refused() {
        let raw = RawUserChanges {
            phone: Some("555 0100"),
            clear_phone: true,
            ..Default::default()
        };
        assert!(UserChanges::parse(raw).is_err());
    }

    #[test]
    fn a_short_or_empty_password_gets_the_spec_message() {
        for short in ["", "12345"] {
            let raw = RawUserChanges {
                password: Some(short),
                ..Default::default()
            };
            match UserChanges::parse(raw) {
                Err(Error::Invalid(m)) => assert_eq!(m, SHORT_PASSWORD),
                _ => panic!("{short:?} was accepted"),
            }
        }
    }

    #[test]
    fn an_empty_role_is_refused_rather_than_read_as_client() {
        let raw = RawUserChanges {
            role: Some(""),
            ..Default::default()
        };
        assert!(UserChanges::parse(raw).is_err());
    }

    #[test]
    fn a_role_change_bumps_the_token_version_and_is_announced() {
        let (admin, user) = (Uuid::new_v4(), Uuid::new_v4());
        let c = changes(RawUserChanges {
            role: Some("client"),
            ..Default::default()
        });
        let plan = plan_update(admin, &target(user), &c).unwrap();
        assert!(plan.bump_token_version);
        assert_eq!(
            plan.events,
            vec![Event::RoleChanged {
                user_id: user,
                old_role: Role::Coach,
                new_role: Role::Client
            }]
        );
    }

    #[test]
    fn the_same_role_and_name_change_nothing() {
        let c = changes(RawUserChanges {
            role: Some("coach"),
            full_name: Some(" Ann Lee "),
            ..Default::default()
        });
        let plan = plan_update(Uuid::new_v4(), &target(Uuid::new_v4()), &c).unwrap();
        assert_eq!(
            plan,
            UpdatePlan {
                bump_token_version: false,
                events: vec![]
            }
        );
    }

    #[test]
    fn a_rename_is_announced_without_a_new_token_version() {
        let user = Uuid::new_v4();
        let c = changes(RawUserChanges {
            full_name: Some("Ann Park"),
            ..Default::default()
        });
        let plan = plan_update(Uuid::new_v4(), &target(user), &c).unwrap();
        assert!(!plan.bump_token_version);
        assert_eq!(
            plan.events,
            vec![Event::UserRenamed {
                user_id: user,
                full_name: "Ann Park".into()
            }]
        );
    }

    #[test]
    fn a_new_password_bumps_the_token_version() {
        let c = changes(RawUserChanges {
            password: Some("Courtside-renewed-2026"),
            ..Default::default()
        });
        let plan = plan_update(Uuid::new_v4(), &target(Uuid::new_v4()), &c).unwrap();
        assert!(plan.bump_token_version);
        assert!(plan.events.is_empty());
    }

    #[test]
    fn an_admin_cannot_change_their_own_role() {
        let admin = Uuid::new_v4();
        let me = Target {
            user_id: admin,
            role: Role::Admin,
            full_name: "Root",
        };
        let c = changes(RawUserChanges {
            role: Some("client"),
            ..Default::default()
        });
        assert!(matches!(plan_update(admin, &me, &c), Err(Error::Forbidden(_))));
    }

    #[test]
    fn admins_and_oneself_cannot_be_deleted() {
        let (admin, other) = (Uuid::new_v4(), Uuid::new_v4());
        assert!(check_deletable(admin, admin, Role::Admin).is_err());
        assert!(check_deletable(admin, other, Role::Admin).is_err());
        for role in [Role::Client, Role::Coach, Role::Gym] {
            assert!(check_deletable(admin, other, role).is_ok());
        }
    }
}
