#!/usr/bin/env bash
# Makes sure Ceph's S3 gateway (radosgw) and the daemons a throwaway single-node cluster needs are
# installed (Debian/Ubuntu), for the S3 storage tests (scripts/start-s3.sh starts the cluster).
# No system service is configured or started (scripts/apt-install.sh).
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

bash "$(dirname "$0")/apt-install.sh" radosgw ceph-mon ceph-osd ceph-common
have_all || { echo "ceph packages installed but a binary is missing" >&2; exit 1; }
echo "ceph installed: $(ceph --version 2>/dev/null | head -n 1)"
