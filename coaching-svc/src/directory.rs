//! The directory's filters and orders (issue 19), for `ListCoaches` with a query and for the two
//! searches: which coaches a [`Filter`] keeps and in which [`Sort`] order, a page at a time.
//!
//! The rows come from the same one statement as always (the whole directory, or a search's
//! matches, with their review figures), and are filtered, ordered and paged here, so the searches
//! and the directory apply exactly the same rules. The directory's rows are kept between changes
//! as a [`Snapshot`] (by [`crate::remembered`]), each order sorted once: a page, filtered or not,
//! reads from where the last one ended only as far as it needs. The list without a query is the
//! untouched path of SPEC.md.

use std::{cmp::Ordering, sync::OnceLock};

use platform::pages::Page;
use proto::coaching::v1 as pb;
use uuid::Uuid;

use crate::{error::Error, store::ListingRow};

/// The most dollars per hour a profile may ask (as `ProfileFields`).
const MAX_RATE: f64 = crate::domain::ProfileFields::MAX_HOURLY_RATE;

/// Which coaches a query keeps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    /// Lower-case: in the name or a specialty.
    q: Option<String>,
    /// Lower-case: one of the specialties.
    specialty: Option<String>,
    min_rate: Option<f64>,
    max_rate: Option<f64>,
    min_rating: Option<f64>,
}

/// The order of a query's answer; every order ends with the coach id, so it is total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sort {
    /// The directory's own order (oldest profile first), or nearest first in a nearby search.
    #[default]
    Listed,
    /// Best average first (unrated coaches last), then most reviews.
    Rating,
    /// Cheapest first.
    Price,
    /// Dearest first.
    PriceDesc,
    /// Most years first.
    Experience,
    /// By name, A to Z.
    Name,
    /// Nearest first (nearby search only).
    Distance,
}

/// Where a page of a query starts: after this sort key and coach id.
pub type Keyset = (f64, f64, String, Uuid);

fn text(raw: Option<&str>, field: &str) -> Result<Option<String>, Error> {
    let Some(text) = raw.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    if text.chars().count() > 100 || text.chars().any(char::is_control) {
        return Err(Error::Invalid(format!(
            "{field} must be one line of at most 100 characters"
        )));
    }
    Ok(Some(text.to_lowercase()))
}

fn amount(raw: Option<f64>, field: &str, low: f64, high: f64) -> Result<Option<f64>, Error> {
    match raw {
        None => Ok(None),
        Some(n) if n.is_finite() && (low..=high).contains(&n) => Ok(Some(n)),
        Some(_) => Err(Error::Invalid(format!(
            "{field} must be a number from {low} to {high}"
        ))),
    }
}

impl Filter {
    pub fn parse(query: &pb::DirectoryQuery) -> Result<Self, Error> {
        let filter = Self {
            q: text(query.q.as_deref(), "q")?,
            specialty: text(query.specialty.as_deref(), "specialty")?,
            min_rate: amount(query.min_rate, "min_rate", 0.0, MAX_RATE)?,
            max_rate: amount(query.max_rate, "max_rate", 0.0, MAX_RATE)?,
            min_rating: amount(query.min_rating, "min_rating", 1.0, 5.0)?,
        };
        // A range whose least is above its most is no error: no coach is in it.
        Ok(filter)
    }

    /// Whether the coach passes every filter given (the cheap comparisons first).
    pub fn keeps(&self, row: &ListingRow) -> bool {
        let has = |wanted: &str, exact: bool| {
            row.specialties.iter().any(|s| {
                let s = s.to_lowercase();
                if exact { s == wanted } else { s.contains(wanted) }
            })
        };
        let named = |q: &str| {
            row.coach_name
                .as_deref()
                .is_some_and(|name| name.to_lowercase().contains(q))
        };
        self.min_rate.is_none_or(|low| row.hourly_rate >= low)
            && self.max_rate.is_none_or(|high| row.hourly_rate <= high)
            && self
                .min_rating
                .is_none_or(|low| row.rating_average.is_some_and(|a| a >= low))
            && self.specialty.as_deref().is_none_or(|s| has(s, true))
            && self.q.as_deref().is_none_or(|q| named(q) || has(q, false))
    }
}

