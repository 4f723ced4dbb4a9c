//! The games tessera plays: one file per game family, each building a [`GameDef`].
//! Adding a game means adding a file here and listing it in [`FAMILIES`].

pub mod aof3;
pub mod cwda;
pub mod guru2;
pub mod honeycomb3;
pub mod ninjachess;

use crate::game::GameDef;

struct Family {
    ids: fn() -> Vec<String>,
    definition: fn(&str) -> Option<GameDef>,
}

const FAMILIES: &[Family] = &[
    Family { ids: cwda::ids, definition: cwda::definition },
    Family { ids: ninjachess::ids, definition: ninjachess::definition },
    Family { ids: honeycomb3::ids, definition: honeycomb3::definition },
    Family { ids: guru2::ids, definition: guru2::definition },
    Family { ids: aof3::ids, definition: aof3::definition },
];

/// Every game id, in the order the protocol lists them.
pub fn ids() -> Vec<String> {
    FAMILIES.iter().flat_map(|f| (f.ids)()).collect()
}

/// The definition of a game id, if it exists.
pub fn definition(id: &str) -> Option<GameDef> {
    FAMILIES.iter().find_map(|f| (f.definition)(id))
}
