//! A learned network as a file: the text `tuning/network.py` writes ([`NetworkFile::from_text`]),
//! turned by `tessera network` into the binary form a game's profile compiles in
//! ([`NetworkFile::to_bytes`], read by [`NetworkFile::from_bytes`]). The binary form names its
//! game and carries a fingerprint of that game's board and piece set and its own version, so that
//! a network of another game, or of a game whose definition has changed, is refused with a clear
//! error instead of evaluating nonsense.
//!
//! Text format: `hidden H`; optionally `buckets B M` (B output buckets over M men; without it
//! one), `perspectives P` (1: the viewer's units alone, the default; more: the viewer's, then the
//! next players' in turn order) and `mirror`; `bias` and H values (the hidden units' biases); B
//! blocks `output` of P × H + 1 values (each unit's weight, then the output's bias, in sixteenths of a centipawn per
//! unit at [`ONE`]), the bucket of fewest men first; then per relation and piece code a block
//! `relation R P` of the cells' weights, H values per cell in cell order: R is the owner's place
//! after the viewer in turn order (0: the viewer's own men; with two players `own P` and `enemy
//! P` say the same), the cells from the viewer's side. Weights are in
//! 1/[`ONE`] of a unit; `#` lines are comments. A malformed text is a defect of whoever converts
//! it, reported with its game and line.
//!
//! Binary format, little-endian: the magic `TSNN`; the version (u16, [`VERSION`]); the game id (a
//! u8 length, then its bytes); the fingerprint of the game's cells and pieces (u64,
//! [`definition_fingerprint`]); piece types and cells (u16 each); H (u16), B (u8), M (u8), P (u8)
//! and flags (u8, bit 0 `mirror`); then i16 values: the H biases, the B × P × H output weights, the
//! B output biases, and the weights per relation (one per player: the owner's place after the
//! viewer), piece type in the game's order, cell in canonical order, H per cell. A weight of a piece the text left out is 0.
//!
//! The first layer's sums are kept in 16 bits: a unit's bias and, per cell, its largest weight in
//! absolute value may sum to at most 32,767 (checked in both forms).

use super::learned::read_blocks;
use crate::error::message_error;
use crate::fingerprint::fnv1a;
use crate::game::GameDef;
use crate::types::{Cell, PieceType, Player};

/// A hidden unit's full activation.
pub const ONE: i32 = 1024;
/// Hidden units at most.
pub const MAX_HIDDEN: usize = 1024;
/// Output weights (and bias) at most, in absolute value: with [`ONE`] and [`MAX_HIDDEN`] the
/// output's sum over one perspective stays below 2^31.
pub const MAX_OUTPUT: i32 = i32::MAX / (ONE * MAX_HIDDEN as i32);
/// The binary form's version.
pub const VERSION: u16 = 1;
const MAGIC: &[u8; 4] = b"TSNN";

message_error!(
    /// A network file that is not this game's, not this engine's format, or malformed.
    NetworkError
);

/// A network's numbers, whichever form they came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkFile {
    pub hidden: usize,
    pub buckets: usize,
    pub bucket_men: usize,
    pub perspectives: usize,
    pub mirror: bool,
    pub bias: Vec<i16>,
    /// Per bucket, per perspective, each unit's weight.
    pub output: Vec<i16>,
    /// Per bucket.
    pub output_bias: Vec<i16>,
    /// Per relation (the owner's place after the viewer), piece type and cell, each unit's weight.
    pub weights: Vec<i16>,
}

/// The number of the input a man switches on for `viewer`: by its relation to the viewer (its
/// owner's place after the viewer in turn order), its type and its cell in the viewer's frame, as
/// the weights are laid out (`tessera features` writes them so for the trainer).
pub fn input_index(def: &GameDef, viewer: Player, owner: Player, kind: PieceType, cell_in_frame: Cell) -> usize {
    let (n, ntypes, ncells) = (def.players.len(), def.pieces.len(), def.geometry.len());
    let relation = (owner.index() + n - viewer.index()) % n;
    (relation * ntypes + kind.index()) * ncells + cell_in_frame.index()
}

