#!/usr/bin/env bash
# Writes the Kubernetes objects of a sharded match to stdout: a volume that every pod writes
# (ReadWriteMany: the pods may run on different nodes) and an Indexed Job whose pod i runs
# tuning/cluster/match-shard.sh as shard i+1 of SHARDS. With `--merge`, writes instead the Job that
# merges the shards on that volume. The shard count is given once, as SHARDS; the match's settings
# are match-shard.sh's (GAME, ENGINE1, ENGINE2, GAMES, OPENINGS, SEED, MAX_PLIES, TC): those set
# here are passed on, the others keep that script's defaults. The commands are in tuning/README.md:
#
#   SHARDS=16 IMAGE=registry.example/tessera:1 tuning/cluster/match-job.sh | kubectl apply -f -
#   kubectl wait --for=condition=complete --timeout=12h job/tessera-match
#   SHARDS=16 IMAGE=registry.example/tessera:1 tuning/cluster/match-job.sh --merge | kubectl apply -f -
#   kubectl wait --for=condition=complete --timeout=10m job/tessera-merge && kubectl logs job/tessera-merge
#
# IMAGE is built by tuning/cluster/Dockerfile. CPUS (default 2) is each pod's request and the
# shard's concurrency; RETRIES (default 2) is how often one shard's pod is retried.
set -euo pipefail
shards=${SHARDS:?set SHARDS, the number of shards of the whole match}
image=${IMAGE:?set IMAGE, the image built by tuning/cluster/Dockerfile}
cpus=${CPUS:-2}
retries=${RETRIES:-2}
case "$shards$cpus$retries" in
*[!0-9]*) echo "error: SHARDS, CPUS and RETRIES are whole numbers" >&2 && exit 2 ;;
esac

# A value as a YAML string (JSON's quoting, which YAML reads).
quoted() {
    local s=${1//\\/\\\\}
    printf '"%s"' "${s//\"/\\\"}"
}

# The container's environment entries: the shard's place in the match and the match's settings.
env_entries() {
    printf '            - { name: SHARDS, value: "%s" }\n' "$shards"
    printf '            - { name: RUNS, value: "/runs" }\n'
    printf '            - { name: TESSERA, value: "/usr/local/bin/tessera" }\n'
    printf '            - { name: CONCURRENCY, value: "%s" }\n' "$cpus"
    local name
    for name in GAME ENGINE1 ENGINE2 GAMES OPENINGS SEED MAX_PLIES TC; do
        if [ -n "${!name:-}" ]; then
            printf '            - { name: %s, value: %s }\n' "$name" "$(quoted "${!name}")"
        fi
    done
}

volume='      volumes:
        - name: runs
          persistentVolumeClaim: { claimName: tessera-runs }'

if [ "${1:-}" = "--merge" ]; then
    cat <<EOF
apiVersion: batch/v1
kind: Job
metadata:
  name: tessera-merge
spec:
  backoffLimit: 0  # an incomplete match fails the merge: rerunning it would not mend it
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: merge
          image: $image
          command: ["/bin/sh", "-c", "exec tessera match merge /runs/shard-*-of-$shards.jsonl"]
          volumeMounts:
            - { name: runs, mountPath: /runs }
$volume
EOF
    exit 0
fi

cat <<EOF
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: tessera-runs
spec:
  accessModes: [ReadWriteMany]
  resources:
    requests: { storage: 1Gi }
---
apiVersion: batch/v1
kind: Job
metadata:
  name: tessera-match
spec:
  completionMode: Indexed
  completions: $shards
  parallelism: $shards
  # Retries counted per shard (Kubernetes 1.29 and later): one failing shard cannot use up the
  # retries of the others. A retried pod deletes its shard's file first, so no game counts twice.
  backoffLimitPerIndex: $retries
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: match
          image: $image
          command: ["bash", "/opt/tessera/match-shard.sh"]
          resources:
            requests: { cpu: "$cpus", memory: 1Gi }
          env:
$(env_entries)
          volumeMounts:
            - { name: runs, mountPath: /runs }
$volume
EOF
