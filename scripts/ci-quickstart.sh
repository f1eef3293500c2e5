#!/usr/bin/env bash
# CI: starts the built server (dist/) on a free port with a fresh embedded database, waits until it
# is ready, runs scripts/quickstart.sh twice (the second run logs in instead of registering) and
# the README's shell examples (npm run readme:examples) and the packed typed client
# (scripts/ci-client-package.sh), and stops the server. Prints the server's log when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

WORK="$(mktemp -d)"
PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
BASE="http://127.0.0.1:$PORT"
# WEBHOOK_ALLOW_PRIVATE: the packed client's key-only journey receives its webhooks on 127.0.0.1.
env -u DATABASE_URL NODE_ENV=development HOST=127.0.0.1 PORT="$PORT" DATA_DIR="$WORK/data" UPLOAD_DIR="$WORK/uploads" \
  RATE_LIMIT_AUTH_PER_MIN=0 WEBHOOK_ALLOW_PRIVATE=true node dist/server.js >"$WORK/server.log" 2>&1 &
SERVER=$!
cleanup() { kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
fail() { echo "$1" >&2; cat "$WORK/server.log" >&2; exit 1; }

for _ in $(seq 1 180); do
  curl -sf "$BASE/health/ready" >/dev/null 2>&1 && break
  kill -0 "$SERVER" 2>/dev/null || fail "The server exited during start-up."
  sleep 1
done
curl -sf "$BASE/health/ready" >/dev/null || fail "The server did not become ready in 180 s."

BASE="$BASE" bash scripts/quickstart.sh || fail "Quickstart failed (first run)."
BASE="$BASE" bash scripts/quickstart.sh || fail "Quickstart failed (second run: log in)."
[ "$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "$BASE/")" = "302 $BASE/docs" ] || fail "GET / does not lead to /docs."
BASE_URL="$BASE" npm run --silent readme:examples || fail "The README's examples failed (npm run readme:examples)."
BASE_URL="$BASE" bash scripts/ci-client-package.sh || fail "The packed client failed (scripts/ci-client-package.sh)."
