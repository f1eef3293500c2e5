#!/usr/bin/env bash
# Lints the OpenAPI document exactly as buildApp serves it (with MOCKUP_ENABLED=true: the default
# document plus the optional mockup route) with Redocly (recommended) and
# Spectral (spectral:oas). Any error or warning fails; rules turned off carry their reason in
# redocly.yaml and .spectral.yaml.
set -euo pipefail
cd "$(dirname "$0")/.."
doc="$(mktemp -d)/openapi.json"
npx tsx scripts/dump-openapi.ts "$doc" --mockup

echo "== Redocly"
redocly_out="$(npx redocly lint "$doc" --config redocly.yaml 2>&1)" || { echo "$redocly_out"; exit 1; }
if grep -Eq 'You have [0-9]+ warning' <<<"$redocly_out"; then echo "$redocly_out"; exit 1; fi
echo "Redocly: no error, no warning."

echo "== Spectral"
npx spectral lint "$doc" --ruleset .spectral.yaml --fail-severity=hint
