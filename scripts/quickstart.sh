#!/usr/bin/env bash
# The README's API quick path, as one script: register (or log in on a second run) → project →
# upload → dieline → developer key → /v1 → revoke. Needs curl and node (for reading JSON).
#   BASE=http://127.0.0.1:3000 EMAIL=you@example.com PASSWORD='a long passphrase' scripts/quickstart.sh
set -euo pipefail

BASE="${BASE:-http://127.0.0.1:3000}"   # behind the reverse proxy: https://your.host/api
EMAIL="${EMAIL:-quickstart@example.com}"
PASSWORD="${PASSWORD:-correct horse battery staple}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# json FIELD.PATH < body: prints one field of a JSON document ("" when absent).
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{let v=JSON.parse(s);for(const k of process.argv[1].split("."))v=v?.[k];process.stdout.write(v===undefined||v===null?"":String(v))})' "$1"; }

# call METHOD PATH [curl args…]: the body goes to $WORK/body, the status is printed.
call() { local method="$1" path="$2"; shift 2; curl -sS -o "$WORK/body" -w '%{http_code}' -X "$method" "$BASE$path" "$@"; }
expect() { if [ "$1" != "$2" ]; then echo "FAILED: $3 answered $1, expected $2: $(cat "$WORK/body")" >&2; exit 1; fi; }

echo "1. Register $EMAIL (or log in when the account already exists)"
status=$(call POST /auth/register -H 'content-type: application/json' \
  -d "{\"email\":\"$EMAIL\",\"password\":\"$PASSWORD\",\"name\":\"Quickstart\"}")
if [ "$status" = 409 ]; then
  status=$(call POST /auth/login -H 'content-type: application/json' -d "{\"email\":\"$EMAIL\",\"password\":\"$PASSWORD\"}")
  expect "$status" 200 "POST /auth/login"
else
  expect "$status" 201 "POST /auth/register"
fi
TOKEN=$(json token < "$WORK/body")
AUTH=(-H "authorization: Bearer $TOKEN")

echo "2. Create a project from the mailer-box template (the free plan keeps 3: on a 4th run, reuse the newest)"
status=$(call POST /projects "${AUTH[@]}" -H 'content-type: application/json' -d '{"name":"Quickstart mailer","templateId":"mailer-box"}')
if [ "$status" = 403 ]; then
  status=$(call GET /projects "${AUTH[@]}"); expect "$status" 200 "GET /projects"
  PROJECT_ID=$(json projects.0.id < "$WORK/body")
else
  expect "$status" 201 "POST /projects"
  PROJECT_ID=$(json project.id < "$WORK/body")
fi
echo "   project $PROJECT_ID"

echo "3. Upload an image (a 1×1 PNG made here)"
printf '%s' 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' \
  | base64 -d > "$WORK/label.png"
status=$(call POST /assets "${AUTH[@]}" -F "file=@$WORK/label.png;type=image/png"); expect "$status" 201 "POST /assets"
ASSET_URL=$(json asset.url < "$WORK/body")
# asset.url is a path ("/files/<name>") unless the server has PUBLIC_BASE_URL: then it is absolute.
case "$ASSET_URL" in http*) ;; *) ASSET_URL="$BASE$ASSET_URL" ;; esac
curl -sSf -o "$WORK/downloaded.png" "$ASSET_URL"
cmp -s "$WORK/label.png" "$WORK/downloaded.png" || { echo "FAILED: the download differs from the upload" >&2; exit 1; }
echo "   $ASSET_URL"

echo "4. Fetch the project's dieline as SVG"
status=$(call GET "/projects/$PROJECT_ID/dieline?format=svg" "${AUTH[@]}"); expect "$status" 200 "GET /projects/:id/dieline"
grep -q '<svg' "$WORK/body" || { echo "FAILED: the dieline is not an SVG" >&2; exit 1; }
echo "   $(wc -c < "$WORK/body") bytes of SVG"

echo "5. Issue a developer key (no body)"
status=$(call POST /api-keys "${AUTH[@]}"); expect "$status" 201 "POST /api-keys"
KEY=$(json apiKey.key < "$WORK/body")
KEY_ID=$(json apiKey.id < "$WORK/body")

echo "6. Call the public /v1 surface with it"
status=$(call GET /v1/templates/mailer-box -H "x-api-key: $KEY"); expect "$status" 200 "GET /v1/templates/mailer-box"
echo "   $(json template.name < "$WORK/body")"

echo "7. Revoke the key: /v1 refuses it from the next request"
status=$(call DELETE "/api-keys/$KEY_ID" "${AUTH[@]}"); expect "$status" 204 "DELETE /api-keys/:id"
status=$(call GET /v1/templates -H "x-api-key: $KEY"); expect "$status" 401 "GET /v1/templates with a revoked key"

echo "Quickstart passed against $BASE."
