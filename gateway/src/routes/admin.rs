//! `admin` routes.

use super::Route;

pub fn routes() -> Vec<Route> {
    Vec::new()
}
