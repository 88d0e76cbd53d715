//! The cache declaration checked against the route table.

use std::collections::BTreeSet;

use super::*;

#[test]
fn every_route_but_a_read_is_declared_with_the_data_it_changes_and_nothing_else_is() {
    let rows = crate::routes::rows();
    let writes: BTreeSet<(String, String)> = rows
        .iter()
        .filter(|row| row.method != Method::GET)
        .map(|row| (row.method.to_string(), row.path.clone()))
        .collect();
    let declared: BTreeSet<(String, String)> = WRITES
        .iter()
        .map(|(method, path, _)| (method.to_string(), (*path).to_owned()))
        .collect();
    assert_eq!(
        writes.difference(&declared).collect::<Vec<_>>(),
        Vec::<&(String, String)>::new(),
        "routes missing from WRITES: say what data each changes (or none)"
    );
    assert_eq!(
        declared.difference(&writes).collect::<Vec<_>>(),
        Vec::<&(String, String)>::new(),
        "WRITES names routes the table does not have"
    );
}

#[test]
fn every_remembered_answer_is_a_get_route_of_the_table_keyed_by_its_path_parameter() {
    let rows = crate::routes::rows();
    for remembered in REMEMBERED {
        assert!(
            rows.iter()
                .any(|row| row.method == Method::GET && row.path == remembered.route),
            "{} answers no GET route {}",
            remembered.name,
            remembered.route
        );
        let parameter = remembered.key.map(|key| format!("{{{key}}}"));
        assert_eq!(
            parameter.as_deref().is_some_and(|p| remembered.route.contains(p)),
            remembered.key.is_some(),
            "{}: its key is its route's path parameter",
            remembered.name
        );
        assert!(
            !remembered.shows.is_empty(),
            "{} shows some data",
            remembered.name
        );
    }
}

#[test]
fn each_kind_of_data_a_remembered_answer_shows_is_changed_by_some_write() {
    let shown = REMEMBERED
        .iter()
        .map(|r| (r.name, r.shows))
        .chain(BEHIND.iter().map(|b| (b.name, b.shows)));
    for (name, shows) in shown {
        for data in shows {
            assert!(
                WRITES.iter().any(|(_, _, changes)| changes.contains(data)),
                "no write clears {name} ({data})"
            );
        }
    }
}