/// The fingerprint of what a network's inputs mean in a game: its players, its cells (lattice
/// coordinates, level and name, in canonical order) and its pieces (code and name, in order).
pub fn definition_fingerprint(def: &GameDef) -> u64 {
    let mut text = format!("players {}\n", def.players.len());
    for c in def.geometry.cells.iter() {
        text.push_str(&format!("cell {} {:?} {}\n", c.name, c.coord, c.level));
    }
    for p in def.pieces.iter() {
        text.push_str(&format!("piece {} {}\n", p.code, p.name));
    }
    fnv1a(text.as_bytes())
}

impl NetworkFile {
    /// Reads the trainer's text for the game `def`; panics naming the game and line where it is
    /// malformed.
    pub fn from_text(def: &GameDef, text: &str) -> NetworkFile {
        let id = &def.id;
        let (nplayers, ntypes, ncells) = (def.players.len(), def.pieces.len(), def.geometry.len());
        let blocks = read_blocks(id, "network", text);
        let h = match blocks.first().map(|b| (&b.header[..], b)) {
            Some((["hidden", h], b)) if b.values.is_empty() => h.parse().ok().filter(|h| (1..=MAX_HIDDEN).contains(h)),
            _ => None,
        }
        .unwrap_or_else(|| panic!("game {id}: network: the first line is `hidden H`, H from 1 to {MAX_HIDDEN}"));
        let mut file = NetworkFile {
            hidden: h,
            buckets: 1,
            bucket_men: 1,
            perspectives: 1,
            mirror: false,
            bias: Vec::new(),
            output: Vec::new(),
            output_bias: Vec::new(),
            weights: vec![0; nplayers * ntypes * ncells * h],
        };
        let mut rest = 1;
        while let Some(block) = blocks.get(rest).filter(|b| b.values.is_empty()) {
            let bad = |how: &str| -> ! { panic!("game {id}: network, line {}: {how}", block.line) };
            match &block.header[..] {
                ["buckets", b, m] => match (b.parse(), m.parse()) {
                    (Ok(b @ 1..=64), Ok(m @ 1..=255)) => (file.buckets, file.bucket_men) = (b, m),
                    _ => bad("`buckets B M`, B from 1 to 64 and M from 1 to 255"),
                },
                ["perspectives", p] => {
                    file.perspectives = p
                        .parse()
                        .ok()
                        .filter(|p| (1..=nplayers).contains(p))
                        .unwrap_or_else(|| bad(&format!("`perspectives P`, P from 1 to {nplayers}")))
                }
                ["mirror"] => file.mirror = true,
                _ => break,
            }
            rest += 1;
        }
        let mut seen = vec![false; nplayers * ntypes];
        for block in &blocks[rest..] {
            let bad = |why: &str| -> ! { panic!("game {id}: network, line {}: {why}", block.line) };
            let narrow =
                |v: &i32, most: i32, what: &str| if (-most..=most).contains(v) { *v as i16 } else { bad(&format!("{what} out of range")) };
            match &block.header[..] {
                ["bias"] => {
                    block.expect_len(id, "network", h);
                    file.bias = block.values.iter().map(|v| narrow(v, i32::from(i16::MAX), "a bias")).collect();
                }
                ["output"] => {
                    let n = file.perspectives * h;
                    block.expect_len(id, "network", n + 1);
                    if file.output_bias.len() == file.buckets {
                        bad("more output blocks than buckets");
                    }
                    file.output.extend(block.values[..n].iter().map(|v| narrow(v, MAX_OUTPUT, "an output weight")));
                    file.output_bias.push(narrow(&block.values[n], MAX_OUTPUT, "an output bias"));
                }
                [relation @ ("own" | "enemy" | "relation"), rest @ ..] => {
                    let (relation, code) = match (*relation, rest) {
                        ("own", [code]) => (0, code),
                        ("enemy", [code]) if nplayers == 2 => (1, code),
                        ("relation", [r, code]) => match r.parse::<usize>() {
                            Ok(r) if r < nplayers => (r, code),
                            _ => bad(&format!("a relation from 0 to {}", nplayers - 1)),
                        },
                        _ => bad("`own P` and `enemy P` (two players) or `relation R P`"),
                    };
                    let kind = def.piece_by_code(code).unwrap_or_else(|| bad("no such piece"));
                    let input = relation * ntypes + kind.index();
                    if std::mem::replace(&mut seen[input], true) {
                        bad("a block given twice");
                    }
                    block.expect_len(id, "network", ncells * h);
                    let start = input * ncells * h;
                    for (w, v) in file.weights[start..start + ncells * h].iter_mut().zip(&block.values) {
                        *w = narrow(v, i32::from(i16::MAX), "a weight");
                    }
                }
                _ => bad("a header is hidden, buckets, perspectives, bias, output, or a relation and a piece code"),
            }
        }
        assert!(file.bias.len() == h && file.output_bias.len() == file.buckets, "game {id}: network: bias or output missing");
        if let Err(e) = file.check_sums(ncells) {
            panic!("game {id}: {e}");
        }
        file
    }

