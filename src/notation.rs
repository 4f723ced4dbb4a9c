//! Text forms: position strings, move strings and the text board of `d`.
//!
//! Position strings extend FEN. The placement lists the geometry's rows (see
//! [`placement_rows`]) separated by `/`; a digit run is that many empty cells. In two-player games
//! a man is its piece code, upper case for the first player and lower case for the second; with
//! more players it is the owner's letter followed by the upper-case code (`rK`). A code longer than
//! one letter is written in brackets (`[Ab]`). After the code, `(x)` gives an orientation other
//! than the owner's (a recruited pawn) and `*` marks the first mater's promoted men.
//!
//! The en passant field lists the skipped cells of the rights still open, comma separated; an
//! entry is `<cell>:<player>` when pawns of two players stand where a double step over that cell
//! would have put them.

use std::fmt::Write;

use crate::bitboard::Bitboard;
use crate::geometry::Geometry;
use crate::position::{EnPassant, Man, Move, MoveKind, NO_PLAYER, Position};
use crate::tables::{Game, MAX_PLAYERS};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotationError(pub String);

impl std::fmt::Display for NotationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotationError {}

fn err<T>(msg: impl Into<String>) -> Result<T, NotationError> {
    Err(NotationError(msg.into()))
}

/// The cells in position-string order: level by level, each level's rows from the top of its
/// drawing down, each row left to right.
pub fn placement_rows(geo: &Geometry) -> Vec<Vec<usize>> {
    // (level, drawing height, cells with their horizontal position)
    type Row = (usize, i64, Vec<(i64, usize)>);
    let mut rows: Vec<Row> = Vec::new();
    for (i, c) in geo.cells.iter().enumerate() {
        let y = (c.draw.1 * 1000.0).round() as i64;
        let x = (c.draw.0 * 1000.0).round() as i64;
        match rows.iter_mut().find(|r| r.0 == c.level && r.1 == y) {
            Some(r) => r.2.push((x, i)),
            None => rows.push((c.level, y, vec![(x, i)])),
        }
    }
    rows.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    rows.into_iter()
        .map(|mut r| {
            r.2.sort();
            r.2.into_iter().map(|(_, i)| i).collect()
        })
        .collect()
}

/// A placement field from men given as (cell name, man token) pairs on an otherwise empty board
/// (tokens are written as they are, e.g. `rK`, `[RN]`, `P`).
pub fn placement_from(geo: &Geometry, men: &[(&str, &str)]) -> Result<String, NotationError> {
    for (cell, _) in men {
        if geo.cell_by_name(cell).is_none() {
            return err(format!("no cell '{cell}'"));
        }
    }
    let rows: Vec<String> = placement_rows(geo)
        .iter()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for &c in row {
                match men.iter().find(|(cell, _)| *cell == geo.name(c)) {
                    Some((_, token)) => {
                        if empty > 0 {
                            let _ = write!(text, "{empty}");
                            empty = 0;
                        }
                        text.push_str(token);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                let _ = write!(text, "{empty}");
            }
            text
        })
        .collect();
    Ok(rows.join("/"))
}

fn code_token(code: &str) -> String {
    if code.chars().count() == 1 { code.to_string() } else { format!("[{code}]") }
}

/// The text of one man in a placement.
pub fn man_token<const W: usize>(game: &Game<W>, m: Man) -> String {
    let code = &game.def.pieces[m.kind()].code;
    let mut s = if game.nplayers == 2 {
        let t = code_token(code);
        if m.owner() == 0 { t.to_uppercase() } else { t.to_lowercase() }
    } else {
        format!("{}{}", game.def.players[m.owner()].code, code_token(&code.to_uppercase()))
    };
    if m.orientation() != m.owner() {
        let _ = write!(s, "({})", game.def.players[m.orientation()].code);
    }
    if m.flagged() {
        s.push('*');
    }
    s
}

fn player_by_code<const W: usize>(game: &Game<W>, c: char) -> Option<usize> {
    game.def.players.iter().position(|p| p.code == c)
}

