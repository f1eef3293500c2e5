#!/usr/bin/env bash
# Makes sure Debian's chromium is available for the viewer's browser test (test/viewer/*), which
# drives it headless through playwright-core (WebGL through SwiftShader; no GPU, no display).
# apt runs under /tmp/pf-apt.lock so parallel installs on one machine do not collide.
set -euo pipefail

find_chromium() {
  command -v chromium 2>/dev/null || { [ -x /usr/bin/chromium ] && echo /usr/bin/chromium; } || true
}

if [ -n "$(find_chromium)" ]; then
  echo "chromium present: $("$(find_chromium)" --version 2>/dev/null || echo unknown version)"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium is missing and apt-get is not available: install chromium, then rerun." >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "chromium is missing and installing it needs root (or sudo)." >&2
    exit 1
  fi
fi

$SUDO flock /tmp/pf-apt.lock sh -c '
  apt-get update -qq &&
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
'
echo "chromium installed: $("$(find_chromium)" --version 2>/dev/null || echo unknown version)"
