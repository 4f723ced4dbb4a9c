//! The games tessera plays: one file per game family, each building a [`GameDef`].
//! Adding a game means adding a file here and listing it in [`FAMILIES`].

pub mod cwda;
pub mod ninjachess;

use crate::game::GameDef;

struct Family {
    ids: fn() -> Vec<String>,
    definition: fn(&str) -> Option<GameDef>,
}

const FAMILIES: &[Family] =
    &[Family { ids: cwda::ids, definition: cwda::definition }, Family { ids: ninjachess::ids, definition: ninjachess::definition }];

/// Every game id, in the order the protocol lists them.
pub fn ids() -> Vec<String> {
    FAMILIES.iter().flat_map(|f| (f.ids)()).collect()
}

/// The definition of a game id, if it exists.
pub fn definition(id: &str) -> Option<GameDef> {
    FAMILIES.iter().find_map(|f| (f.definition)(id))
}
