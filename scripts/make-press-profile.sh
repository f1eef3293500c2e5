#!/usr/bin/env bash
# Builds the press profiles in src/print/profiles/ from the characterisation data Debian ships in
# icc-profiles-free (zlib licence), with ArgyllCMS colprof. Run by hand when the profiles should
# change; the service only reads the committed .icc files, nothing is built or downloaded at run time.
#   scripts/make-press-profile.sh            # every condition
#   scripts/make-press-profile.sh fogra39    # one
# Options: medium quality cLUTs (-qm -bm: about 120 KB per profile), ramp black generation (-kr),
# total ink limited to 300 % (-l300) so converted RGB never exceeds the preflight limit, the
# measurement data left out of the profile (-nc), and perceptual tables gamut-mapped from sRGB
# (-s sRGB.icc): the print pipeline converts RGB with the perceptual intent. About a minute each.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-argyll.sh
DATA=/usr/share/color/icc
OUT=src/print/profiles
mkdir -p "$OUT"
build() {
  local key=$1 ti3=$2 description=$3 copyright=$4
  local work
  work=$(mktemp -d)
  cp "$DATA/$ti3.ti3" "$work/$key.ti3"
  (cd "$work" && colprof -qm -bm -nc -kr -l300 -Zp -s "$DATA/sRGB.icc" -A "packaging-template-service" \
    -D "$description" -C "$copyright" "$key" >/dev/null)
  cp "$work/$key.icc" "$OUT/$key.icc"
  rm -rf "$work"
  echo "$OUT/$key.icc: $(stat -c %s "$OUT/$key.icc") bytes"
}
if [ $# -eq 0 ] || [[ " $* " == *" fogra39 "* ]]; then
  build fogra39 FOGRA39L "Coated FOGRA39 (ISO 12647-2:2004), from FOGRA39L.ti3, ArgyllCMS colprof" \
    "Characterisation data Fogra (FOGRA39L); profile built with ArgyllCMS, zlib licence"
fi
if [ $# -eq 0 ] || [[ " $* " == *" fogra29 "* ]]; then
  build fogra29 FOGRA29L "Uncoated FOGRA29 (ISO 12647-2:2004), from FOGRA29L.ti3, ArgyllCMS colprof" \
    "Characterisation data Fogra (FOGRA29L); profile built with ArgyllCMS, zlib licence"
fi
if [ $# -eq 0 ] || [[ " $* " == *" gracol2006 "* ]]; then
  build gracol2006 TR006 "GRACoL 2006 Coated #1 (CGATS TR 006), from TR006.ti3, ArgyllCMS colprof" \
    "Characterisation data ANSI CGATS TR 006; profile built with ArgyllCMS, zlib licence"
fi
cp "$DATA/sRGB.icc" "$OUT/srgb.icc"
