//! The parameters of `go`. Out-of-range values are clamped and unknown or malformed tokens are
//! skipped (each with one warning), so that every `go` ends in a `bestmove`.

use crate::game::GameDef;
use crate::search::Limits;
use crate::session::Session;

/// Bounds of `go depth` (and `mate`, in moves) and `go movestogo`.
const MAX_GO_DEPTH: u64 = 100;
const MAX_MOVES_TO_GO: u64 = 1000;

/// Every keyword `go` knows (besides the per-player `<letter>time` and `<letter>inc`).
const KEYWORDS: [&str; 9] = ["searchmoves", "ponder", "wtime", "btime", "depth", "nodes", "mate", "movetime", "infinite"];

/// A number of `go`: digits, saturating at `u64::MAX`; a negative number is 0.
fn number(token: &str) -> Option<u64> {
    let (negative, digits) = match token.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, token.strip_prefix('+').unwrap_or(token)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(if negative { 0 } else { digits.parse().unwrap_or(u64::MAX) })
}

/// A player's clock field, `<letter>time` or `<letter>inc`: the player's index.
fn player_field(def: &GameDef, token: &str, suffix: &str) -> Option<usize> {
    let mut chars = token.strip_suffix(suffix)?.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else { return None };
    def.player_by_code(c).map(|p| p.index())
}

/// Whether `token` starts another `go` parameter (so that `searchmoves` ends before it).
fn is_keyword(def: &GameDef, token: &str) -> bool {
    KEYWORDS.contains(&token)
        || matches!(token, "winc" | "binc" | "movestogo")
        || player_field(def, token, "time").is_some()
        || player_field(def, token, "inc").is_some()
}

/// What `go` asked for, and the warnings about what it skipped.
pub struct Go {
    pub limits: Limits,
    pub warnings: Vec<String>,
}

/// Most warnings one `go` line reports by name; the rest are counted.
const WARNINGS_SHOWN: usize = 4;

impl Go {
    /// The warnings as one error line (a `go` line gets at most one, however much it holds).
    pub fn warning_line(&self) -> Option<String> {
        let (shown, rest) = self.warnings.split_at(self.warnings.len().min(WARNINGS_SHOWN));
        let mut line = shown.join("; ");
        if !rest.is_empty() {
            line.push_str(&format!("; and {} more", rest.len()));
        }
        (!shown.is_empty()).then_some(line)
    }
}

/// Parses `go`'s arguments for `session`'s game and position.
pub fn parse(session: &dyn Session, args: &[&str]) -> Go {
    let def = session.def();
    let mut limits = Limits::default();
    let mut warnings = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i];
        i += 1;
        match a {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while i < args.len() && !is_keyword(def, args[i]) {
                    match session.parse_move(args[i]) {
                        Ok(mv) => limits.search_moves.push(mv),
                        Err(e) => warnings.push(format!("searchmoves: {e}, skipped")),
                    }
                    i += 1;
                }
            }
            _ => {
                let Some(value) = args.get(i).copied().and_then(number) else {
                    warnings.push(format!("go parameter '{a}' skipped"));
                    continue;
                };
                i += 1;
                match a {
                    "depth" => limits.depth = Some(value.clamp(1, MAX_GO_DEPTH) as u32),
                    "nodes" => limits.nodes = Some(value.max(1)),
                    "movetime" => limits.movetime = Some(value),
                    "movestogo" => limits.movestogo = (value > 0).then(|| value.min(MAX_MOVES_TO_GO) as u32),
                    "mate" => limits.depth = Some((value.min(MAX_GO_DEPTH) * 2).max(1) as u32),
                    _ => {
                        if let Some(p) = player_field(def, a, "time") {
                            limits.time[p] = Some(value);
                        } else if let Some(p) = player_field(def, a, "inc") {
                            limits.inc[p] = value;
                        } else {
                            warnings.push(format!("go parameter '{a}' skipped"));
                            i -= 1;
                        }
                    }
                }
            }
        }
    }
    Go { limits, warnings }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session;

    #[test]
    fn numbers_saturate_and_go_parameters_are_clamped() {
        assert_eq!(number("99999999999999999999"), Some(u64::MAX));
        assert_eq!(number("-5"), Some(0));
        assert_eq!(number("12"), Some(12));
        assert_eq!(number("soon"), None);
        let s = session::open("chess").expect("chess");
        let go = parse(&*s, &["depth", "99999999999999999999", "movestogo", "0", "wtime", "soon", "frobnicate", "binc", "-3"]);
        assert_eq!(go.limits.depth, Some(100));
        assert_eq!(go.limits.movestogo, None, "movestogo 0 is absent");
        assert_eq!(go.limits.time[0], None);
        assert_eq!(go.limits.inc[1], 0);
        assert_eq!(go.warnings.len(), 3, "{:?}", go.warnings);
        assert_eq!(
            go.warning_line().as_deref(),
            Some("go parameter 'wtime' skipped; go parameter 'soon' skipped; go parameter 'frobnicate' skipped")
        );
        let many: Vec<&str> = std::iter::repeat_n("x", 1000).collect();
        let go = parse(&*s, &many);
        assert_eq!(
            go.warning_line().as_deref(),
            Some("go parameter 'x' skipped; go parameter 'x' skipped; go parameter 'x' skipped; go parameter 'x' skipped; and 996 more")
        );
        assert_eq!(parse(&*s, &["depth", "2"]).warning_line(), None);
        let go = parse(&*s, &["searchmoves", "e2e4", "d2d4", "e2e5", "depth", "3"]);
        assert_eq!(go.limits.search_moves.len(), 2);
        assert_eq!((go.limits.depth, go.warnings.len()), (Some(3), 1));
    }
}