/// Parses one man token at the start of `s`; returns it and the bytes consumed.
fn parse_man<const W: usize>(game: &Game<W>, s: &str) -> Result<(Man, usize), NotationError> {
    let bytes = s.as_bytes();
    let mut i = 0;
    let owner_prefix = if game.nplayers > 2 {
        let c = bytes[0] as char;
        let p = player_by_code(game, c).ok_or_else(|| NotationError(format!("'{c}' is not a player letter")))?;
        i = 1;
        Some(p)
    } else {
        None
    };
    let code: String = match bytes.get(i) {
        Some(b'[') => {
            let end = s[i..].find(']').ok_or_else(|| NotationError("unclosed '[' in placement".into()))? + i;
            let c = s[i + 1..end].to_string();
            i = end + 1;
            c
        }
        Some(&b) if (b as char).is_ascii_alphabetic() => {
            i += 1;
            (b as char).to_string()
        }
        _ => return err(format!("expected a piece code at '{}'", s.chars().take(8).collect::<String>())),
    };
    let first = code.chars().next().unwrap_or(' ');
    let owner = match owner_prefix {
        Some(p) => {
            if first.is_ascii_lowercase() {
                return err(format!("piece code '{code}' must be upper case after the player letter"));
            }
            p
        }
        None if first.is_ascii_uppercase() => 0,
        None => 1,
    };
    let kind = game.def.piece_by_code(&code).ok_or_else(|| NotationError(format!("unknown piece '{code}'")))?;
    let mut orientation = owner;
    if bytes.get(i) == Some(&b'(') {
        let c = *bytes.get(i + 1).ok_or_else(|| NotationError("unclosed '('".into()))? as char;
        orientation = player_by_code(game, c).ok_or_else(|| NotationError(format!("'{c}' is not a player letter")))?;
        if bytes.get(i + 2) != Some(&b')') {
            return err("expected ')' after the orientation letter");
        }
        i += 3;
    }
    let mut m = Man::new(kind, owner, orientation);
    if bytes.get(i) == Some(&b'*') {
        m = m.with_flag(true);
        i += 1;
    }
    Ok((m, i))
}

fn parse_placement<const W: usize>(pos: &mut Position<W>, text: &str) -> Result<(), NotationError> {
    let game = pos.game();
    let rows = placement_rows(game.geometry());
    let parts: Vec<&str> = text.split('/').collect();
    if parts.len() != rows.len() {
        return err(format!("placement has {} rows, the board has {}", parts.len(), rows.len()));
    }
    for (ri, (part, row)) in parts.iter().zip(rows.iter()).enumerate() {
        let mut col = 0usize;
        let mut rest = *part;
        while !rest.is_empty() {
            let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
            if digits > 0 {
                let n: usize = rest[..digits].parse().map_err(|_| NotationError("bad empty-cell count".into()))?;
                if n == 0 {
                    return err("empty-cell count 0");
                }
                if n > row.len().saturating_sub(col) {
                    return err(format!("row {} is too long", ri + 1));
                }
                col += n;
                rest = &rest[digits..];
                continue;
            }
            let (m, used) = parse_man(game, rest)?;
            if col >= row.len() {
                return err(format!("row {} is too long", ri + 1));
            }
            // An orientation suffix on a man that does not move by orientation changes nothing.
            pos.put(row[col], game.normalized(m));
            col += 1;
            rest = &rest[used..];
        }
        if col != row.len() {
            return err(format!("row {} has {} cells, expected {}", ri + 1, col, row.len()));
        }
    }
    Ok(())
}

fn write_placement<const W: usize>(pos: &Position<W>) -> String {
    let game = pos.game();
    let mut s = String::new();
    for (ri, row) in placement_rows(game.geometry()).iter().enumerate() {
        if ri > 0 {
            s.push('/');
        }
        let mut empty = 0;
        for &c in row {
            let m = pos.man_at(c);
            if m.is_none() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                let _ = write!(s, "{empty}");
                empty = 0;
            }
            s.push_str(&man_token(game, m));
        }
        if empty > 0 {
            let _ = write!(s, "{empty}");
        }
    }
    s
}

