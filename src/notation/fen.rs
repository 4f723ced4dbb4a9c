//! Position strings: the placement, then the player to move, the active players (three or more
//! players), castling rights, en passant rights, the counters and the checkmate history.

use std::fmt::Write;

use super::placement::{parse_placement, write_placement};
use super::{NotationError, err};
use crate::attacks::Facing;
use crate::bitboard::Bitboard;
use crate::position::{EnPassant, Position};
use crate::tables::Game;
use crate::types::{Cell, Player, PlayerSet};

/// The cells of the men that could be the double-stepped pawn of an en passant cell: those a
/// double step over `skipped` would have put where they stand.
fn en_passant_victims<const W: usize>(pos: &Position<W>, skipped: Cell) -> Vec<Cell> {
    let game = pos.game();
    let mut out = Vec::new();
    for (t, info) in game.types.entries() {
        if !info.en_passant {
            continue;
        }
        for (o, per_cell) in info.double_steps.entries() {
            for &(mid, to) in per_cell.iter().flatten() {
                let m = pos.man_at(to);
                if mid == skipped && m.is_some() && m.kind() == t && m.orientation() == o && !out.contains(&to) {
                    out.push(to);
                }
            }
        }
    }
    out
}

/// Parses a position string for this game.
pub fn parse_position<const W: usize>(game: &'static Game<W>, text: &str) -> Result<Position<W>, NotationError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return err("empty position string");
    }
    let mut pos = Position::empty(game);
    parse_placement(&mut pos, fields[0])?;
    let n = game.nplayers;
    let mut next = 1;
    let field = |i: usize| fields.get(i).copied();

    let to_move = match field(next) {
        None => Player::new(0),
        Some(f) => {
            let mut chars = f.chars();
            let (c, extra) = (chars.next().unwrap_or(' '), chars.next());
            match (extra, game.def.player_by_code(c)) {
                (None, Some(p)) => p,
                _ => return err(format!("'{f}' is not a player to move")),
            }
        }
    };
    next += 1;
    let mut active = PlayerSet::first(n);
    if n > 2 {
        if let Some(f) = field(next) {
            active = PlayerSet::EMPTY;
            for c in f.chars() {
                let p = game.def.player_by_code(c).ok_or_else(|| NotationError(format!("'{c}' is not a player letter")))?;
                active.insert(p);
            }
        }
        next += 1;
    }
    if !active.has(to_move) {
        return err("the player to move is not active");
    }
    for p in game.players() {
        if !active.has(p) && pos.pieces_of(p).any() {
            return err(format!("eliminated player {} still has men", game.def.players[p].name));
        }
    }

    let mut castling = 0u32;
    if let Some(f) = field(next)
        && f != "-"
    {
        for ch in f.chars() {
            let i = game
                .def
                .rules
                .castling
                .iter()
                .position(|c| c.fen_char == ch)
                .ok_or_else(|| NotationError(format!("unknown castling right '{ch}'")))?;
            let c = &game.rules.castles[i];
            let king = pos.man_at(c.king_from);
            let rook = pos.man_at(c.rook_from);
            let ok = king.is_some()
                && king.owner() == c.player
                && game.types[king.kind()].royal
                && rook.is_some()
                && rook.owner() == c.player
                && !game.types[rook.kind()].royal
                && !game.types[rook.kind()].pawn;
            if !ok {
                return err(format!("castling right '{ch}' without king and corner piece in place"));
            }
            castling |= 1 << i;
        }
    }
    next += 1;

    if let Some(f) = field(next)
        && f != "-"
    {
        for entry in f.split(',') {
            // `<cell>` or, when two players' pawns could have made the double step, `<cell>:<player>`.
            let (cell_name, stepper) = match entry.split_once(':') {
                None => (entry, None),
                Some((c, p)) => {
                    let mut chars = p.chars();
                    match (chars.next().and_then(|ch| game.def.player_by_code(ch)), chars.next()) {
                        (Some(q), None) => (c, Some(q)),
                        _ => return err(format!("bad en passant entry '{entry}'")),
                    }
                }
            };
            let skipped =
                game.geometry().cell_by_name(cell_name).ok_or_else(|| NotationError(format!("bad en passant cell '{cell_name}'")))?;
            let victim = en_passant_victims(&pos, skipped)
                .into_iter()
                .find(|&v| {
                    stepper.is_none_or(|q| pos.man_at(v).owner() == q)
                        && pos.en_passant(pos.man_at(v).owner()).is_none_or(|ep| ep.victim != v)
                })
                .ok_or_else(|| NotationError(format!("no double-stepped pawn for en passant entry '{entry}'")))?;
            // With more players a third player may have moved onto the skipped cell; the right
            // stays (it is usable again if the cell is empty when its holder moves).
            if game.nplayers == 2 && pos.man_at(skipped).is_some() {
                return err(format!("en passant cell '{cell_name}' is occupied"));
            }
            let stepper = pos.man_at(victim).owner();
            pos.set_en_passant(stepper, Some(EnPassant { skipped, victim }));
        }
    }
    next += 1;

    let number = |f: Option<&str>, name: &str, default: u32| -> Result<u32, NotationError> {
        match f {
            None => Ok(default),
            Some(t) => t.parse::<u32>().map_err(|_| NotationError(format!("bad {name} '{t}'"))),
        }
    };
    let halfmove = number(field(next), "halfmove clock", 0)?;
    let fullmove = number(field(next + 1), "move number", 1)?;
    next += 2;
    if n > 2 {
        // Checkmate history: `<mates>:<victim><mater>...` e.g. `1:yr` (Yellow mated by Red), then
        // `!<winner>` when a winning rule has ended the game with others still on the board.
        if let Some(f) = field(next) {
            let (count, pairs) = f.split_once(':').unwrap_or((f, ""));
            let (pairs, rule_winner) = match pairs.split_once('!') {
                None => (pairs, None),
                Some((pairs, w)) => {
                    let mut chars = w.chars();
                    let p = match (chars.next(), chars.next()) {
                        (Some(c), None) => game.def.player_by_code(c),
                        _ => None,
                    };
                    let p = p.ok_or_else(|| NotationError(format!("bad winner '{w}' in the checkmate history")))?;
                    if !active.has(p) {
                        return err("the winner must be an active player");
                    }
                    (pairs, Some(p))
                }
            };
            let mates: u8 = count.parse().map_err(|_| NotationError(format!("bad checkmate count '{count}'")))?;
            let chars: Vec<char> = pairs.chars().collect();
            if !chars.len().is_multiple_of(2) {
                return err("checkmate history needs victim/mater letter pairs");
            }
            let mut order: Vec<(Player, Player)> = Vec::new();
            for pair in chars.chunks(2) {
                let letter = |c: char| game.def.player_by_code(c).ok_or_else(|| NotationError(format!("'{c}' is not a player letter")));
                let (v, m) = (letter(pair[0])?, letter(pair[1])?);
                if active.has(v) {
                    return err("an active player cannot have been checkmated");
                }
                if v == m || order.iter().any(|&(w, _)| w == v) {
                    return err(format!("bad checkmate history '{f}'"));
                }
                order.push((v, m));
            }
            // Every checkmate eliminates one player, and only checkmates eliminate.
            if mates as usize != order.len() {
                return err(format!("checkmate count {mates} does not match {} victim/mater pairs", order.len()));
            }
            pos.set_mate_state(mates, &order);
            if let Some(w) = rule_winner {
                pos.set_rule_winner(w);
            }
        }
        next += 1;
        for p in game.players() {
            if !active.has(p) && pos.eliminated_by(p).is_none() {
                return err(format!("eliminated player {} is missing from the checkmate history", game.def.players[p].name));
            }
        }
    }
    if fields.len() > next {
        return err(format!("unexpected field '{}'", fields[next]));
    }
    pos.set_counters(halfmove, fullmove);
    pos.set_castling(castling);
    pos.set_active(active);
    pos.set_to_move(to_move);
    validate(&pos)?;
    Ok(pos)
}

