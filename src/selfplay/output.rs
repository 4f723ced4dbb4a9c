//! Game records on disk: PGN (`--pgn`) and one JSON object per game (`--jsonl`), and reading the
//! JSON lines back (`tessera match merge`).
//!
//! PGN: two-player games on one lettered board (chess, the Cwda pairings) are standard PGN with
//! SAN moves; a start other than chess's is given by `SetUp`/`FEN` tags and any game other than
//! chess names itself in a `Variant` tag. The other games use the same tags and movetext with the
//! game's own move strings; as PGN's `Result` has no form for three or four players, it is `*`
//! there and each player's place is in a tag of its own (`[RedResult "1"]`).

use crate::fingerprint::fnv1a;
use serde::{Deserialize, Serialize};

use super::record::{Ending, GameRecord};
use super::stats::winning_team;
use super::{MatchError, open};
use crate::session::Session;
use crate::types::Player;

/// What defines a match, written in each of its JSON lines so that `tessera match merge` refuses
/// another match's games and finds missing ones: the shards of one match share all of it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct MatchIdentity {
    /// A hash of the fields below (16 hex digits), to tell matches apart at a glance.
    pub id: String,
    /// Games in the whole match.
    pub games: usize,
    /// The engines as given (`--engine`), in order.
    pub engines: Vec<String>,
    /// Every engine's clock (`--tc`), if any.
    pub clock: Option<String>,
    /// Where the games start: `random:<plies> seed <seed>`, an openings file, or `start`, with a
    /// hash of the openings themselves.
    pub openings: String,
    pub max_plies: usize,
    pub cap_by_material: bool,
    pub move_overhead: u64,
}

impl MatchIdentity {
    /// How the openings are described: where they come from (`spec`) and a hash of the list.
    pub fn openings_text(spec: &str, openings: &[super::Opening]) -> String {
        format!("{spec} (hash {:016x})", fnv1a(format!("{openings:?}").as_bytes()))
    }

    /// The identity with its `id` made from the other fields.
    pub fn identified(mut self) -> Self {
        self.id.clear();
        self.id = format!("{:016x}", fnv1a(format!("{self:?}").as_bytes()));
        self
    }

    /// The first setting in which `other` differs, as `name: this vs other`.
    pub fn difference(&self, other: &MatchIdentity) -> Option<String> {
        let fields = |m: &MatchIdentity| {
            [
                ("games", m.games.to_string()),
                ("engines", m.engines.join(" ")),
                ("clock", m.clock.clone().unwrap_or_else(|| "none".into())),
                ("openings", m.openings.clone()),
                ("max plies", m.max_plies.to_string()),
                ("cap by material", m.cap_by_material.to_string()),
                ("move overhead", m.move_overhead.to_string()),
            ]
        };
        fields(self).into_iter().zip(fields(other)).find(|(a, b)| a.1 != b.1).map(|(a, b)| format!("{}: {} vs {}", a.0, a.1, b.1))
    }
}

/// One game as a JSON line.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameLine {
    /// The match it belongs to (absent in records written before it was kept).
    #[serde(default, rename = "match", skip_serializing_if = "Option::is_none")]
    pub identity: Option<MatchIdentity>,
    /// Game id.
    pub game: String,
    /// Number of the game in the match (from 0).
    pub index: usize,
    /// The match's engines in their order (a merge checks that every line has the same).
    pub engines: Vec<String>,
    /// Players in turn order.
    pub players: Vec<String>,
    /// The engine of each player.
    pub seats: Vec<String>,
    pub opening: usize,
    /// Start position where it is not the game's start.
    pub start: Option<String>,
    pub moves: Vec<String>,
    /// How it ended: a rule's name, `ply cap`, `time forfeit`, `illegal move`, `disconnect`.
    pub end: String,
    /// The player who forfeited.
    pub loser: Option<String>,
    pub detail: Option<String>,
    /// Place of each player (1 = first; ties share a place).
    pub places: Vec<u32>,
    /// PGN's result (`1-0`, `0-1`, `1/2-1/2`; `*` with more players).
    pub result: String,
    /// In a team game, the team whose member placed first alone (`Red+Green`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winning_team: Option<String>,
    /// Milliseconds left on each clock at the end (games on clocks).
    pub clocks_ms: Vec<Option<i64>>,
}

