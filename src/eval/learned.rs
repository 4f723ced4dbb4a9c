//! Values a game's definition learned from data (chess's are fitted to Stockfish's labels by
//! `tuning/squares.py` and `tuning/royal_pawns.py`): square values per type, folded into the
//! piece-square table, and royal-pawn values, a pawn-like man's worth on each cell by where its
//! owner's royal piece and the enemy's stand (the pawn shield and the pawn storm, learned).
//!
//! The texts are part of the definition, compiled in and read by unit tests: a malformed one is a
//! defect of the definition, reported with its game and line. They give the first player's
//! values; the second player's are the same mirrored top to bottom, so both are for two players.

use crate::position::{Position, Tapered};
use crate::tables::Game;
use crate::types::{Cell, PerPlayer, PieceType, Player, Table};

/// A value per type, orientation and cell.
pub type SquareTable = Table<PieceType, Table<Player, Table<Cell, Tapered>>>;

/// One block of a learned text: its header's words and its values.
pub(super) struct Block<'a> {
    pub header: Vec<&'a str>,
    pub line: usize,
    pub values: Vec<i32>,
}

/// The blocks of a learned text of game `id` (`what` names the text in panics): a header line of
/// words, then its numbers over as many lines as wanted; `#` lines are comments.
pub(super) fn read_blocks<'a>(id: &str, what: &str, text: &'a str) -> Vec<Block<'a>> {
    let mut out: Vec<Block> = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#')) {
        let bad = |why: &str| -> ! { panic!("game {id}: {what}, line {}: {why}", n + 1) };
        let words: Vec<&str> = line.split_whitespace().collect();
        if words[0].parse::<i32>().is_err() {
            out.push(Block { header: words, line: n + 1, values: Vec::new() });
            continue;
        }
        let Some(block) = out.last_mut() else { bad("values before a header") };
        for word in words {
            block.values.push(word.parse().unwrap_or_else(|_| bad("not a number")));
        }
    }
    out
}

impl Block<'_> {
    /// Panics, naming the block's line, unless it has `n` values.
    pub(super) fn expect_len(&self, id: &str, what: &str, n: usize) {
        if self.values.len() != n {
            panic!("game {id}: {what}, line {}: the block takes {n} values, not {}", self.line, self.values.len());
        }
    }
}

/// The blocks of a learned text of `ncells` values each.
fn blocks<'a, const W: usize>(game: &Game<W>, what: &str, text: &'a str) -> Vec<Block<'a>> {
    let id = &game.def.id;
    let out = read_blocks(id, what, text);
    for block in &out {
        block.expect_len(id, what, game.ncells);
    }
    assert!(game.nplayers == 2, "game {id}: {what} are for two players");
    out
}

/// The board reflected across the middle of its extent along coordinate `axis`: twice that middle
/// (the least coordinate plus the greatest), and each cell's image, where the board has one.
pub(super) fn reflection<const W: usize>(game: &Game<W>, axis: usize) -> (i32, Table<Cell, Option<Cell>>) {
    let geometry = &game.def.geometry;
    let along = geometry.all().map(|c| geometry.coord(c)[axis]);
    let ends = along.clone().min().unwrap_or(0) + along.max().unwrap_or(0);
    let image = Table::from_fn(game.ncells, |c: Cell| {
        let mut p = geometry.coord(c);
        p[axis] = ends - p[axis];
        geometry.cell_at(p)
    });
    (ends, image)
}

/// Per orientation, a cell's index into the first player's values: the cell seen from that
/// player's side ([`crate::frames`]; chess's second player sees the board mirrored top to bottom).
pub(super) fn oriented<const W: usize>(game: &Game<W>) -> Table<Player, Table<Cell, Cell>> {
    let id = &game.def.id;
    crate::frames::player_frames(&game.def).unwrap_or_else(|| panic!("game {id}: a player's start is no image of the first's"))
}

/// A block's values in `permille`, per orientation and cell, as the middle- or end-game part
/// of `into`.
fn add_block(
    into: &mut Table<Player, Table<Cell, Tapered>>,
    oriented: &Table<Player, Table<Cell, Cell>>,
    block: &Block,
    middle: bool,
    permille: i32,
) {
    for (o, cells) in oriented.iter().enumerate() {
        for (c, &from) in cells.iter().enumerate() {
            let v = block.values[from.index()] * permille / 1000;
            let slot = &mut into[Player::new(o)][Cell::new(c)];
            if middle {
                slot.mg = v;
            } else {
                slot.eg = v;
            }
        }
    }
}

/// Whether a header's phase word names the middle game (`mg`) or the end game (`eg`).
fn phase(word: &str) -> Option<bool> {
    match word {
        "mg" => Some(true),
        "eg" => Some(false),
        _ => None,
    }
}

/// Zero per orientation and cell of a board of `ncells`.
fn zero_cells(ncells: usize) -> Table<Player, Table<Cell, Tapered>> {
    Table::from_fn(2, |_| Table::from_fn(ncells, |_| Tapered::ZERO))
}

