#!/usr/bin/env bash
# Installs what the whole-engine tests drive tessera with: python-chess (a real UCI client and
# PGN reader), PyYAML (reads back the Kubernetes objects of tuning/cluster/), Playwright for Python
# and Debian's Chromium (the browser test of `tessera serve`; Playwright drives the system
# browser, nothing is downloaded for it), Stockfish (the outside engine of the match runner's
# tests) and Slurm with munge (tests/cluster.rs starts a single-node cluster of its own; the
# packages' services are not used).
set -euo pipefail
python3 -m pip install --quiet --disable-pip-version-check chess playwright pyyaml
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/games/stockfish ] || missing+=(stockfish)
[ -x /usr/sbin/slurmctld ] || missing+=(slurmctld)
[ -x /usr/sbin/slurmd ] || missing+=(slurmd)
[ -x /usr/bin/sbatch ] || missing+=(slurm-client)
[ -x /usr/sbin/munged ] || missing+=(munge)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 ||
        { $sudo apt-get update -qq && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null; }
fi
