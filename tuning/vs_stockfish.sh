#!/usr/bin/env bash
# Calibrates tessera against Stockfish in chess: both limited by UCI_LimitStrength/UCI_Elo (or
# tessera at full strength with ELO_TESSERA=full), one game at a time, 1 thread each, real clocks.
#
#   tuning/vs_stockfish.sh ELO [GAMES] [TC]        e.g. tuning/vs_stockfish.sh 2000 200 10+0.1
#
# Openings: tuning/openings/chess8.txt (300 balanced 8-ply lines, in order; OPENINGS=file for
# others). Writes tuning/runs/vs-stockfish-<elo>.{pgn,jsonl}; stops early with SPRT=elo0=..,elo1=.. set.
set -euo pipefail
cd "$(dirname "$0")/.."
elo=${1:?Stockfish UCI_Elo}
games=${2:-200}
tc=${3:-10+0.1}
cargo build --release --quiet
mkdir -p tuning/runs
tessera="name=tessera,cmd=$PWD/target/release/tessera,hash=64"
if [ "${ELO_TESSERA:-full}" != full ]; then
    tessera="$tessera,option.UCI_LimitStrength=true,option.UCI_Elo=$ELO_TESSERA"
fi
args=(--engine "$tessera"
      --engine "name=sf$elo,cmd=${STOCKFISH:-/usr/games/stockfish},hash=64,option.UCI_LimitStrength=true,option.UCI_Elo=$elo"
      --games "$games" --tc "$tc" --concurrency 1 --openings "${OPENINGS:-tuning/openings/chess8.txt}"
      --pgn "tuning/runs/vs-stockfish-$elo.pgn" --jsonl "tuning/runs/vs-stockfish-$elo.jsonl")
[ -n "${SPRT:-}" ] && args+=(--sprt "$SPRT")
exec target/release/tessera match "${args[@]}"
