#!/usr/bin/env bash
# One shard of a sharded match, for either scheduler: as a Slurm array task (shard K is
# SLURM_ARRAY_TASK_ID) or as a pod of a Kubernetes Indexed Job (shard K is JOB_COMPLETION_INDEX
# + 1; tuning/cluster/match-job.sh writes the Job). Shard K writes its JSON lines to
# $RUNS/shard-K-of-$SHARDS.jsonl; merge them when every shard has ended. The commands, which
# tests/cluster.rs follows command for command, are in tuning/README.md; on Slurm, from the
# repository's root after `cargo build --release`:
#
#   job=$(SHARDS=16 sbatch --parsable --array=1-16 tuning/cluster/match-shard.sh)
#   # the merge, once every task has ended; it fails, naming them, if games are missing:
#   sbatch --dependency=afterany:$job --output=merge-%j.out \
#       --wrap 'target/release/tessera match merge tuning/runs/shard-*-of-16.jsonl'
#   # a failed task: its shard again alone (its old lines are deleted first), then merge again
#   SHARDS=16 sbatch --parsable --array=3 tuning/cluster/match-shard.sh
#
# The match's settings come from the environment (sbatch passes it on), with these defaults;
# every shard of one match must see the same ones.
#
#SBATCH --job-name=tessera-match
#SBATCH --cpus-per-task=2
#SBATCH --time=04:00:00
# Slurm opens the log before the script runs: it goes to the submitting directory, which exists.
#SBATCH --output=slurm-%x-%A_%a.out
set -euo pipefail
if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
    k=$SLURM_ARRAY_TASK_ID
elif [ -n "${JOB_COMPLETION_INDEX:-}" ]; then
    k=$((JOB_COMPLETION_INDEX + 1))
else
    echo "error: run as a Slurm array task or a Kubernetes Indexed Job (no shard index)" >&2
    exit 2
fi
# The shard count is the match's, not the array's: an array of one task reruns one shard.
shards=${SHARDS:?set SHARDS, the number of shards of the whole match}
game=${GAME:-honeycomb3}
engine1=${ENGINE1:-name=brs+,search=brs+,movetime=100}
engine2=${ENGINE2:-name=paranoid,search=paranoid,movetime=100}
games=${GAMES:-1200}
openings=${OPENINGS:-random:6}
seed=${SEED:-20261123}
max_plies=${MAX_PLIES:-3000}
runs=${RUNS:-tuning/runs}
tessera=${TESSERA:-target/release/tessera}
concurrency=${CONCURRENCY:-${SLURM_CPUS_PER_TASK:-1}}
clock=()
[ -n "${TC:-}" ] && clock=(--tc "$TC")
mkdir -p "$runs"
out="$runs/shard-$k-of-$shards.jsonl"
# A requeued task or a retried pod starts its shard again: its old lines would count twice.
rm -f "$out"
"$tessera" match --game "$game" --engine "$engine1" --engine "$engine2" \
    --games "$games" --openings "$openings" --seed "$seed" --max-plies "$max_plies" "${clock[@]}" \
    --concurrency "$concurrency" --shard "$k/$shards" --jsonl "$out" --quiet
