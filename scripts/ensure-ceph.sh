#!/usr/bin/env bash
# Makes sure Ceph's S3 gateway (radosgw) and the daemons a throwaway single-node cluster needs are
# installed (Debian/Ubuntu), for the S3 storage tests (scripts/start-s3.sh starts the cluster).
# No system service is configured or started. apt runs under /tmp/pf-apt.lock, since other
# project scripts may install packages at the same time.
set -euo pipefail

have_all() {
  for bin in radosgw ceph-mon ceph-osd ceph ceph-authtool monmaptool; do
    command -v "$bin" >/dev/null 2>&1 || [ -x "/usr/bin/$bin" ] || return 1
  done
}

if have_all; then
  echo "ceph present: $(ceph --version 2>/dev/null | head -n 1)"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "radosgw is missing and apt-get is not available: install radosgw ceph-mon ceph-osd ceph-common, then rerun." >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "radosgw is missing and installing it needs root (or sudo)." >&2
    exit 1
  fi
fi

$SUDO flock /tmp/pf-apt.lock sh -c '
  apt-get update -qq &&
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
    radosgw ceph-mon ceph-osd ceph-common >/dev/null
'
have_all || { echo "ceph packages installed but a binary is missing" >&2; exit 1; }
echo "ceph installed: $(ceph --version 2>/dev/null | head -n 1)"
