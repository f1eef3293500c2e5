#!/usr/bin/env bash
# apt-install.sh PACKAGE…: installs Debian packages for the test harness, as root or through sudo,
# under /tmp/pf-apt.lock (other project scripts may run apt at the same time), with one
# apt-get update inside the lock. No service is configured or started.
set -euo pipefail

if ! command -v apt-get >/dev/null 2>&1; then
  echo "$* missing and apt-get is not available: install them, then rerun." >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "installing $* needs root (or sudo)." >&2
    exit 1
  fi
fi
$SUDO flock /tmp/pf-apt.lock sh -c '
  apt-get update -qq &&
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "$@" >/dev/null
' apt-install "$@"
