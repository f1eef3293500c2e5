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

bash "$(dirname "$0")/apt-install.sh" chromium fonts-dejavu-core
echo "chromium installed: $("$(find_chromium)" --version 2>/dev/null || echo unknown version)"
