#!/usr/bin/env bash
# CI only: installs headless Chromium (Debian's `chromium`) and a colour emoji font for the test
# that measures each game's table at phone width (tests/bot/test_preview_phone.py). Does nothing
# outside CI (CI=true) or when a Chromium is already on PATH, so it can run before every test run.
set -euo pipefail
if [ "${CI:-}" != "true" ]; then
    exit 0
fi
for name in chromium chromium-browser google-chrome google-chrome-stable; do
    if command -v "$name" > /dev/null 2>&1; then
        exit 0
    fi
done
if ! command -v apt-get > /dev/null 2>&1; then
    echo "ci-chromium.sh: no apt-get here; install Chromium another way" >&2
    exit 1
fi
sudo=""
if [ "$(id -u)" != "0" ]; then
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y --no-install-recommends chromium fonts-noto-color-emoji fonts-dejavu-core