/// The winning team's name in a team game (its players joined by `+`).
fn team_name(s: &dyn Session, r: &GameRecord) -> Option<String> {
    let team = winning_team(s.def(), r)?;
    let rule = s.def().rules.teams.as_ref()?;
    Some(rule.teams[team].iter().map(|&p| s.player_name(p)).collect::<Vec<_>>().join("+"))
}

/// PGN's result of a game.
fn result(r: &GameRecord) -> &'static str {
    match r.ranks.as_slice() {
        [a, b] if a < b => "1-0",
        [a, b] if a > b => "0-1",
        [_, _] => "1/2-1/2",
        _ => "*",
    }
}

impl GameLine {
    pub fn new(game: &str, engines: &[String], identity: Option<&MatchIdentity>, r: &GameRecord) -> Result<Self, MatchError> {
        let s = open(game)?;
        let player = |p: Player| s.player_name(p).to_string();
        Ok(GameLine {
            identity: identity.cloned(),
            game: game.to_string(),
            index: r.index,
            engines: engines.to_vec(),
            players: (0..r.seats.len()).map(|p| player(Player::new(p))).collect(),
            seats: r.seats.iter().map(|&e| engines[e].clone()).collect(),
            opening: r.opening,
            start: r.start.clone(),
            moves: r.moves.clone(),
            end: r.ending.name().to_string(),
            loser: r.ending.loser().map(player),
            detail: r.detail.clone(),
            places: r.ranks.iter().map(|r| r + 1).collect(),
            result: result(r).to_string(),
            winning_team: team_name(&*s, r),
            clocks_ms: r.clocks.clone(),
        })
    }

