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

# The core package: the proxy and upstream modules are built in, nothing else is needed.
bash "$(dirname "$0")/apt-install.sh" nginx
echo "nginx installed: $("$(find_nginx)" -v 2>&1)"