impl Sort {
    /// `distance` only where there is a distance (a nearby search).
    pub fn parse(raw: &str, nearby: bool) -> Result<Self, Error> {
        Ok(match raw.trim() {
            "" => Self::Listed,
            "rating" => Self::Rating,
            "price" => Self::Price,
            "price_desc" => Self::PriceDesc,
            "experience" => Self::Experience,
            "name" => Self::Name,
            "distance" if nearby => Self::Distance,
            other => {
                return Err(Error::Invalid(format!(
                    "sort must be one of rating, price, price_desc, experience, name{} (not {other:?})",
                    if nearby { ", distance" } else { "" }
                )));
            }
        })
    }

    /// This order's place in [`Snapshot`]'s orders; a distance, which the directory has not,
    /// orders it as listed.
    fn slot(self) -> usize {
        match self {
            Self::Listed | Self::Distance => 0,
            Self::Rating => 1,
            Self::Price => 2,
            Self::PriceDesc => 3,
            Self::Experience => 4,
            Self::Name => 5,
        }
    }

    /// The row's place in this order: ascending on every part.
    pub fn key(self, row: &ListingRow) -> Keyset {
        let (first, second, text) = match self {
            Self::Listed => (row.created_at.timestamp_micros() as f64, 0.0, String::new()),
            Self::Rating => (
                -row.rating_average.unwrap_or(0.0),
                -(row.rating_count as f64),
                String::new(),
            ),
            Self::Price => (row.hourly_rate, 0.0, String::new()),
            Self::PriceDesc => (-row.hourly_rate, 0.0, String::new()),
            Self::Experience => (-f64::from(row.years_experience), 0.0, String::new()),
            Self::Name => (
                0.0,
                0.0,
                row.coach_name.as_deref().unwrap_or_default().to_lowercase(),
            ),
            Self::Distance => (row.distance.unwrap_or(f64::MAX), 0.0, String::new()),
        };
        (first, second, text, row.coach_id)
    }
}

fn compare(a: &Keyset, b: &Keyset) -> Ordering {
    a.0.total_cmp(&b.0)
        .then(a.1.total_cmp(&b.1))
        .then_with(|| a.2.cmp(&b.2))
        .then(a.3.cmp(&b.3))
}

/// The rows `filter` keeps, in `sort` order (a nearby search's own order, nearest first, is kept
/// for [`Sort::Listed`]), the page of them after `page.after`, and the next page's keyset.
pub fn answer(
    rows: Vec<ListingRow>,
    filter: &Filter,
    sort: Sort,
    page: &Page<Keyset>,
) -> (Vec<ListingRow>, String) {
    let sort = match sort {
        Sort::Listed if rows.iter().any(|r| r.distance.is_some()) => Sort::Distance,
        sort => sort,
    };
    let mut kept: Vec<(Keyset, ListingRow)> = rows
        .into_iter()
        .filter(|row| filter.keeps(row))
        .map(|row| (sort.key(&row), row))
        .collect();
    kept.sort_by(|a, b| compare(&a.0, &b.0));
    if let Some(after) = &page.after {
        kept.retain(|(key, _)| compare(key, after) == Ordering::Greater);
    }
    if let Some(fetch) = page.fetch() {
        kept.truncate(usize::try_from(fetch).unwrap_or(usize::MAX));
    }
    let (rows, next) = page.split(kept, |(key, _)| key.clone());
    (rows.into_iter().map(|(_, row)| row).collect(), next)
}

/// The whole directory as read at one revision, and each of its orders, sorted the first time a
/// page asks for it.
pub struct Snapshot {
    revision: i64,
    rows: Vec<ListingRow>,
    /// By [`Sort::slot`]: (key, index into `rows`), ascending.
    orders: [OnceLock<Vec<(Keyset, usize)>>; 6],
}

impl Snapshot {
    pub fn new(revision: i64, rows: Vec<ListingRow>) -> Self {
        Self {
            revision,
            rows,
            orders: Default::default(),
        }
    }

    /// The revision of the directory these rows were read at (or after).
    pub fn revision(&self) -> i64 {
        self.revision
    }

    /// Every coach, oldest profile first.
    pub fn rows(&self) -> &[ListingRow] {
        &self.rows
    }

