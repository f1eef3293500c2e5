#!/usr/bin/env bash
# Makes sure ArgyllCMS colprof and Debian's characterisation data (icc-profiles-free) are present.
# Only scripts/make-press-profile.sh needs them; the service and its tests use the committed profiles.
set -euo pipefail
if command -v colprof >/dev/null 2>&1 && [ -f /usr/share/color/icc/FOGRA39L.ti3 ]; then exit 0; fi
bash "$(dirname "$0")/apt-install.sh" argyll icc-profiles-free
