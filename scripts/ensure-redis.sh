#!/usr/bin/env bash
# Makes sure redis-server is installed (the shared rate-limit tests start private ones on free
# ports to stop them) and that a Redis answers on 127.0.0.1:6379, as on every machine of this
# kind and in CI. apt runs under /tmp/pf-apt.lock (other project scripts may install at once).
set -euo pipefail

if ! command -v redis-server >/dev/null 2>&1; then
  bash "$(dirname "$0")/apt-install.sh" redis-server redis-tools
fi

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  redis-server --port 6379 --bind 127.0.0.1 --save '' --appendonly no --daemonize yes >/dev/null
  for _ in $(seq 1 50); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.1; done
fi
echo "redis present: $(redis-server --version | head -n 1)"
