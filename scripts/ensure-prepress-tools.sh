#!/usr/bin/env bash
# Makes sure qpdf and Ghostscript are available: the print tests read the PDF/X files back with
# qpdf (--check, --json) and Ghostscript (tiffsep separations, inkcov).
set -euo pipefail
missing=()
command -v qpdf >/dev/null 2>&1 || missing+=(qpdf)
command -v gs >/dev/null 2>&1 || missing+=(ghostscript)
if [ ${#missing[@]} -eq 0 ]; then
  echo "qpdf $(qpdf --version | head -n 1 | awk '{print $3}'), gs $(gs --version) present"
  exit 0
fi
bash "$(dirname "$0")/apt-install.sh" "${missing[@]}"