/// The cells of the men that could be the double-stepped pawn of an en passant cell: those a
/// double step over `skipped` would have put where they stand.
fn en_passant_victims<const W: usize>(pos: &Position<W>, skipped: usize) -> Vec<usize> {
    let game = pos.game();
    let mut out = Vec::new();
    for (t, info) in game.types.iter().enumerate() {
        if !info.en_passant {
            continue;
        }
        for (o, per_cell) in info.double_steps.iter().enumerate() {
            for steps in per_cell {
                for &(mid, to) in steps {
                    let m = pos.man_at(to as usize);
                    if mid as usize == skipped && m.is_some() && m.kind() == t && m.orientation() == o && !out.contains(&(to as usize)) {
                        out.push(to as usize);
                    }
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
        None => 0,
        Some(f) => {
            let mut chars = f.chars();
            let (c, extra) = (chars.next().unwrap_or(' '), chars.next());
            match (extra, player_by_code(game, c)) {
                (None, Some(p)) => p,
                _ => return err(format!("'{f}' is not a player to move")),
            }
        }
    };
    next += 1;
    let mut active = ((1u32 << n) - 1) as u8;
    if n > 2 {
        if let Some(f) = field(next) {
            active = 0;
            for c in f.chars() {
                let p = player_by_code(game, c).ok_or_else(|| NotationError(format!("'{c}' is not a player letter")))?;
                active |= 1 << p;
            }
        }
        next += 1;
    }
    if active >> to_move & 1 == 0 {
        return err("the player to move is not active");
    }
    for p in 0..n {
        if active >> p & 1 == 0 && pos.pieces_of(p).any() {
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
            let c = &game.castles[i];
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
                    match (chars.next().and_then(|ch| player_by_code(game, ch)), chars.next()) {
                        (Some(q), None) => (c, Some(q)),
                        _ => return err(format!("bad en passant entry '{entry}'")),
                    }
                }
            };
            let skipped =
                game.geometry().cell_by_name(cell_name).ok_or_else(|| NotationError(format!("bad en passant cell '{cell_name}'")))?;
            let victim = en_passant_victims(&pos, skipped)
                .into_iter()
                .find(|&v| stepper.is_none_or(|q| pos.man_at(v).owner() == q) && pos.en_passant(pos.man_at(v).owner()).victim as usize != v)
                .ok_or_else(|| NotationError(format!("no double-stepped pawn for en passant entry '{entry}'")))?;
            // With more players a third player may have moved onto the skipped cell; the right
            // stays (it is usable again if the cell is empty when its holder moves).
            if game.nplayers == 2 && pos.man_at(skipped).is_some() {
                return err(format!("en passant cell '{cell_name}' is occupied"));
            }
            let stepper = pos.man_at(victim).owner();
            pos.set_en_passant(stepper, EnPassant { skipped: skipped as u16, victim: victim as u16 });
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
                        (Some(c), None) => player_by_code(game, c),
                        _ => None,
                    };
                    let p = p.ok_or_else(|| NotationError(format!("bad winner '{w}' in the checkmate history")))?;
                    if active >> p & 1 == 0 {
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
            let mut by = [NO_PLAYER; MAX_PLAYERS];
            let mut order = Vec::new();
            for pair in chars.chunks(2) {
                let v = player_by_code(game, pair[0]).ok_or_else(|| NotationError(format!("'{}' is not a player letter", pair[0])))?;
                let m = player_by_code(game, pair[1]).ok_or_else(|| NotationError(format!("'{}' is not a player letter", pair[1])))?;
                if active >> v & 1 == 1 {
                    return err("an active player cannot have been checkmated");
                }
                if v == m || by[v] != NO_PLAYER {
                    return err(format!("bad checkmate history '{f}'"));
                }
                by[v] = m as u8;
                order.push(v as u8);
            }
            // Every checkmate eliminates one player, and only checkmates eliminate.
            if mates as usize != order.len() {
                return err(format!("checkmate count {mates} does not match {} victim/mater pairs", order.len()));
            }
            pos.set_mate_state(mates, by, &order);
            if let Some(w) = rule_winner {
                pos.set_rule_winner(w);
            }
        }
        next += 1;
        for p in 0..n {
            if active >> p & 1 == 0 && pos.eliminated_by(p).is_none() {
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
    for p in 0..game.nplayers {
        let royals =
            (0..game.ntypes).filter(|&t| game.types[t].royal).map(|t| (pos.pieces_of_type(t) & pos.pieces_of(p)).count()).sum::<u32>();
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
        for q in (0..game.nplayers).filter(|&q| q != mover && pos.is_active(q)) {
            if let Some(k) = pos.royal_cell(q)
                && pos.attacked(k, pos.occupied(), 1 << mover, Bitboard::EMPTY, false)
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
        for p in 0..n {
            if pos.is_active(p) {
                s.push(game.def.players[p].code);
            }
        }
    }
    let mut rights = String::new();
    for (i, c) in game.def.rules.castling.iter().enumerate() {
        if pos.castling_rights() >> i & 1 == 1 {
            rights.push(c.fen_char);
        }
    }
    let _ = write!(s, " {}", if rights.is_empty() { "-" } else { &rights });
    let eps: Vec<String> = (0..n)
        .filter(|&p| pos.en_passant(p).is_some())
        .map(|p| {
            let skipped = pos.en_passant(p).skipped as usize;
            let name = game.geometry().name(skipped);
            if en_passant_victims(pos, skipped).len() > 1 { format!("{name}:{}", game.def.players[p].code) } else { name.to_string() }
        })
        .collect();
    let _ = write!(s, " {}", if eps.is_empty() { "-".to_string() } else { eps.join(",") });
    let _ = write!(s, " {} {}", pos.halfmove_clock(), pos.fullmove_number());
    if n > 2 {
        let _ = write!(s, " {}:", pos.mates());
        for v in pos.elimination_order() {
            s.push(game.def.players[v].code);
            s.push(game.def.players[pos.eliminated_by(v).unwrap_or(v)].code);
        }
        if let Some(w) = pos.rule_winner() {
            let _ = write!(s, "!{}", game.def.players[w].code);
        }
    }
    s
}

/// The text of a move: from-cell, to-cell, promotion code in lower case; `0000` for the pass; the
/// legs of a multi-leg move joined by `,`.
pub fn move_string<const W: usize>(game: &Game<W>, mv: Move) -> String {
    let geo = game.geometry();
    match mv.kind() {
        MoveKind::Pass => return "0000".to_string(),
        MoveKind::Charge => {
            let legs: Vec<String> = game.charge_legs(mv).iter().map(|l| format!("{}{}", geo.name(l.from), geo.name(l.to))).collect();
            return legs.join(",");
        }
        _ => {}
    }
    let mut s = format!("{}{}", geo.name(mv.from()), geo.name(mv.to()));
    if let Some(t) = mv.promotion() {
        s.push_str(&game.def.pieces[t].code.to_lowercase());
    }
    s
}

/// Finds the legal move written as `text`. A promotion suffix may be left out where the move
/// has exactly one promotion choice (a promotion decided by the destination cell).
pub fn parse_move<const W: usize>(pos: &Position<W>, text: &str) -> Result<Move, NotationError> {
    let game = pos.game();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if let Some(&mv) = moves.iter().find(|&&m| move_string(game, m) == text) {
        return Ok(mv);
    }
    if let Some(&mv) = moves.iter().find(|&&m| move_string(game, m).eq_ignore_ascii_case(text)) {
        return Ok(mv);
    }
    let geo = game.geometry();
    let cells = |leg: &str| -> Option<(usize, usize)> {
        let (from, n) = geo.parse_cell_prefix(leg)?;
        let (to, m) = geo.parse_cell_prefix(&leg[n..])?;
        (n + m == leg.len()).then_some((from, to))
    };
    if let Some((from, to)) = cells(text) {
        let same_cells: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| !matches!(m.kind(), MoveKind::Pass | MoveKind::Charge) && m.from() == from && m.to() == to)
            .collect();
        if let [only] = same_cells[..]
            && only.promotion().is_some()
        {
            return Ok(only);
        }
    }
    // Well-formed but not legal, or not a move at all?
    let well_formed = text == "0000"
        || text.split(',').all(|leg| geo.parse_cell_prefix(leg).and_then(|(_, n)| geo.parse_cell_prefix(&leg[n..])).is_some());
    if well_formed { err(format!("illegal move '{text}'")) } else { err(format!("malformed move '{text}'")) }
}

/// The text board of `d`: each level drawn from the cells' 2-D positions, each row labelled with
/// its first and last cell. Neighbours in a row are one cell apart, a cell being as wide as the
/// widest token on the board plus a space (an even width where rows are offset by half a cell, as
/// on hex boards, so that every cell sits exactly between the two it touches in the next rows).
/// Holes of the geometry (notches) are drawn as `##`.
pub fn board_text<const W: usize>(pos: &Position<W>) -> String {
    let game = pos.game();
    let geo = game.geometry();
    let mut out = String::new();
    let rows = placement_rows(game.geometry());
    let token = |c: usize| {
        let m = pos.man_at(c);
        if m.is_none() { ".".to_string() } else { man_token(game, m) }
    };
    let token_width = (0..geo.len()).map(|c| token(c).chars().count()).max().unwrap_or(1).max(3);
    let min_gap = rows
        .iter()
        .flat_map(|r| r.windows(2).map(|w| (geo.cells[w[1]].draw.0 - geo.cells[w[0]].draw.0).abs()))
        .filter(|&g| g > 1e-9)
        .fold(f64::INFINITY, f64::min);
    let min_gap = if min_gap.is_finite() { min_gap } else { 1.0 };
    let half_steps = geo.cells.iter().any(|c| ((c.draw.0 / min_gap) * 2.0).round() as i64 % 2 != 0);
    let mut cell_width = token_width + 1;
    if half_steps && cell_width % 2 == 1 {
        cell_width += 1;
    }
    let unit = cell_width as f64 / min_gap;
    for level in 0..geo.levels {
        let cells: Vec<usize> = (0..geo.len()).filter(|&c| geo.cells[c].level == level).collect();
        if cells.is_empty() {
            continue;
        }
        if geo.levels > 1 {
            let _ = writeln!(out, "Level {}:", geo.level_names.get(level).cloned().unwrap_or_else(|| level.to_string()));
        }
        let minx = cells.iter().map(|&c| geo.cells[c].draw.0).fold(f64::INFINITY, f64::min);
        let mut lines = Vec::new();
        for row in rows.iter().filter(|r| geo.cells[r[0]].level == level) {
            let y = geo.cells[row[0]].draw.1;
            let mut tokens: Vec<(f64, String)> = row.iter().map(|&c| (geo.cells[c].draw.0, token(c))).collect();
            for &(_, (x, _)) in geo.holes.iter().filter(|&&(l, (_, hy))| l == level && (hy - y).abs() < 1e-6) {
                tokens.push((x, "##".to_string()));
            }
            tokens.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut line = String::new();
            for (x, tok) in tokens {
                let col = ((x - minx) * unit).round() as usize;
                while line.chars().count() < col {
                    line.push(' ');
                }
                let _ = write!(line, " {tok:<token_width$}");
            }
            let first = geo.name(row[0]);
            let last = geo.name(*row.last().unwrap_or(&row[0]));
            lines.push((line.trim_end().to_string(), format!("{first}..{last}")));
        }
        let width = lines.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0);
        for (line, label) in lines {
            let _ = writeln!(out, "{line:<width$}   {label}");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "Position: {}", position_string(pos));
    let _ = writeln!(out, "Key: {:016X}", pos.hash());
    let p = pos.to_move();
    let checkers = match pos.royal_cell(p) {
        Some(k) => pos.attackers(k, pos.occupied(), pos.active_mask() & !(1 << p), Bitboard::EMPTY, true),
        None => Bitboard::EMPTY,
    };
    let names: Vec<&str> = checkers.iter().map(|c| geo.name(c)).collect();
    let _ = writeln!(out, "Checkers: {}", names.join(" "));
    out
}
