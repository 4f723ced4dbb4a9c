//! A game as a definition: geometry + players + piece set + setup + rule switches.
//!
//! The core reads these switches; it never matches on a game's name. Each game lives in one file
//! under `src/games/` that builds a [`GameDef`].

use crate::geometry::{Geometry, Vec3};
use crate::movement::PieceDef;
use crate::types::{Cell, PieceType, Player, Table};

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
    pub player: Player,
    pub king_from: Cell,
    pub king_to: Cell,
    pub rook_from: Cell,
    pub rook_to: Cell,
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
    pub royal_promotion: Vec<(PieceType, PieceType)>,
    /// The deliverer (the mater's attacker of the mated King on the lowest canonical cell)
    /// becomes a new type: pairs (from type, to type). Types not listed stay as they are.
    pub deliverer_promotion: Vec<(PieceType, PieceType)>,
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

/// The Enlightened Move (rules `guru2level.md` §4.1): a man of a `users` type standing where one of
/// its own moves from a friendly `granters` man's cell would take it may move, without capturing,
/// to any empty cell that such a move from the granter's cell reaches at the same (lattice)
/// length. Riders need the path from the granter's cell clear both ways. Only leap and ride
/// components take part.
#[derive(Clone, Debug)]
pub struct EnlightenedRule {
    /// Types whose men grant the move to the other friendly men.
    pub granters: Vec<PieceType>,
    /// Types whose men may use it.
    pub users: Vec<PieceType>,
}

/// The Elephant Charge (rules `guru2level.md` §4.2, §7.6, §7.11): one move of `min_legs` to
/// `max_legs` leaps, each by a `chargers` man of the mover along one of `leaps` over another
/// `chargers` man of the mover on the leap's midpoint, landing on an empty cell or an enemy. No
/// royal man of any active player may be attacked before the first leap or after any leap, and no
/// placement may repeat within the Charge. Every distinct sequence of leaps is a distinct move.
#[derive(Clone, Debug)]
pub struct ChargeRule {
    pub chargers: Vec<PieceType>,
    /// At most 4 vectors, each with even components (its midpoint is a cell).
    pub leaps: Vec<Vec3>,
    pub min_legs: usize,
    /// At most 4 (the legs are packed into the 64-bit move).
    pub max_legs: usize,
}

/// Teams of partners (rules `guru2level.md` §5.4, the game `guru2-teams`). Every team rule is read
/// in [`crate::position::Position`]'s `teams.rs`: a player may capture only men of other teams; a
/// partner's men are obstacles and never give check; when the first two checkmates of the game
/// are delivered by one team, the member who delivered the second wins (its partner is second),
/// otherwise play goes on under the normal rules.
#[derive(Clone, Debug)]
pub struct TeamRule {
    /// The teams, each a list of partners.
    pub teams: Vec<Vec<Player>>,
}

#[derive(Clone, Debug, Default)]
pub struct Rules {
    pub castling: Vec<CastleDef>,
    /// Per capturing player, per double-stepping player: the cells on which the first may take the
    /// second's pawn en passant (the skipped cells). `None` = anywhere.
    pub en_passant_cells: Option<Table<Player, Table<Player, Vec<Cell>>>>,
    /// Royal pieces may never face each other along these directions with nothing between
    /// (treated as an attack for legality only).
    pub royal_facing: Vec<Vec3>,
    /// Per player: the cells its royal piece may occupy (`None` = anywhere).
    pub royal_zone: Option<Table<Player, Vec<Cell>>>,
    pub mate: MateRules,
    pub enlightened: Option<EnlightenedRule>,
    pub charge: Option<ChargeRule>,
    /// Material with which nobody can checkmate any more: the game is drawn at once.
    pub dead_material: Option<DeadMaterial>,
    /// Partners (`None`: every player for itself).
    pub teams: Option<TeamRule>,
}

/// Dead positions by material (FIDE Laws 5.2.2: no sequence of legal moves can lead to mate),
/// beside the one every game has, Kings alone.
#[derive(Clone, Debug, Default)]
pub struct DeadMaterial {
    /// Types of which one man beside its King cannot mate a bare King (Knight, Bishop).
    pub minor: Vec<PieceType>,
    /// Colour-bound types: any number of them, of either side, all on cells of one colour,
    /// cannot mate (Bishops). The colours are the cells each of them reaches on the empty board.
    pub colour_bound: Vec<PieceType>,
}

#[derive(Clone, Debug)]
pub struct GameDef {
    /// The id used by `UCI_Variant` (`chess`, `cwda-cn`).
    pub id: String,
    pub name: String,
    pub geometry: Geometry,
    /// Players in turn order.
    pub players: Table<Player, PlayerDef>,
    pub pieces: Table<PieceType, PieceDef>,
    /// The start position; castling rights all present.
    pub setup: Vec<Placement>,
    pub rules: Rules,
    /// Names of the two armies for Cwda-style pairings (display only).
    pub armies: Vec<String>,
}

/// One man of the start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub cell: Cell,
    pub owner: Player,
    pub kind: PieceType,
}

impl GameDef {
    pub fn piece_by_code(&self, code: &str) -> Option<PieceType> {
        self.pieces.entries().find(|(_, p)| p.code.eq_ignore_ascii_case(code)).map(|(t, _)| t)
    }

    pub fn player_by_code(&self, code: char) -> Option<Player> {
        self.players.entries().find(|(_, p)| p.code == code).map(|(p, _)| p)
    }

    pub fn cell(&self, name: &str) -> Cell {
        self.geometry.cell_by_name(name).unwrap_or_else(|| panic!("game {}: no cell {name}", self.id))
    }
}
