#!/usr/bin/env bash
# Makes sure pdftoppm (Debian/Ubuntu poppler-utils) is available: the print and preview tests
# rasterise the produced PDF and PNG with it. apt runs under a lock shared with the other
# ensure-* scripts, so parallel installs on one machine do not collide.
set -euo pipefail

if command -v pdftoppm >/dev/null 2>&1; then
  echo "pdftoppm present: $(pdftoppm -v 2>&1 | head -n 1)"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "pdftoppm is missing and apt-get is not available: install poppler-utils, then rerun." >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "pdftoppm is missing and installing it needs root (or sudo)." >&2
    exit 1
  fi
fi

$SUDO flock /tmp/pf-apt.lock sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends poppler-utils >/dev/null'
echo "pdftoppm installed: $(pdftoppm -v 2>&1 | head -n 1)"
