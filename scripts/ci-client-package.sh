#!/usr/bin/env bash
# CI: the typed client as its users get it. Packs clients/typescript (npm pack: its prepack builds
# dist/), installs the tarball into a scratch project (npm install <tarball>), compiles the journey
# example as an ES module and as CommonJS under `tsc --strict` (module nodenext), and runs both
# against the live server at BASE_URL (register, project, upload, dieline); then the key-only
# journey (webhooks, a failed and a fixed export, a redelivery), which needs the server started with
# WEBHOOK_ALLOW_PRIVATE=true (its receiver listens on 127.0.0.1).
#   BASE_URL=http://127.0.0.1:3000 bash scripts/ci-client-package.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
BASE_URL="${BASE_URL:-http://127.0.0.1:3000}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

TARBALL="$WORK/$(cd clients/typescript && npm pack --silent --pack-destination "$WORK" | tail -n 1)"
echo "packed $(basename "$TARBALL")"

PROJECT="$WORK/scratch"
mkdir -p "$PROJECT"
cd "$PROJECT"
npm init -y >/dev/null
# TypeScript and Node's types at the repository's versions; the client brings openapi-fetch.
TS_VERSION="$(node -p "require('$ROOT/node_modules/typescript/package.json').version")"
NODE_TYPES="$(node -p "require('$ROOT/node_modules/@types/node/package.json').version")"
WEBHOOKS="$(node -p "require('$ROOT/node_modules/standardwebhooks/package.json').version")"
npm install --no-audit --no-fund --prefer-offline "$TARBALL" "typescript@$TS_VERSION" "@types/node@$NODE_TYPES" \
  "standardwebhooks@$WEBHOOKS" >/dev/null

# One source, two module systems: .mts compiles to an ES module, .cts to CommonJS.
for kind in mts cts; do
  label=$([ "$kind" = mts ] && echo ESM || echo CommonJS)
  { echo "const MODULE_KIND = '$label';"; cat "$ROOT/clients/typescript/examples/journey.ts"; } > "journey.$kind"
done
cp "$ROOT/clients/typescript/examples/key-journey.ts" key-journey.mts
cat > tsconfig.json <<'JSON'
{
  "compilerOptions": {
    "strict": true,
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "target": "es2022",
    "types": ["node"],
    "outDir": "out",
    "skipLibCheck": false
  },
  "files": ["journey.mts", "journey.cts", "key-journey.mts"]
}
JSON
npx --no-install tsc -p tsconfig.json
grep -q 'require("packaging-service-client")' out/journey.cjs || { echo "journey.cjs does not require() the client" >&2; exit 1; }
grep -q 'from .packaging-service-client.' out/journey.mjs || { echo "journey.mjs does not import the client" >&2; exit 1; }
BASE_URL="$BASE_URL" node out/journey.mjs
BASE_URL="$BASE_URL" node out/journey.cjs
BASE_URL="$BASE_URL" node out/key-journey.mjs
echo "client package: ESM and CommonJS compiled under tsc --strict and ran the journeys against $BASE_URL."
