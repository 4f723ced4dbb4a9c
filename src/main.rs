//! The `tessera` executable: with no subcommand it speaks the protocol on stdin/stdout.

use clap::{Parser, Subcommand};

use tessera::{bench, protocol, session};

#[derive(Parser)]
#[command(name = "tessera", version, about = "An engine for multi-player and three-dimensional chess variants")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the move sequences of a given depth (split by first move).
    Perft {
        depth: u32,
        /// Game id (see `uci`'s UCI_Variant option).
        #[arg(long, default_value = protocol::DEFAULT_GAME)]
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
}

fn main() {
    let cli = Cli::parse();
    match cli.command {
        None => protocol::run_stdio(),
        Some(Command::Perft { depth, game, fen, moves }) => {
            let Some(mut s) = session::open(&game) else {
                eprintln!("error: unknown game '{game}'");
                std::process::exit(2);
            };
            let moves: Vec<&str> = moves.iter().map(String::as_str).filter(|m| !m.is_empty()).collect();
            if let Err(e) = s.set_position(fen.as_deref(), &moves) {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
            let t = std::time::Instant::now();
            let mut total = 0;
            for (mv, n) in s.divide(depth) {
                println!("{mv}: {n}");
                total += n;
            }
            let ms = t.elapsed().as_millis();
            println!("\nNodes searched: {total}");
            println!("Time: {ms} ms ({} nodes/s)", (total as u128 * 1000 / ms.max(1)) as u64);
        }
        Some(Command::Bench { game }) => {
            let lines = bench::run(game.as_deref(), |l| println!("{}", bench::format_line(l)));
            for s in bench::summary(&lines) {
                println!("{s}");
            }
        }
    }
}