    fn order(&self, sort: Sort) -> &[(Keyset, usize)] {
        self.orders[sort.slot()].get_or_init(|| {
            let mut order: Vec<(Keyset, usize)> = self
                .rows
                .iter()
                .enumerate()
                .map(|(index, row)| (sort.key(row), index))
                .collect();
            order.sort_by(|a, b| compare(&a.0, &b.0));
            order
        })
    }

    /// The page of the coaches `filter` keeps, in `sort` order, after `page.after`, and the next
    /// page's keyset: the same answer as [`answer`] over [`Snapshot::rows`], found by a binary
    /// search for where the page starts and read no further than the page needs.
    pub fn page(&self, filter: &Filter, sort: Sort, page: &Page<Keyset>) -> (Vec<ListingRow>, String) {
        let order = self.order(sort);
        let start = page.after.as_ref().map_or(0, |after| {
            order.partition_point(|(key, _)| compare(key, after) != Ordering::Greater)
        });
        let fetch = page
            .fetch()
            .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
        let kept: Vec<&(Keyset, usize)> = order[start..]
            .iter()
            .filter(|(_, index)| filter.keeps(&self.rows[*index]))
            .take(fetch)
            .collect();
        let (kept, next) = page.split(kept, |(key, _)| key.clone());
        (
            kept.into_iter()
                .map(|(_, index)| self.rows[*index].clone())
                .collect(),
            next,
        )
    }
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use super::*;

    fn coach(
        name: &str,
        rate: f64,
        years: i32,
        rating: Option<(f64, i64)>,
        specialties: &[&str],
    ) -> ListingRow {
        ListingRow {
            coach_id: Uuid::new_v4(),
            years_experience: years,
            specialties: specialties.iter().map(|s| (*s).to_owned()).collect(),
            bio: String::new(),
            hourly_rate: rate,
            cities: vec![],
            states: vec![],
            distance: None,
            coach_name: Some(name.to_owned()),
            created_at: Utc.timestamp_opt(1_700_000_000 + i64::from(years), 0).unwrap(),
            rating_average: rating.map(|r| r.0),
            rating_count: rating.map_or(0, |r| r.1),
        }
    }

    fn names(rows: &[ListingRow]) -> Vec<&str> {
        rows.iter().map(|r| r.coach_name.as_deref().unwrap()).collect()
    }

    fn query(q: &str, sort: &str) -> pb::DirectoryQuery {
        pb::DirectoryQuery {
            q: Some(q.into()),
            sort: sort.into(),
            ..Default::default()
        }
    }

    fn everyone() -> Vec<ListingRow> {
        vec![
            coach("Ann Archer", 80.0, 3, Some((4.5, 10)), &["Shooting"]),
            coach("Bo Baker", 40.0, 9, None, &["Defense", "Volleyball"]),
            coach("Cy Carter", 60.0, 5, Some((4.5, 20)), &["Ball handling"]),
            coach("Di Dunn", 55.0, 1, Some((3.0, 2)), &["Shooting", "Defense"]),
        ]
    }

    fn whole() -> Page<Keyset> {
        Page::parse(0, "").unwrap()
    }

    #[test]
    fn q_matches_a_name_or_a_specialty_case_insensitively() {
        let filter = Filter::parse(&query("SHOOT", "")).unwrap();
        let (rows, _) = answer(everyone(), &filter, Sort::Listed, &whole());
        assert_eq!(names(&rows), ["Di Dunn", "Ann Archer"], "oldest profile first");
        let filter = Filter::parse(&query("baker", "")).unwrap();
        assert_eq!(
            names(&answer(everyone(), &filter, Sort::Listed, &whole()).0),
            ["Bo Baker"]
        );
    }

