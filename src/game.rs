//! A game as a definition: geometry + players + piece set + setup + rule switches.
//!
//! The core reads these switches; it never matches on a game's name. Each game lives in one file
//! under `src/games/` that builds a [`GameDef`].

use crate::geometry::{Geometry, Vec3};
use crate::movement::PieceDef;

#[derive(Clone, Debug)]
pub struct PlayerDef {
    /// Display name ("White", "Red").
    pub name: String,
    /// One lower-case letter naming the player in N-player position strings and output.
    pub code: char,
}

/// One castling move: the king and the corner piece jump together.
#[derive(Clone, Debug)]
pub struct CastleDef {
    pub player: usize,
    pub king_from: usize,
    pub king_to: usize,
    pub rook_from: usize,
    pub rook_to: usize,
    /// Letter in the FEN castling field (`K`, `Q`, `k`, `q`).
    pub fen_char: char,
}

/// What happens to the men of a checkmated player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VictimMen {
    /// All removed from the board.
    Removed,
    /// The King is removed; every other man changes owner to the mater (keeping its orientation).
    Recruited,
}

/// Effects of a start-of-turn checkmate (games with three or more players).
#[derive(Clone, Debug)]
pub struct MateRules {
    pub victim_men: VictimMen,
    /// The mater's royal piece becomes this type (Emperor), if any: pairs (from type, to type).
    pub royal_promotion: Vec<(usize, usize)>,
    /// The deliverer (the mater's attacker of the mated King on the lowest canonical cell)
    /// becomes a new type: pairs (from type, to type). Types not listed stay as they are.
    pub deliverer_promotion: Vec<(usize, usize)>,
    /// The first mater wins at once when its second checkmate of the game is delivered by the
    /// Emperor or by the piece promoted at its first checkmate.
    pub second_mate_by_promotee_wins: bool,
}

impl Default for MateRules {
    fn default() -> Self {
        MateRules {
            victim_men: VictimMen::Removed,
            royal_promotion: Vec::new(),
            deliverer_promotion: Vec::new(),
            second_mate_by_promotee_wins: false,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Rules {
    pub castling: Vec<CastleDef>,
    /// Per capturing player, per double-stepping player: the cells on which the first may take the
    /// second's pawn en passant (the skipped cells). `None` = anywhere.
    pub en_passant_cells: Option<Vec<Vec<Vec<usize>>>>,
    /// Royal pieces may never face each other along these directions with nothing between
    /// (treated as an attack for legality only).
    pub royal_facing: Vec<Vec3>,
    /// Per player: the cells its royal piece may occupy (`None` = anywhere).
    pub royal_zone: Option<Vec<Vec<usize>>>,
    pub mate: MateRules,
}

#[derive(Clone, Debug)]
pub struct GameDef {
    /// The id used by `UCI_Variant` (`chess`, `cwda-cn`).
    pub id: String,
    pub name: String,
    pub geometry: Geometry,
    /// Players in turn order.
    pub players: Vec<PlayerDef>,
    pub pieces: Vec<PieceDef>,
    /// Start position: (cell, owner, type); castling rights all present.
    pub setup: Vec<(usize, usize, usize)>,
    pub rules: Rules,
    /// Names of the two armies for Cwda-style pairings (display only).
    pub armies: Vec<String>,
}

impl GameDef {
    pub fn piece_by_code(&self, code: &str) -> Option<usize> {
        self.pieces.iter().position(|p| p.code.eq_ignore_ascii_case(code))
    }

    pub fn cell(&self, name: &str) -> usize {
        self.geometry.cell_by_name(name).unwrap_or_else(|| panic!("game {}: no cell {name}", self.id))
    }
}