    /// The binary form, for the game `def`.
    pub fn to_bytes(&self, def: &GameDef) -> Vec<u8> {
        let mut out = Vec::with_capacity(32 + 2 * (self.bias.len() + self.output.len() + self.output_bias.len() + self.weights.len()));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        let id = def.id.as_bytes();
        out.push(u8::try_from(id.len()).expect("a game id of at most 255 bytes"));
        out.extend_from_slice(id);
        out.extend_from_slice(&definition_fingerprint(def).to_le_bytes());
        for n in [def.pieces.len(), def.geometry.len(), self.hidden] {
            out.extend_from_slice(&u16::try_from(n).expect("counts of 16 bits").to_le_bytes());
        }
        for n in [self.buckets, self.bucket_men, self.perspectives, usize::from(self.mirror)] {
            out.push(u8::try_from(n).expect("a shape of 8 bits"));
        }
        for v in self.bias.iter().chain(&self.output).chain(&self.output_bias).chain(&self.weights) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// Reads the binary form, refusing one of another game, of another definition of this game,
    /// of another version, or malformed.
    pub fn from_bytes(def: &GameDef, bytes: &[u8]) -> Result<NetworkFile, NetworkError> {
        let mut reader = Reader { bytes, at: 0 };
        if reader.take(4)? != MAGIC {
            return Err(NetworkError("not a tessera network (no TSNN at its start)".into()));
        }
        let version = reader.u16()?;
        if version != VERSION {
            return Err(NetworkError(format!("a network of format version {version}; this engine reads version {VERSION}")));
        }
        let id_len = usize::from(reader.u8()?);
        let id = String::from_utf8_lossy(reader.take(id_len)?).into_owned();
        if id != def.id {
            return Err(NetworkError(format!("a network of game '{id}', not of '{}'", def.id)));
        }
        let fingerprint = u64::from_le_bytes(reader.take(8)?.try_into().expect("8 bytes"));
        let (ntypes, ncells) = (usize::from(reader.u16()?), usize::from(reader.u16()?));
        if fingerprint != definition_fingerprint(def) || ntypes != def.pieces.len() || ncells != def.geometry.len() {
            return Err(NetworkError(format!(
                "a network of '{id}' for another board or piece set ({ntypes} piece types, {ncells} cells, fingerprint {fingerprint:016x}; \
                 this build's has {}, {} and {:016x}): train it again for this definition",
                def.pieces.len(),
                def.geometry.len(),
                definition_fingerprint(def)
            )));
        }
        let hidden = usize::from(reader.u16()?);
        let (buckets, bucket_men, perspectives, flags) = (reader.u8()?, reader.u8()?, reader.u8()?, reader.u8()?);
        if !(1..=MAX_HIDDEN).contains(&hidden)
            || !(1..=64).contains(&buckets)
            || bucket_men == 0
            || !(1..=def.players.len()).contains(&usize::from(perspectives))
            || flags > 1
        {
            return Err(NetworkError(format!(
                "a network of an impossible shape: {hidden} hidden units, {buckets} buckets over {bucket_men} men, {perspectives} perspectives, flags {flags}"
            )));
        }
        let (buckets, perspectives) = (usize::from(buckets), usize::from(perspectives));
        let file = NetworkFile {
            hidden,
            buckets,
            bucket_men: usize::from(bucket_men),
            perspectives,
            mirror: flags == 1,
            bias: reader.i16s(hidden)?,
            output: reader.i16s(buckets * perspectives * hidden)?,
            output_bias: reader.i16s(buckets)?,
            weights: reader.i16s(def.players.len() * ntypes * ncells * hidden)?,
        };
        if reader.at != bytes.len() {
            return Err(NetworkError(format!("a network with {} bytes past its end", bytes.len() - reader.at)));
        }
        if file.output.iter().chain(&file.output_bias).any(|&v| i32::from(v).abs() > MAX_OUTPUT) {
            return Err(NetworkError(format!("a network with an output weight beyond {MAX_OUTPUT}")));
        }
        file.check_sums(ncells)?;
        Ok(file)
    }

    /// Whether a unit's first-layer sum stays within the 16 bits it is kept in, whatever the men:
    /// its bias and, per cell, its largest weight over the inputs a man there may be.
    fn check_sums(&self, ncells: usize) -> Result<(), NetworkError> {
        let h = self.hidden;
        let inputs = self.weights.len() / (ncells * h);
        let mut most: Vec<i32> = self.bias.iter().map(|&b| i32::from(b).abs()).collect();
        let mut cell = vec![0i32; h];
        for c in 0..ncells {
            cell.fill(0);
            for i in 0..inputs {
                let start = (i * ncells + c) * h;
                for (m, &w) in cell.iter_mut().zip(&self.weights[start..start + h]) {
                    *m = (*m).max(i32::from(w).abs());
                }
            }
            for (m, &c) in most.iter_mut().zip(&cell) {
                *m += c;
            }
        }
        let most = most.into_iter().max().unwrap_or(0);
        if most > i32::from(i16::MAX) {
            return Err(NetworkError(format!(
                "network: a unit's sum may reach {most} (its bias and on each cell its largest weight), beyond 16 bits"
            )));
        }
        Ok(())
    }
}

/// Reads a binary network front to back.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], NetworkError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| NetworkError(format!("a network cut short: {} bytes, more needed at byte {}", self.bytes.len(), self.at)))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u8(&mut self) -> Result<u8, NetworkError> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, NetworkError> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2 bytes")))
    }

    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, NetworkError> {
        Ok(self.take(2 * n)?.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games;

    fn chess() -> GameDef {
        games::definition("chess").expect("chess")
    }

    fn chess_bytes() -> &'static [u8] {
        games::profile("chess").expect("chess").eval.learned.network
    }

    #[test]
    fn the_binary_form_reads_back_to_the_same_network() {
        let file = NetworkFile::from_bytes(&chess(), chess_bytes()).expect("chess's own network");
        assert_eq!((file.hidden, file.buckets, file.bucket_men, file.perspectives, file.mirror), (512, 8, 32, 2, true));
        assert_eq!(file.to_bytes(&chess()), chess_bytes());
        assert!(chess_bytes().len() <= 4 << 20, "a shipped network is at most 4 MB");
    }

    /// A network of another game, of a changed definition, of another version, or cut short is
    /// refused with its reason.
    #[test]
    fn the_reader_refuses_what_is_not_this_games() {
        let refused = |def: &GameDef, bytes: &[u8]| NetworkFile::from_bytes(def, bytes).expect_err("refused").0;
        let other = games::definition("cwda-nn").expect("a pairing");
        assert_eq!(refused(&other, chess_bytes()), "a network of game 'chess', not of 'cwda-nn'");
        let mut renamed = chess();
        renamed.pieces[PieceType::new(1)].name = "Footman".into();
        assert!(refused(&renamed, chess_bytes()).contains("for another board or piece set"));
        let mut moved = chess();
        moved.geometry.cells[crate::types::Cell::new(0)].coord = [0, 0, 1];
        assert!(refused(&moved, chess_bytes()).contains("for another board or piece set"));
        let mut newer = chess_bytes().to_vec();
        newer[4] = 2;
        assert_eq!(refused(&chess(), &newer), "a network of format version 2; this engine reads version 1");
        assert!(refused(&chess(), &chess_bytes()[..1000]).starts_with("a network cut short"));
        assert!(refused(&chess(), b"GIF89a").starts_with("not a tessera network"));
        let mut longer = chess_bytes().to_vec();
        longer.push(0);
        assert_eq!(refused(&chess(), &longer), "a network with 1 bytes past its end");
    }

    /// A malformed network text is refused, saying which line is wrong (or, for sums that could
    /// leave 16 bits, which sum).
    #[test]
    fn malformed_network_texts_name_their_line() {
        let weights = |last: i32| format!("{}{last}\n", "0 ".repeat(63));
        let texts = [
            ("bias\n1\n".to_string(), "network: the first line is `hidden H`"),
            ("hidden 1025\nbias\n1\n".to_string(), "the first line is `hidden H`, H from 1 to 1024"),
            ("hidden 2\nbias\n1 2 3\n".to_string(), "line 2: the block takes 2 values, not 3"),
            ("hidden 2\nbias\n1\noutput\n1 2 3\n".to_string(), "line 2: the block takes 2 values, not 1"),
            ("hidden 2\nbias\n1 2\noutput\n1 2 3\nown Z\n".to_string(), "line 6: no such piece"),
            ("hidden 1\nbias\n1\noutput\n9000 2\n".to_string(), "line 4: an output weight out of range"),
            (format!("hidden 1\nbias\n1\noutput\n1 2\nown P\n{}", weights(40000)), "line 6: a weight out of range"),
            (format!("hidden 1\nbias\n1\noutput\n1 2\nown P\n{}own P\n{}", weights(1), weights(1)), "line 8: a block given twice"),
            ("hidden 1\nbuckets 0 32\nbias\n1\n".to_string(), "line 2: `buckets B M`"),
            (
                "hidden 1\nbuckets 2 32\nbias\n1\noutput\n1 2\noutput\n1 2\noutput\n1 2\n".to_string(),
                "line 9: more output blocks than buckets",
            ),
            ("hidden 1\nbuckets 2 32\nbias\n1\noutput\n1 2\n".to_string(), "network: bias or output missing"),
            ("hidden 1\nperspectives 3\nbias\n1\n".to_string(), "line 2: `perspectives P`, P from 1 to 2"),
            ("hidden 1\nbuckets 2 32\nperspectives 2\nbias\n1\noutput\n1 2\n".to_string(), "line 6: the block takes 3 values, not 2"),
            // 64 cells of weight 600 and the bias: beyond the 16 bits the sums are kept in.
            (format!("hidden 1\nbias\n1\noutput\n1 2\nown P\n{}\n", "600 ".repeat(64)), "a unit's sum may reach 38401"),
        ];
        for (n, (text, why)) in texts.into_iter().enumerate() {
            let mut def = crate::games::definition("chess").expect("chess");
            def.id = format!("chess-malformed-network-{n}");
            let panic = std::panic::catch_unwind(|| NetworkFile::from_text(&def, &text)).expect_err(&text);
            let message = panic.downcast_ref::<String>().expect("a formatted message");
            assert!(message.contains(why), "{message}");
        }
    }
}