/// Learned square values (`LearnedTexts::squares`: per piece code an `mg` and an `eg` block) per
/// type, orientation and cell, in `permille` of the written centipawns; `None` where there are
/// none.
pub(super) fn squares<const W: usize>(game: &Game<W>, text: &str, permille: i32) -> Option<SquareTable> {
    let def = &game.def;
    if text.is_empty() || permille == 0 {
        return None;
    }
    let oriented = oriented(game);
    let mut out: SquareTable = game.piece_types().map(|_| zero_cells(game.ncells)).collect();
    for block in blocks(game, "square values", text) {
        let bad = |why: &str| -> ! { panic!("game {}: square values, line {}: {why}", def.id, block.line) };
        let header = "a header is a piece code and mg or eg";
        let &[code, word] = &block.header[..] else { bad(header) };
        let Some(middle) = phase(word) else { bad(header) };
        let kind = def.piece_by_code(code).unwrap_or_else(|| bad("no such piece"));
        add_block(&mut out[kind], &oriented, &block, middle, permille);
    }
    Some(out)
}

/// The learned royal-pawn values of a game (`LearnedTexts::royal_pawns`), per orientation.
#[derive(Debug)]
pub struct RoyalPawns {
    /// Per orientation of a royal piece, the bucket of each cell.
    buckets: Table<Player, Table<Cell, u8>>,
    /// Per bucket of the owner's royal piece, per orientation of a pawn and cell, its value.
    own: Vec<Table<Player, Table<Cell, Tapered>>>,
    /// The same per bucket of the enemy's royal piece.
    enemy: Vec<Table<Player, Table<Cell, Tapered>>>,
}

/// Buckets at most (they are stored in a byte).
const MAX_BUCKETS: usize = 256;

/// Learned royal-pawn values in `permille` of the written centipawns; `None` where there are
/// none.
pub(super) fn royal_pawns<const W: usize>(game: &Game<W>, text: &str, permille: i32) -> Option<RoyalPawns> {
    let def = &game.def;
    if text.is_empty() || permille == 0 {
        return None;
    }
    let oriented = oriented(game);
    let all = blocks(game, "royal-pawn values", text);
    let bad = |line: usize, why: &str| -> ! { panic!("game {}: royal-pawn values, line {line}: {why}", def.id) };
    let Some((first, rest)) = all.split_first().filter(|(b, _)| b.header == ["buckets"]) else {
        bad(all.first().map_or(1, |b| b.line), "the first block is the buckets")
    };
    let nbuckets = first.values.iter().map(|&b| b + 1).max().unwrap_or(0) as usize;
    if first.values.iter().any(|&b| b < 0) || nbuckets > MAX_BUCKETS {
        bad(first.line, "a bucket out of range");
    }
    let buckets = oriented.iter().map(|cells| cells.iter().map(|&from| first.values[from.index()] as u8).collect()).collect();
    let mut own: Vec<_> = (0..nbuckets).map(|_| zero_cells(game.ncells)).collect();
    let mut enemy: Vec<_> = (0..nbuckets).map(|_| zero_cells(game.ncells)).collect();
    for block in rest {
        let header = "a header is own or enemy, a bucket and mg or eg";
        let &[side @ ("own" | "enemy"), bucket, word] = &block.header[..] else { bad(block.line, header) };
        let Some(middle) = phase(word) else { bad(block.line, header) };
        let Some(values) = bucket.parse::<usize>().ok().and_then(|b| if side == "own" { own.get_mut(b) } else { enemy.get_mut(b) }) else {
            bad(block.line, "no such bucket")
        };
        add_block(values, &oriented, block, middle, permille);
    }
    Some(RoyalPawns { buckets, own, enemy })
}

impl RoyalPawns {
    /// Each player's pawn-like men's values by where the royal pieces stand (nothing for a
    /// player without one, or whose enemy has none).
    pub(super) fn terms<const W: usize>(&self, pos: &Position<W>) -> PerPlayer<Tapered> {
        let mut out = PerPlayer::splat(Tapered::ZERO);
        let players = [Player::new(0), Player::new(1)];
        let royal_bucket = |p: Player| pos.royal_cell(p).map(|k| usize::from(self.buckets[pos.man_at(k).orientation()][k]));
        let (Some(b0), Some(b1)) = (royal_bucket(players[0]), royal_bucket(players[1])) else { return out };
        let pawns = pos.pawn_men();
        for (p, own_bucket, enemy_bucket) in [(players[0], b0, b1), (players[1], b1, b0)] {
            let (own, enemy) = (&self.own[own_bucket], &self.enemy[enemy_bucket]);
            for c in pawns & pos.pieces_of(p) {
                let o = pos.man_at(c).orientation();
                out[p] += own[o][c] + enemy[o][c];
            }
        }
        out
    }
}
