//! Typed ids, so a coach id can never be passed where a client id is meant.

use std::{fmt, str::FromStr};

use uuid::Uuid;

use crate::error::Error;

macro_rules! id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct $name(pub Uuid);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
    ($(#[$doc:meta])* $name:ident, $field:literal) => {
        id!($(#[$doc])* $name);

        impl $name {
            /// Parses a UUID string; anything else is InvalidArgument naming the field.
            pub fn parse(raw: &str) -> Result<Self, Error> {
                Uuid::from_str(raw.trim())
                    .map(Self)
                    .map_err(|_| Error::Invalid(concat!($field, " must be a UUID").into()))
            }
        }
    };
}

id!(
    /// A booking.
    BookingId, "booking_id"
);
id!(
    /// A coach: the user id of a coach account.
    CoachId, "coach_id"
);
id!(
    /// A client: the user id of a client account (always the caller's, never parsed from input).
    ClientId
);
id!(
    /// An availability slot, owned by coaching-svc.
    SlotId, "slot_id"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_parses_from_a_uuid_with_surrounding_spaces() {
        let id = Uuid::new_v4();
        assert_eq!(SlotId::parse(&format!(" {id} ")).unwrap(), SlotId(id));
    }

    #[test]
    fn a_malformed_id_names_its_field() {
        let error = CoachId::parse("not-a-uuid").unwrap_err();
        assert_eq!(error.to_string(), "coach_id must be a UUID");
    }
}
