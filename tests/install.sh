#!/usr/bin/env bash
# Installs what the whole-engine tests drive tessera with: python-chess (a real UCI client),
# Playwright for Python and Debian's Chromium (the browser test of `tessera serve`; Playwright
# drives the system browser, nothing is downloaded for it).
set -euo pipefail
python3 -m pip install --quiet --disable-pip-version-check chess playwright
if ! [ -x /usr/bin/chromium ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y -qq chromium >/dev/null 2>&1 ||
        { $sudo apt-get update -qq && $sudo apt-get install -y -qq chromium >/dev/null; }
fi
