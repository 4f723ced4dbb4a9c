#!/usr/bin/env bash
# The default search against 1-ply players in every other seat: how often it places first.
# One engine at MOVETIME ms a move takes one seat, the others search depth 1 (with their
# capture search); seats rotated over random openings. The 4-player games take 400 to 900 plies
# to win outright (two or three checkmates, the fifty-move count is 50 x the players left), so
# the cap is 1000 plies.
#
#   tuning/vs_one_ply.sh GAME [GAMES] [MOVETIME_MS]
#   e.g. tuning/vs_one_ply.sh aof3 48 100
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?game}
movetime=${3:-100}
cargo build --release --quiet
players=$(printf 'setoption name UCI_Variant value %s\nquit\n' "$game" \
    | target/release/tessera | sed -n 's/.* players \([^ ]*\) .*/\1/p' | tr ',' '\n' | wc -l)
args=(--engine "name=default,movetime=$movetime")
for i in $(seq 2 "$players"); do args+=(--engine "name=1-ply-$i,depth=1"); done
mkdir -p tuning/runs
# shellcheck disable=SC2086
target/release/tessera match --game "$game" "${args[@]}" --games "${2:-48}" --openings random:4 --seed 5 --max-plies 1000 \
    --jsonl "tuning/runs/vs-one-ply-$game-$(date +%Y%m%d-%H%M%S).jsonl" ${MATCH_ARGS:-}
