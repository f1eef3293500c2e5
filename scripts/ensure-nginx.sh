#!/usr/bin/env bash
# Makes sure an nginx binary is available for `npm run test:proxy` (Debian/Ubuntu). The test runs
# its own unprivileged nginx from a temporary prefix; no system service is configured or started.
set -euo pipefail

find_nginx() {
  command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true
}

if [ -n "$(find_nginx)" ]; then
  echo "nginx present: $("$(find_nginx)" -v 2>&1)"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "nginx is missing and apt-get is not available: install nginx, then rerun." >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "nginx is missing and installing it needs root (or sudo)." >&2
    exit 1
  fi
fi

# The core package: the proxy and upstream modules are built in, nothing else is needed.
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx >/dev/null
echo "nginx installed: $("$(find_nginx)" -v 2>&1)"
