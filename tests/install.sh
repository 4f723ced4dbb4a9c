#!/usr/bin/env bash
# Installs what the whole-engine tests drive tessera with: python-chess (a real UCI client and
# PGN reader), Playwright for Python and Debian's Chromium (the browser test of `tessera serve`;
# Playwright drives the system browser, nothing is downloaded for it) and Stockfish (the outside
# engine of the match runner's tests).
set -euo pipefail
python3 -m pip install --quiet --disable-pip-version-check chess playwright
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/games/stockfish ] || missing+=(stockfish)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 ||
        { $sudo apt-get update -qq && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null; }
fi
