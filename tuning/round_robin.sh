#!/usr/bin/env bash
# The round robin that picks `MultiplayerSearch auto` per game: paranoid, max-n, best-reply and
# BRS+ at equal time per move, seats rotated over random openings. With four players all four
# searches sit at every board (24 seatings a block); with three, every triple of them plays
# (6 seatings a block). The winner per game goes into the game's definition (`multi_search`).
# With four players games still going at MAX_PLIES (default 240) are placed by material: at
# these clocks they nearly never end by the rules.
#
#   tuning/round_robin.sh GAME [GAMES] [MOVETIME_MS] [MAX_PLIES]
#   e.g. tuning/round_robin.sh guru2 120 100
#
# GAMES is per triple with three players (four triples), per match with four.
# Extra arguments for `tessera match` go in MATCH_ARGS (e.g. MATCH_ARGS="--concurrency 1").
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?game}
movetime=${3:-100}
max_plies=${4:-}
cargo build --release --quiet
mkdir -p tuning/runs
stamp="$game-$(date +%Y%m%d-%H%M%S)"
play() {
    local tag=$1 games=$2
    shift 2
    local args=()
    for s in "$@"; do args+=(--engine "name=$s,search=$s,movetime=$movetime"); done
    # shellcheck disable=SC2086
    target/release/tessera match --game "$game" "${args[@]}" --games "$games" --openings random:4 \
        --seed 7 --jsonl "tuning/runs/rr-$stamp-$tag.jsonl" --quiet ${MATCH_ARGS:-}
}
players=$(printf 'setoption name UCI_Variant value %s\nquit\n' "$game" \
    | target/release/tessera | sed -n 's/.* players \([^ ]*\) .*/\1/p' | tr ',' '\n' | wc -l)
if [ "$players" -ge 4 ]; then
    MATCH_ARGS="--max-plies ${max_plies:-240} --cap-by-material ${MATCH_ARGS:-}" play all "${2:-120}" paranoid maxn brs brs+
else
    for triple in "maxn brs brs+" "paranoid brs brs+" "paranoid maxn brs+" "paranoid maxn brs"; do
        # shellcheck disable=SC2086
        MATCH_ARGS="--max-plies ${max_plies:-400} ${MATCH_ARGS:-}" play "${triple// /-}" "${2:-30}" $triple
    done
fi
