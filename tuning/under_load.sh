#!/usr/bin/env bash
# The clock on a shared machine: a match played while one busy loop per core keeps every core
# busy (started here, and stopped however the script ends), so that a search must keep its
# time with a fraction of a core. Prints the match's summary; the time forfeits are its
# `time forfeit` endings.
#
#   tuning/under_load.sh GAME GAMES TC [SEED]
#   e.g. tuning/under_load.sh aof3 10 5+0.05
# Extra arguments for `tessera match` go in MATCH_ARGS.
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?game}
games=${2:?games}
tc=${3:?clock, e.g. 5+0.05}
seed=${4:-61}
cargo build --release --quiet
mkdir -p tuning/runs
loops=()
stop_loops() {
    for pid in "${loops[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap stop_loops EXIT
for _ in $(seq "$(nproc)"); do
    (while :; do :; done) &
    loops+=($!)
done
players=$(printf 'setoption name UCI_Variant value %s\nquit\n' "$game" \
    | target/release/tessera | sed -n 's/.* players \([^ ]*\) .*/\1/p' | tr ',' '\n' | wc -l)
args=()
for i in $(seq "$players"); do args+=(--engine "name=e$i"); done
# shellcheck disable=SC2086
target/release/tessera match --game "$game" "${args[@]}" --games "$games" --tc "$tc" --concurrency 1 \
    --openings random:4 --seed "$seed" --max-plies 3000 \
    --jsonl "tuning/runs/under-load-$game-$(date +%Y%m%d-%H%M%S).jsonl" ${MATCH_ARGS:-}