    /// The record this line was written from.
    pub fn record(&self) -> Result<GameRecord, MatchError> {
        let bad = |what: &str| MatchError(format!("game {}: {what}", self.index));
        let seats = self
            .seats
            .iter()
            .map(|name| {
                self.engines.iter().position(|e| e == name).ok_or_else(|| bad(&format!("engine '{name}' is not in its engine list")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let loser = match &self.loser {
            Some(name) => {
                Some(Player::new(self.players.iter().position(|p| p == name).ok_or_else(|| bad(&format!("no player '{name}'")))?))
            }
            None => None,
        };
        let ending = Ending::from_name(&self.end, loser).ok_or_else(|| bad(&format!("unknown end '{}'", self.end)))?;
        if self.places.len() != seats.len() || self.places.contains(&0) {
            return Err(bad("places do not match the players"));
        }
        Ok(GameRecord {
            index: self.index,
            seats,
            opening: self.opening,
            start: self.start.clone(),
            moves: self.moves.clone(),
            ending,
            detail: self.detail.clone(),
            ranks: self.places.iter().map(|p| p - 1).collect(),
            clocks: self.clocks_ms.clone(),
            samples: Vec::new(),
        })
    }
}

/// The JSON line of a game of the match `identity`.
pub fn json_line(game: &str, engines: &[String], identity: Option<&MatchIdentity>, r: &GameRecord) -> Result<String, MatchError> {
    serde_json::to_string(&GameLine::new(game, engines, identity, r)?).map_err(|e| MatchError(e.to_string()))
}

/// Reads the JSON lines of one or more files of the same match: the game id, the engines and
/// the records in game order. A game found twice (the same shard read twice), or a game of
/// another match (another game, other engines, or any other setting of [`MatchIdentity`]), is an
/// error that names the difference.
pub fn read_json_lines(texts: &[(String, String)]) -> Result<(String, Vec<String>, Vec<GameRecord>), MatchError> {
    let mut first: Option<(String, Vec<String>, Option<MatchIdentity>, String)> = None;
    let mut records: Vec<GameRecord> = Vec::new();
    for (file, text) in texts {
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = || format!("{file}:{}", n + 1);
            let g: GameLine = serde_json::from_str(line).map_err(|e| format!("{}: {e}", at()))?;
            match &first {
                None => first = Some((g.game.clone(), g.engines.clone(), g.identity.clone(), at())),
                Some((game, engines, _, _)) if *game != g.game || *engines != g.engines => {
                    return Err(format!("{}: a game of another match ({} with {})", at(), g.game, g.engines.join(" ")).into());
                }
                Some((_, _, identity, where_first)) if *identity != g.identity => {
                    let difference = match (identity, &g.identity) {
                        (Some(a), Some(b)) => a.difference(b).unwrap_or_else(|| format!("match {} vs {}", a.id, b.id)),
                        _ => "one written without its match's settings".to_string(),
                    };
                    return Err(format!("{}: a game of another match than {where_first}'s ({difference})", at()).into());
                }
                Some(_) => {}
            }
            let r = g.record().map_err(|e| format!("{}: {e}", at()))?;
            if records.iter().any(|x| x.index == r.index) {
                return Err(format!("{}: game {} is already in the input (separate runs of a match: `--runs`)", at(), r.index + 1).into());
            }
            records.push(r);
        }
    }
    let (game, engines, _, _) = first.ok_or("no games in the input")?;
    records.sort_by_key(|r| r.index);
    Ok((game, engines, records))
}

/// The match the first of these JSON lines belongs to, where it says (every line of one
/// [`read_json_lines`] is of the same match).
pub fn match_identity(texts: &[(String, String)]) -> Option<MatchIdentity> {
    let line = texts.iter().flat_map(|(_, text)| text.lines()).find(|l| !l.trim().is_empty())?;
    serde_json::from_str::<GameLine>(line).ok()?.identity
}

/// The games of `0..total` that `records` lack, as ranges of game numbers from 1 (`17-24, 41`).
pub fn missing_games(records: &[GameRecord], total: usize) -> (usize, String) {
    let have: std::collections::HashSet<usize> = records.iter().map(|r| r.index).collect();
    let missing: Vec<usize> = (0..total).filter(|i| !have.contains(i)).collect();
    let mut ranges: Vec<String> = Vec::new();
    let mut i = 0;
    while i < missing.len() {
        let mut j = i;
        while j + 1 < missing.len() && missing[j + 1] == missing[j] + 1 {
            j += 1;
        }
        ranges.push(if i == j { format!("{}", missing[i] + 1) } else { format!("{}-{}", missing[i] + 1, missing[j] + 1) });
        i = j + 1;
    }
    (missing.len(), ranges.join(", "))
}

/// Joins separate runs of one match (an SPRT continued with another seed: every run numbers its
/// games from the first), each as [`read_json_lines`] read it: a run's games are numbered on after
/// the previous runs', from a multiple of `block_len`, so that no block of games mixes two runs.
pub fn join_runs(
    runs: Vec<(String, Vec<String>, Vec<GameRecord>)>,
    block_len: usize,
) -> Result<(String, Vec<String>, Vec<GameRecord>), MatchError> {
    let mut runs = runs.into_iter();
    let (game, engines, mut all) = runs.next().ok_or("no games in the input")?;
    for (other_game, other_engines, records) in runs {
        if other_game != game || other_engines != engines {
            return Err(format!("a run of another match ({other_game} with {})", other_engines.join(" ")).into());
        }
        let next = all.iter().map(|r| r.index + 1).max().unwrap_or(0).next_multiple_of(block_len.max(1));
        all.extend(records.into_iter().map(|r| GameRecord { index: r.index + next, ..r }));
    }
    Ok((game, engines, all))
}

/// Today's date as PGN writes it (`2026.11.23`), from the system clock (UTC).
fn pgn_date() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    // Days to a civil date (Howard Hinnant's algorithm).
    let z = i64::try_from(secs / 86_400).unwrap_or(0) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

fn tag(name: &str, value: &str) -> String {
    format!("[{name} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The PGN of one game. `time_control` is the tag's value where the games were on clocks.
pub fn pgn(game: &str, engines: &[String], r: &GameRecord, time_control: Option<&str>) -> Result<String, MatchError> {
    let mut s = open(game)?;
    s.set_position(r.start.as_deref(), &[]).map_err(|e| MatchError(e.0))?;
    let standard_start = r.start.is_none() || open(game)?.position_string() == s.position_string();
    let players = r.seats.len();
    let mut out = String::new();
    out.push_str(&tag("Event", &format!("tessera match: {}", engines.join(" vs "))));
    out.push_str(&tag("Site", "?"));
    out.push_str(&tag("Date", &pgn_date()));
    out.push_str(&tag("Round", &(r.index + 1).to_string()));
    let names: Vec<String> = (0..players).map(|p| s.player_name(Player::new(p)).to_string()).collect();
    for (p, name) in names.iter().enumerate() {
        out.push_str(&tag(name, &engines[r.seats[p]]));
    }
    out.push_str(&tag("Result", result(r)));
    if players > 2 {
        for (p, name) in names.iter().enumerate() {
            out.push_str(&tag(&format!("{name}Result"), &(r.ranks[p] + 1).to_string()));
        }
    }
    if let Some(team) = team_name(&*s, r) {
        out.push_str(&tag("WinningTeam", &team));
    }
    if game != "chess" {
        out.push_str(&tag("Variant", game));
    }
    if game != "chess" || !standard_start {
        out.push_str(&tag("SetUp", "1"));
        out.push_str(&tag("FEN", &s.position_string()));
    }
    if let Some(tc) = time_control {
        out.push_str(&tag("TimeControl", tc));
    }
    out.push_str(&tag("Termination", r.ending.termination()));
    out.push_str(&tag("PlyCount", &r.moves.len().to_string()));
    out.push('\n');
    let mut tokens = Vec::with_capacity(r.moves.len() * 3 / 2 + 2);
    let first_ply = s.game_ply() as usize;
    for (i, text) in r.moves.iter().enumerate() {
        let ply = first_ply + i;
        if ply.is_multiple_of(players) {
            tokens.push(format!("{}.", ply / players + 1));
        } else if i == 0 {
            tokens.push(format!("{}...", ply / players + 1));
        }
        let mv = s.parse_move(text).map_err(|e| format!("game {}: move {}: {e}", r.index + 1, i + 1))?;
        tokens.push(s.move_san(mv));
        s.play(mv).map_err(|e| MatchError(e.0))?;
    }
    let comment = match (r.ending.loser(), &r.detail) {
        (Some(_), Some(detail)) => Some(format!("{{{}: {}}}", r.ending.name(), detail.replace(['{', '}'], ""))),
        _ => None,
    };
    tokens.extend(comment);
    tokens.push(result(r).to_string());
    // Export format: lines of at most 79 characters.
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::EndReason;

    fn engines() -> Vec<String> {
        vec!["a".to_string(), "b".to_string()]
    }

    #[test]
    fn pgn_of_a_chess_game() {
        let mut r = super::super::record::tests::record(&[1, 0], &[1, 0]);
        r.moves = ["f2f3", "e7e5", "g2g4", "d8h4"].map(String::from).to_vec();
        r.ending = Ending::Rules(EndReason::Checkmate);
        let text = pgn("chess", &engines(), &r, Some("10+0.1")).expect("pgn");
        assert!(text.contains("[White \"b\"]\n[Black \"a\"]\n[Result \"0-1\"]\n"), "{text}");
        assert!(text.contains("[TimeControl \"10+0.1\"]") && !text.contains("[FEN"), "{text}");
        assert!(text.ends_with("\n1. f3 e5 2. g4 Qh4# 0-1\n\n"), "{text}");
        // From a position with Black to move, and a time forfeit.
        r.start = Some("4k3/8/8/8/8/8/8/4K2R b K - 0 30".into());
        r.moves = vec!["e8d7".into()];
        r.ranks = vec![0, 1];
        r.ending = Ending::TimeForfeit(Player::new(1));
        r.detail = Some("a lost on time".into());
        let text = pgn("chess", &engines(), &r, None).expect("pgn");
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 30\"]"), "{text}");
        assert!(text.ends_with("\n30... Kd7 {time forfeit: a lost on time} 1-0\n\n"), "{text}");
    }

    #[test]
    fn records_of_three_players_and_json_round_trip() {
        let mut r = super::super::record::tests::record(&[0, 1, 1], &[2, 0, 1]);
        let s = open("honeycomb3").expect("game");
        r.moves = s.legal_move_texts().into_iter().take(1).collect();
        r.ending = Ending::IllegalMove(Player::new(0));
        r.detail = Some("a played 'z9z9'".into());
        r.clocks = vec![Some(5), Some(900), None];
        let text = pgn("honeycomb3", &engines(), &r, None).expect("pgn");
        assert!(text.contains("[Red \"a\"]\n[Yellow \"b\"]\n[Blue \"b\"]\n[Result \"*\"]\n[RedResult \"3\"]"), "{text}");
        assert!(text.contains("[Variant \"honeycomb3\"]") && text.contains(&format!("1. {} {{illegal move", r.moves[0])), "{text}");
        let line = json_line("honeycomb3", &engines(), None, &r).expect("json");
        let back: GameLine = serde_json::from_str(&line).expect("parses");
        assert_eq!((back.places.clone(), back.loser.as_deref(), back.result.as_str()), (vec![3, 1, 2], Some("Red"), "*"));
        let again = back.record().expect("record");
        assert_eq!((again.seats, again.ranks, again.ending, again.clocks), (r.seats.clone(), r.ranks.clone(), r.ending, r.clocks.clone()));
        let files = [("x".to_string(), format!("{line}\n")), ("y".to_string(), line.clone())];
        assert!(read_json_lines(&files).is_err(), "the same game twice");
        assert!(read_json_lines(&files[..1]).is_ok_and(|(g, e, rs)| g == "honeycomb3" && e == engines() && rs.len() == 1));
        // As separate runs the same game is a game of each, numbered on after the first run's
        // block of 6 (the seatings of three players).
        let runs = files.iter().map(|f| read_json_lines(std::slice::from_ref(f))).collect::<Result<Vec<_>, _>>().expect("runs");
        let (_, _, joined) = join_runs(runs.clone(), 6).expect("joined");
        assert_eq!(joined.iter().map(|r| r.index).collect::<Vec<_>>(), [r.index, 6 + r.index]);
        let mut other = runs;
        other[1].0 = "aof3".into();
        assert!(join_runs(other, 6).is_err(), "a run of another game");
    }

    #[test]
    fn a_merge_names_another_match_and_the_missing_games() {
        let identity = |seed: u64, games: usize| {
            MatchIdentity {
                id: String::new(),
                games,
                engines: engines(),
                clock: Some("10+0.1".into()),
                openings: MatchIdentity::openings_text(&format!("random:4 seed {seed}"), &[]),
                max_plies: 3000,
                cap_by_material: false,
                move_overhead: 50,
            }
            .identified()
        };
        let (a, b) = (identity(77, 12), identity(78, 12));
        assert_ne!(a.id, b.id);
        assert_eq!(a, identity(77, 12));
        assert_eq!(a.difference(&b).as_deref().map(|d| d.starts_with("openings: random:4 seed 77")), Some(true));
        assert_eq!(a.difference(&identity(77, 24)).as_deref(), Some("games: 12 vs 24"));
        let line = |identity: &MatchIdentity, index: usize| {
            let mut r = super::super::record::tests::record(&[0, 1, 1], &[2, 0, 1]);
            r.index = index;
            json_line("honeycomb3", &engines(), Some(identity), &r).expect("json")
        };
        let shard = |lines: Vec<String>, name: &str| (name.to_string(), lines.join("\n"));
        let mixed = [shard(vec![line(&a, 0), line(&a, 1)], "one"), shard(vec![line(&b, 2)], "two")];
        let err = read_json_lines(&mixed).expect_err("another match").0;
        assert!(err.starts_with("two:1: a game of another match than one:1's (openings: random:4 seed 77"), "{err}");
        let ours = [shard(vec![line(&a, 0), line(&a, 1)], "one"), shard(vec![line(&a, 5)], "two")];
        let (_, _, records) = read_json_lines(&ours).expect("one match");
        assert_eq!(match_identity(&ours), Some(a));
        assert_eq!(missing_games(&records, 12), (9, "3-5, 7-12".to_string()));
        assert_eq!(missing_games(&records[..2], 2), (0, String::new()));
    }
}
