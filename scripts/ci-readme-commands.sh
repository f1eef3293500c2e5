#!/usr/bin/env bash
# CI: the README's two commands on the machine's own Node (whatever its version): `npm ci` (what
# `npm install` does from the lock file), then `npm start` on a free port with a fresh embedded
# database until GET /health answers 200; then stops the server. npm start runs the service under
# Node >= 22.12 (scripts/node.sh), so this passes on an older machine Node too.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "machine Node: $(node --version), npm $(npm --version)"
npm ci --no-audit --no-fund

WORK="$(mktemp -d)"
PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
# Its own process group, so stopping it stops npm, the launcher and the server together.
env -u DATABASE_URL PORT="$PORT" DATA_DIR="$WORK/data" UPLOAD_DIR="$WORK/uploads" setsid npm start >"$WORK/start.log" 2>&1 &
SERVER=$!
cleanup() { kill -TERM -- "-$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
for _ in $(seq 1 180); do
  curl -fsS "http://127.0.0.1:$PORT/health" >/dev/null 2>&1 && break
  kill -0 "$SERVER" 2>/dev/null || { echo "npm start exited:" >&2; cat "$WORK/start.log" >&2; exit 1; }
  sleep 1
done
curl -fsS "http://127.0.0.1:$PORT/health" || { echo "npm start: /health did not answer in 180 s" >&2; cat "$WORK/start.log" >&2; exit 1; }
echo
grep -m1 'older than' "$WORK/start.log" || true
echo "npm install && npm start: /health answered on the machine's Node $(node --version)."
