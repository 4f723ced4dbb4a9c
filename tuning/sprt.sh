#!/usr/bin/env bash
# An SPRT of the working tree's engine against a base commit's, as fishtest runs one: both built
# in release mode, played as outside engines (one process per seat) on real clocks, one game at a
# time, seats rotated over random openings, stopping at the test's decision.
#
#   tuning/sprt.sh BASE_COMMIT [GAME] [TC] [ELO0,ELO1] [MAX_GAMES]
#   e.g. tuning/sprt.sh main chess 10+0.1 0,5 20000
#
# Extra arguments for `tessera match` go in MATCH_ARGS (e.g. MATCH_ARGS="--concurrency 2"); an
# opening file in OPENINGS (e.g. OPENINGS=tuning/openings/chess8.txt; default random:8).
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?base commit}
game=${2:-chess}
tc=${3:-10+0.1}
elos=${4:-0,5}
games=${5:-20000}
cargo build --release --quiet
work=$(mktemp -d)
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --detach "$work/base" "$base" >/dev/null
(cd "$work/base" && CARGO_TARGET_DIR="$work/target" cargo build --release --quiet)
mkdir -p tuning/runs
stamp="$game-$(date +%Y%m%d-%H%M%S)"
# shellcheck disable=SC2086
target/release/tessera match --game "$game" \
    --engine "name=new,cmd=$PWD/target/release/tessera" \
    --engine "name=base,cmd=$work/target/release/tessera" \
    --games "$games" --tc "$tc" --openings "${OPENINGS:-random:8}" --seed "$RANDOM" \
    --sprt "elo0=${elos%,*},elo1=${elos#*,},alpha=0.05,beta=0.05" \
    --pgn "tuning/runs/sprt-$stamp.pgn" --jsonl "tuning/runs/sprt-$stamp.jsonl" ${MATCH_ARGS:-}
