//! Tables derived once per game from its geometry and piece definitions.
//!
//! `Game<W>` is the compiled form of a [`GameDef`] for bitboards of width `W`, in five parts,
//! each with its own builder: the movement tables ([`movement`]), the compiled piece types
//! ([`piece_types`]), the reverse attack groups ([`attack`]), the rule switches as tables
//! ([`rules`]) and the hash keys ([`zobrist`]).

pub mod attack;
pub mod movement;
pub mod pawns;
pub mod piece_types;
pub mod rules;
pub mod zobrist;

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard;
use crate::game::GameDef;
use crate::geometry::Geometry;
use crate::moves::{Leg, MAX_LEGS, Man, Move, MoveKind};
use crate::types::{Cell, MAX_CELLS, MAX_PLAYERS, MAX_TYPES, PieceType, Player, Table};

pub use attack::{AttackTables, Members, Orientation, RayGroup};
pub use movement::{CompiledComponent, FreshLines, LineMemo, MoveTables, Rides, TableBuilder};
pub use pawns::PawnTables;
pub use piece_types::TypeInfo;
pub use rules::{ChargeTables, EnlightenedTables, RuleTables};
pub use zobrist::Zobrist;

pub struct Game<const W: usize> {
    pub def: GameDef,
    pub ncells: usize,
    pub nplayers: usize,
    pub ntypes: usize,
    pub all_cells: Bitboard<W>,
    /// The cells of each level of the geometry (one entry on a flat board).
    pub level_cells: Vec<Bitboard<W>>,
    pub moves: MoveTables<W>,
    pub types: Table<PieceType, TypeInfo<W>>,
    pub attacks: AttackTables<W>,
    pub rules: RuleTables<W>,
    pub zobrist: Zobrist,
    /// Pawn-structure tables per orientation (`None` in a game without pawn-like men).
    pub pawns: Option<Table<Player, PawnTables<W>>>,
    /// The pawn-like types, for finding the pawns without a pass over every type.
    pub pawn_kinds: Vec<PieceType>,
}

impl<const W: usize> Game<W> {
    pub fn build(def: GameDef) -> Self {
        let ncells = def.geometry.len();
        let nplayers = def.players.len();
        let ntypes = def.pieces.len();
        assert!(ncells <= 64 * W && ncells < MAX_CELLS, "{} cells do not fit {} bits", ncells, 64 * W);
        assert!((2..=MAX_PLAYERS).contains(&nplayers));
        assert!(ntypes <= MAX_TYPES);
        let mut builder = TableBuilder::new(&def.geometry);
        let types = piece_types::compile_types(&def, &mut builder);
        let attacks = AttackTables::build(&def, &mut builder);
        let moves = builder.tables;
        let rules = RuleTables::build(&def, &moves, &types);
        let zobrist = Zobrist::new(ncells, ntypes, nplayers, rules.castles.len());
        let pawns = pawns::build(ncells, nplayers, &moves, &types);
        let level_cells = (0..def.geometry.levels)
            .map(|l| Bitboard::from_cells(def.geometry.all().filter(|&c| def.geometry.cells[c].level == l)))
            .collect();
        let pawn_kinds = PieceType::all(ntypes).filter(|&t| types[t].pawn).collect();
        Game {
            ncells,
            nplayers,
            ntypes,
            all_cells: Bitboard::first_n(ncells),
            level_cells,
            moves,
            types,
            attacks,
            rules,
            zobrist,
            pawns,
            pawn_kinds,
            def,
        }
    }

    /// The cells of `cell`'s level.
    pub fn level_of(&self, cell: Cell) -> Bitboard<W> {
        self.level_cells[self.def.geometry.cells[cell].level]
    }

    /// Every player, in turn order.
    pub fn players(&self) -> impl Iterator<Item = Player> + Clone + use<W> {
        Player::all(self.nplayers)
    }

    /// Every piece type.
    pub fn piece_types(&self) -> impl Iterator<Item = PieceType> + Clone + use<W> {
        PieceType::all(self.ntypes)
    }

    /// The man with its owner's orientation unless its type moves by orientation (recruited
    /// pawns keep their direction; a recruited Knight is just the mater's Knight).
    #[inline(always)]
    pub fn normalized(&self, m: Man) -> Man {
        if self.types[m.kind()].oriented { m } else { m.with_orientation(m.owner()) }
    }

    /// The legs of a multi-leg move, in order (empty if `mv` is not one of this game's).
    pub fn charge_legs(&self, mv: Move) -> ArrayVec<Leg, MAX_LEGS> {
        let mut legs = ArrayVec::new();
        let Some(rule) = &self.rules.charge else { return legs };
        if mv.kind() != MoveKind::Charge {
            return legs;
        }
        legs.push(Leg { from: mv.from(), to: mv.to() });
        for (from, dir) in mv.further_legs() {
            let Some(step) = rule.steps.get(from).and_then(|s| s[dir]) else { break };
            legs.push(Leg { from, to: step.to });
        }
        legs
    }

    pub fn geometry(&self) -> &Geometry {
        &self.def.geometry
    }
}
