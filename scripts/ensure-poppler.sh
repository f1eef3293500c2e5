#!/usr/bin/env bash
# Makes sure pdftoppm (Debian/Ubuntu poppler-utils) is available: the print and preview tests
# rasterise the produced PDF and PNG with it. apt runs under a lock shared with the other
# ensure-* scripts, so parallel installs on one machine do not collide.
set -euo pipefail

if command -v pdftoppm >/dev/null 2>&1; then
  echo "pdftoppm present: $(pdftoppm -v 2>&1 | head -n 1)"
  exit 0
fi

bash "$(dirname "$0")/apt-install.sh" poppler-utils
echo "pdftoppm installed: $(pdftoppm -v 2>&1 | head -n 1)"
