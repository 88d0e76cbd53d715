//! Keyset pages of the services' lists: what a service needs to answer one page of a list that
//! grows, and where the next page starts.
//!
//! A list request carries `limit` (0: the whole list, as SPEC.md's screens read it) and `after`,
//! the keyset of the last row of the previous page as this module wrote it ("" for the first
//! page). The service reads `limit + 1` rows ordered by an index, `where (key) > (after)`, never
//! `OFFSET`, so a page costs the same wherever it is and rows added meanwhile neither repeat nor
//! shift a later page. [`Page::split`] keeps `limit` rows and writes the next page's keyset from
//! the last one. The gateway wraps that keyset in the opaque cursor clients see
//! (`gateway/src/pages.rs`), so a keyset here never leaves the mesh as it is.

use serde::{Serialize, de::DeserializeOwned};
use tonic::Status;

/// The most rows a service hands over in one page, whatever it is asked: the gateway sets each
/// list's own, lower, limit.
pub const MOST: u32 = 1_000;

/// One page asked of a list ordered by the keyset `K` (a tuple of the ordering columns).
#[derive(Clone, Debug, PartialEq)]
pub struct Page<K> {
    /// Rows wanted: `None` for the whole list.
    pub limit: Option<u32>,
    /// The keyset the page starts after: `None` for the first page.
    pub after: Option<K>,
}

impl<K: DeserializeOwned + Serialize> Page<K> {
    /// Reads a request's `limit` and `after`. An `after` this module did not write for this
    /// list's keyset is an `InvalidArgument` a person can act on.
    pub fn parse(limit: u32, after: &str) -> Result<Self, Status> {
        let after = match after {
            "" => None,
            text => Some(serde_json::from_str(text).map_err(|_| {
                Status::invalid_argument(
                    "This cursor does not belong to this list; ask for the first page again without it.",
                )
            })?),
        };
        Ok(Self {
            limit: (limit > 0).then(|| limit.min(MOST)),
            after,
        })
    }

    /// How many rows to read: one more than the page holds, to know whether another page follows
    /// (`None`: all of them).
    pub fn fetch(&self) -> Option<i64> {
        self.limit.map(|limit| i64::from(limit) + 1)
    }

    /// The page of `rows` (read with [`Page::fetch`]) and the keyset the next page starts after
    /// ("" when this page is the last), from the page's last row by `key`.
    pub fn split<T>(&self, mut rows: Vec<T>, key: impl Fn(&T) -> K) -> (Vec<T>, String) {
        let Some(limit) = self.limit.map(|l| l as usize) else {
            return (rows, String::new());
        };
        if rows.len() <= limit {
            return (rows, String::new());
        }
        rows.truncate(limit);
        let next = rows
            .last()
            .map(|row| serde_json::to_string(&key(row)).unwrap_or_default())
            .unwrap_or_default();
        (rows, next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Key = (String, uuid::Uuid);

    #[test]
    fn no_limit_is_the_whole_list_and_no_next_page() {
        let page = Page::<Key>::parse(0, "").unwrap();
        assert_eq!(page.fetch(), None);
        assert_eq!(
            page.split(vec![1, 2, 3], |_| key(0)),
            (vec![1, 2, 3], String::new())
        );
    }

    #[test]
    fn a_page_reads_one_row_more_and_names_its_last_row_when_more_follow() {
        let page = Page::<Key>::parse(2, "").unwrap();
        assert_eq!(page.fetch(), Some(3));
        let (rows, next) = page.split(vec![1, 2, 3], |n| key(*n));
        assert_eq!(rows, vec![1, 2]);
        let after = Page::<Key>::parse(2, &next).unwrap().after;
        assert_eq!(
            after,
            Some(key(2)),
            "the next page starts after the last row shown"
        );
    }

    #[test]
    fn the_last_page_has_no_next() {
        let page = Page::<Key>::parse(2, "").unwrap();
        assert_eq!(page.split(vec![1, 2], |n| key(*n)).1, "");
    }

    #[test]
    fn a_keyset_of_another_shape_is_refused_with_a_detail() {
        for forged in ["[", "\"text\"", "[1,2]", "{\"a\":1}"] {
            let refused = Page::<Key>::parse(10, forged).unwrap_err();
            assert_eq!(refused.code(), tonic::Code::InvalidArgument, "{forged}");
            assert!(refused.message().contains("cursor"), "{forged}");
        }
    }

    #[test]
    fn a_limit_beyond_the_most_is_cut_to_it() {
        assert_eq!(Page::<Key>::parse(50_000, "").unwrap().limit, Some(MOST));
    }

    fn key(n: u8) -> Key {
        (format!("2026-11-{n:02}"), uuid::Uuid::from_bytes([n; 16]))
    }
}
