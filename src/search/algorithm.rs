//! Which search plays while three or more players are in the game.

/// The search used while three or more players are in the game (with two it is always
/// alpha-beta).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MultiSearch {
    /// The one measured best for the game (its profile's `multi_search`).
    #[default]
    Auto,
    /// The root player against a coalition of all the others.
    Paranoid,
    /// Every player maximises its own share (max-n with shallow pruning).
    MaxN,
    /// Best-reply search: the root player's moves alternate with the single strongest reply of
    /// any opponent; the other opponents pass.
    BestReply,
    /// BRS+: as best-reply search, but the other opponents play their first move by a static
    /// ordering instead of passing.
    BestReplyPlus,
}

impl MultiSearch {
    /// Names as the protocol's `MultiplayerSearch` option takes them.
    pub const NAMES: [&'static str; 5] = ["auto", "paranoid", "maxn", "brs", "brs+"];

    pub fn name(self) -> &'static str {
        match self {
            MultiSearch::Auto => "auto",
            MultiSearch::Paranoid => "paranoid",
            MultiSearch::MaxN => "maxn",
            MultiSearch::BestReply => "brs",
            MultiSearch::BestReplyPlus => "brs+",
        }
    }

    /// Parses a name (case-insensitive).
    pub fn parse(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "auto" => Some(MultiSearch::Auto),
            "paranoid" => Some(MultiSearch::Paranoid),
            "maxn" => Some(MultiSearch::MaxN),
            "brs" => Some(MultiSearch::BestReply),
            "brs+" => Some(MultiSearch::BestReplyPlus),
            _ => None,
        }
    }
}