/// Checks that the position can be played: each active player has exactly one royal piece, and
/// the player to move attacks no other active player's royal piece (in a two-player game the
/// side not to move is not in check; with more players that victim would already have been
/// checkmated at the start of this turn).
fn validate<const W: usize>(pos: &Position<W>) -> Result<(), NotationError> {
    let game = pos.game();
    let royal_men = pos.pieces_of_types(game.piece_types().filter(|&t| game.types[t].royal));
    for p in game.players() {
        let royals = (royal_men & pos.pieces_of(p)).count();
        if royals > 1 {
            return err(format!("{} has more than one royal piece", game.def.players[p].name));
        }
        if pos.is_active(p) && royals == 0 {
            return err(format!("{} has no king", game.def.players[p].name));
        }
    }
    let mover = pos.to_move();
    if pos.active_count() == 2 {
        let other = pos.next_active(mover);
        if pos.in_check(other) {
            return err("the side not to move is in check");
        }
    } else {
        for q in pos.opponents(mover).iter() {
            if let Some(k) = pos.royal_cell(q)
                && pos.attacked(k, pos.occupied(), PlayerSet::only(mover), Bitboard::EMPTY, Facing::Ignored)
            {
                return err(format!("{} to move attacks the king of {}", game.def.players[mover].name, game.def.players[q].name));
            }
        }
    }
    Ok(())
}

/// The position string of a position (parses back to the same position).
pub fn position_string<const W: usize>(pos: &Position<W>) -> String {
    let game = pos.game();
    let n = game.nplayers;
    let mut s = write_placement(pos);
    let _ = write!(s, " {}", game.def.players[pos.to_move()].code);
    if n > 2 {
        s.push(' ');
        s.extend(pos.active_players().iter().map(|p| game.def.players[p].code));
    }
    let mut rights = String::new();
    for (i, c) in game.def.rules.castling.iter().enumerate() {
        if pos.castling_rights() >> i & 1 == 1 {
            rights.push(c.fen_char);
        }
    }
    let _ = write!(s, " {}", if rights.is_empty() { "-" } else { &rights });
    let eps: Vec<String> = game
        .players()
        .filter_map(|p| pos.en_passant(p).map(|ep| (p, ep.skipped)))
        .map(|(p, skipped)| {
            let name = game.geometry().name(skipped);
            if en_passant_victims(pos, skipped).len() > 1 { format!("{name}:{}", game.def.players[p].code) } else { name.to_string() }
        })
        .collect();
    let _ = write!(s, " {}", if eps.is_empty() { "-".to_string() } else { eps.join(",") });
    let _ = write!(s, " {} {}", pos.halfmove_clock(), pos.fullmove_number());
    if n > 2 {
        let _ = write!(s, " {}:", pos.mates());
        for &v in pos.elimination_order() {
            s.push(game.def.players[v].code);
            s.push(game.def.players[pos.eliminated_by(v).unwrap_or(v)].code);
        }
        if let Some(w) = pos.rule_winner() {
            let _ = write!(s, "!{}", game.def.players[w].code);
        }
    }
    s
}
