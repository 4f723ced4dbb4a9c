//! The command line: `tessera` with no subcommand speaks the protocol; the subcommands and their
//! settings, as clap reads them.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use tessera::selfplay::MatchRequest;
use tessera::{games, protocol};

/// Parameters `tune` leaves alone unless named: derived values (given in chess-like games) and the
/// mop-up terms, which quiet positions of played games barely show.
pub const UNTUNED: [&str; 10] = [
    "value_per_move",
    "value_base",
    "pawn_value",
    "mopup_edge",
    "mopup_close",
    "mopup_box",
    "mopup_level_box",
    "mopup_cover",
    "mopup_men",
    "elimination",
];

#[derive(Parser)]
#[command(name = "tessera", version, about = "An engine for multi-player and three-dimensional chess variants")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Counts the move sequences of a given depth (split by first move).
    Perft {
        #[arg(value_parser = clap::value_parser!(u32).range(0..=i64::from(protocol::MAX_PERFT_DEPTH)))]
        depth: u32,
        /// Game id (see `uci`'s UCI_Variant option).
        #[arg(long, default_value = games::DEFAULT_GAME)]
        game: String,
        /// Position string; the game's start position if omitted.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play from the position first.
        #[arg(long, num_args = 1.., value_delimiter = ' ')]
        moves: Vec<String>,
    },
    /// Perft and fixed-depth searches over a fixed set of positions: nodes and nodes per second.
    Bench {
        /// Only this game's positions.
        #[arg(long)]
        game: Option<String>,
    },
    /// A match: configurations of this engine and outside UCI engines play each other, seats
    /// rotated, on clocks or with limits per move; prints results per engine and the Elo
    /// difference. `match merge FILE...` adds up the JSON lines of a match's shards.
    #[command(subcommand_negates_reqs = true, args_conflicts_with_subcommands = true)]
    Match {
        #[command(subcommand)]
        merge: Option<MatchCommand>,
        #[command(flatten)]
        args: Box<MatchRequest>,
    },
    /// Lists the evaluation parameters: name, default (or the game's own value), minimum, maximum
    /// (for `tuning/`).
    EvalParams {
        /// The values of this game.
        #[arg(long)]
        game: Option<String>,
    },
    /// Fits evaluation parameters to the results of recorded games, or to labels of positions
    /// (Texel's method): prints the fitted values as `name=value,...`, with the error before and
    /// after.
    Tune {
        #[arg(long, default_value = "chess")]
        game: String,
        /// JSON-lines files of `tessera match` games of the game (several runs are pooled).
        #[arg(long = "data", num_args = 1.., required_unless_present = "labels")]
        data: Vec<String>,
        /// Files of labelled positions, a line each: the expected score of the player to move
        /// (0 to 1), a space, the position string (`tuning/label_stockfish.py` writes them).
        #[arg(long = "labels", num_args = 1..)]
        labels: Vec<String>,
        /// Parameters to fit, comma-separated (default: all but the mop-up and derived values).
        #[arg(long)]
        params: Option<String>,
        /// Values to start from, `name=value,...` over the game's own (an earlier fit's, to go
        /// on from it).
        #[arg(long, default_value = "")]
        start: String,
        /// Leave out the positions of each game's first plies.
        #[arg(long, default_value_t = 8)]
        skip_plies: usize,
        /// At most this many positions, drawn at random.
        #[arg(long, default_value_t = 500_000)]
        positions: usize,
        /// Halvings of the steps before the fit stops.
        #[arg(long, default_value_t = 3)]
        rounds: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Converts a network's text, as `tuning/network.py` writes it, into the binary form a game's
    /// profile compiles in (`src/eval/network_file.rs`), which names the game and its definition.
    Network {
        #[arg(long)]
        game: String,
        /// The trainer's text.
        text: PathBuf,
        /// The binary file to write.
        out: PathBuf,
    },
    /// The training data of `match --positions` as the network trainer reads it
    /// (`tuning/multi_network.py`): per position the scores, ranks, players still in, each
    /// player's evaluation with the network off and each viewer's inputs.
    Features {
        #[arg(long)]
        game: String,
        /// A `--positions` file.
        positions: PathBuf,
    },
    /// The board in the browser: serves a page on 127.0.0.1 that plays and analyses every game
    /// with this engine. The first line printed is the page's address with its access token.
    Serve {
        /// Port to listen on (0: any free port).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Open the address in the default browser.
        #[arg(long)]
        open: bool,
        /// Pages open at once; each page's engine gets an even share of the cores and memory.
        #[arg(long, default_value_t = tessera::serve::DEFAULT_PAGES, value_parser = clap::value_parser!(u16).range(1..=64))]
        pages: u16,
    },
}

#[derive(Subcommand)]
pub enum MatchCommand {
    /// Reads the JSON lines (`--jsonl`) of the shards of one match and prints the totals as the
    /// whole match would.
    Merge {
        /// The JSON lines files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Also print where this SPRT stands: `elo0=<e0>,elo1=<e1>,alpha=<a>,beta=<b>`.
        #[arg(long)]
        sprt: Option<String>,
        /// The files are separate runs of the match (an SPRT continued with another seed), each
        /// numbering its games from 1, instead of shards of one run.
        #[arg(long)]
        runs: bool,
        /// Merge the shards there are even when games of the match are missing (saying how many).
        #[arg(long)]
        allow_partial: bool,
    },
}
