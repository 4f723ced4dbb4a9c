//! The games tessera plays: one file per game family, each building a [`GameDef`] (the rules)
//! and giving each of its games a [`Profile`] (how the engine plays it). Adding a game means
//! adding a file here and listing it in [`FAMILIES`].

pub mod aof3;
pub mod cwda;
pub mod guru2;
pub mod honeycomb3;
pub mod ninjachess;

use crate::eval::EvalProfile;
use crate::game::GameDef;
use crate::search::MultiSearch;

/// How the engine plays a game, measured in that game: what stands beside its rules.
#[derive(Clone, Copy, Debug)]
pub struct Profile {
    /// The search `MultiplayerSearch auto` plays while three or more players are in the game:
    /// the winner of a round robin of the searches in this game (`tuning/round_robin.sh`).
    pub multi_search: MultiSearch,
    /// The evaluation's values and learned tables.
    pub eval: EvalProfile,
}

/// The game the protocol and the commands play unless told otherwise.
pub const DEFAULT_GAME: &str = "chess";

struct Family {
    ids: fn() -> Vec<String>,
    definition: fn(&str) -> Option<GameDef>,
    /// The profile of one of the family's ids.
    profile: fn(&str) -> Profile,
}

const FAMILIES: &[Family] = &[
    Family { ids: cwda::ids, definition: cwda::definition, profile: cwda::profile },
    Family { ids: ninjachess::ids, definition: ninjachess::definition, profile: |_| ninjachess::PROFILE },
    Family { ids: honeycomb3::ids, definition: honeycomb3::definition, profile: honeycomb3::profile },
    Family { ids: guru2::ids, definition: guru2::definition, profile: |_| guru2::PROFILE },
    Family { ids: aof3::ids, definition: aof3::definition, profile: |_| aof3::PROFILE },
];

/// Every game id, in the order the protocol lists them.
pub fn ids() -> Vec<String> {
    FAMILIES.iter().flat_map(|f| (f.ids)()).collect()
}

/// The definition of a game id, if it exists.
pub fn definition(id: &str) -> Option<GameDef> {
    FAMILIES.iter().find_map(|f| (f.definition)(id))
}

/// The profile of a game id, if it exists.
pub fn profile(id: &str) -> Option<Profile> {
    FAMILIES.iter().find(|f| (f.ids)().iter().any(|i| i == id)).map(|f| (f.profile)(id))
}