    #[test]
    fn rate_rating_and_specialty_filters_combine() {
        let filter = Filter::parse(&pb::DirectoryQuery {
            specialty: Some("defense".into()),
            min_rate: Some(50.0),
            max_rate: Some(60.0),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(
            names(&answer(everyone(), &filter, Sort::Listed, &whole()).0),
            ["Di Dunn"]
        );
        let rated = Filter::parse(&pb::DirectoryQuery {
            min_rating: Some(4.0),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(
            names(&answer(everyone(), &rated, Sort::Name, &whole()).0),
            ["Ann Archer", "Cy Carter"],
            "an unrated coach is left out"
        );
    }

    #[test]
    fn each_sort_orders_as_its_name_says() {
        let all = Filter::default();
        let sorted = |sort| names(&answer(everyone(), &all, sort, &whole()).0).join(", ");
        assert_eq!(sorted(Sort::Rating), "Cy Carter, Ann Archer, Di Dunn, Bo Baker");
        assert_eq!(sorted(Sort::Price), "Bo Baker, Di Dunn, Cy Carter, Ann Archer");
        assert_eq!(
            sorted(Sort::PriceDesc),
            "Ann Archer, Cy Carter, Di Dunn, Bo Baker"
        );
        assert_eq!(
            sorted(Sort::Experience),
            "Bo Baker, Cy Carter, Ann Archer, Di Dunn"
        );
        assert_eq!(sorted(Sort::Name), "Ann Archer, Bo Baker, Cy Carter, Di Dunn");
    }

    #[test]
    fn pages_follow_one_another_without_repeats() {
        let all = Filter::default();
        let rows = everyone();
        let (first, next) = answer(rows.clone(), &all, Sort::Price, &Page::parse(3, "").unwrap());
        assert_eq!(names(&first), ["Bo Baker", "Di Dunn", "Cy Carter"]);
        let (rest, last) = answer(rows, &all, Sort::Price, &Page::parse(3, &next).unwrap());
        assert_eq!((names(&rest), last.as_str()), (vec!["Ann Archer"], ""));
    }

    #[test]
    fn a_snapshot_pages_as_the_whole_answer_orders_in_every_order_and_filter() {
        let rows = everyone();
        let snapshot = Snapshot::new(1, rows.clone());
        let filters = [
            Filter::default(),
            Filter::parse(&query("shoot", "")).unwrap(),
            Filter::parse(&pb::DirectoryQuery {
                min_rating: Some(4.0),
                ..Default::default()
            })
            .unwrap(),
        ];
        let sorts = [
            Sort::Listed,
            Sort::Rating,
            Sort::Price,
            Sort::PriceDesc,
            Sort::Experience,
            Sort::Name,
        ];
        for filter in &filters {
            for sort in sorts {
                let whole = names(&answer(rows.clone(), filter, sort, &whole()).0).join(", ");
                let (mut paged, mut next) = snapshot.page(filter, sort, &Page::parse(2, "").unwrap());
                while !next.is_empty() {
                    let (more, after) = snapshot.page(filter, sort, &Page::parse(2, &next).unwrap());
                    assert!(more.len() <= 2);
                    paged.extend(more);
                    next = after;
                }
                assert_eq!(names(&paged).join(", "), whole, "{sort:?} {filter:?}");
            }
        }
        let (all, next) = snapshot.page(&Filter::default(), Sort::Listed, &whole());
        assert_eq!(
            (all.len(), next.as_str()),
            (4, ""),
            "without a limit, the whole list"
        );
    }

    #[test]
    fn a_rate_range_upside_down_keeps_nobody() {
        let filter = Filter::parse(&pb::DirectoryQuery {
            min_rate: Some(50.0),
            max_rate: Some(10.0),
            ..Default::default()
        })
        .expect("no error: an empty range");
        assert!(everyone().iter().all(|row| !filter.keeps(row)));
    }

    #[test]
    fn bad_values_are_refused_with_a_detail() {
        let bad = [
            pb::DirectoryQuery {
                min_rate: Some(-1.0),
                ..Default::default()
            },
            pb::DirectoryQuery {
                min_rating: Some(6.0),
                ..Default::default()
            },
            pb::DirectoryQuery {
                q: Some("x".repeat(101)),
                ..Default::default()
            },
        ];
        for query in bad {
            assert!(
                matches!(Filter::parse(&query), Err(Error::Invalid(_))),
                "{query:?}"
            );
        }
        assert!(
            Sort::parse("distance", false)
                .unwrap_err()
                .to_string()
                .contains("rating, price")
        );
        assert_eq!(Sort::parse("distance", true).unwrap(), Sort::Distance);
        assert!(Sort::parse("cheapest", true).is_err());
    }
}
