#!/usr/bin/env bash
# A throwaway single-node Ceph cluster with its S3 gateway (radosgw), for the S3 storage tests:
# one monitor, one memstore OSD (RAM only, nothing on disk but logs), cephx off, one replica.
#
#   scripts/start-s3.sh          starts it (or finds it running) and prints the endpoint, e.g.
#                                http://127.0.0.1:41234 — the last line of stdout
#   scripts/start-s3.sh stop     stops it and removes its directory
#   scripts/start-s3.sh env      prints S3_TEST_ENDPOINT=… plus the test credentials (for `eval`)
#
# State lives in $PF_S3_DIR (default /tmp/pf-s3-<uid>): ports are free ones chosen at start, the
# endpoint is kept in $PF_S3_DIR/endpoint. Idempotent: a second start finds the running gateway.
# The gateway checks S3 signatures: the test user below is its only account.
# Needs the packages scripts/ensure-ceph.sh installs.
set -euo pipefail

DIR="${PF_S3_DIR:-/tmp/pf-s3-$(id -u)}"
ACCESS_KEY="${PF_S3_ACCESS_KEY:-PFTESTACCESSKEY00001}"
SECRET_KEY="${PF_S3_SECRET_KEY:-pf-test-secret-key-0000000000000000000000}"
START_TIMEOUT_S=90

conf() { echo "$DIR/ceph.conf"; }
ceph_() { timeout 20 ceph -c "$(conf)" "$@"; }

pids() { cat "$DIR"/run/*.pid 2>/dev/null || true; }

stop_cluster() {
  local pid
  for pid in $(pids); do kill "$pid" 2>/dev/null || true; done
  for _ in $(seq 1 50); do
    local alive=0
    for pid in $(pids); do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.2
  done
  for pid in $(pids); do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$DIR"
}

running_endpoint() {
  [ -f "$DIR/endpoint" ] || return 1
  local endpoint
  endpoint="$(cat "$DIR/endpoint")"
  curl -fsS -o /dev/null --max-time 3 "$endpoint/" 2>/dev/null || [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$endpoint/")" != "000" ] || return 1
  echo "$endpoint"
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

case "${1:-start}" in
  stop)
    stop_cluster
    exit 0
    ;;
  env)
    endpoint="$(running_endpoint)" || { echo "the S3 gateway is not running: run scripts/start-s3.sh" >&2; exit 1; }
    echo "S3_TEST_ENDPOINT=$endpoint"
    echo "AWS_ACCESS_KEY_ID=$ACCESS_KEY"
    echo "AWS_SECRET_ACCESS_KEY=$SECRET_KEY"
    exit 0
    ;;
  start) ;;
  *)
    echo "usage: $0 [start|stop|env]" >&2
    exit 2
    ;;
esac

for bin in ceph-mon ceph-osd radosgw radosgw-admin monmaptool ceph curl; do
  command -v "$bin" >/dev/null 2>&1 || { echo "$bin is missing: run scripts/ensure-ceph.sh" >&2; exit 1; }
done

# One start at a time (two test runs starting it together would race on the directory).
mkdir -p "$(dirname "$DIR")"
exec 9>"$DIR.lock"
flock 9

if endpoint="$(running_endpoint)"; then
  echo "$endpoint"
  exit 0
fi
stop_cluster # leftovers of a dead cluster

mkdir -p "$DIR"/{run,log,mon,osd}
MON_PORT="$(free_port)"
RGW_PORT="$(free_port)"
while [ "$RGW_PORT" = "$MON_PORT" ]; do RGW_PORT="$(free_port)"; done
FSID="$(uuidgen)"

cat >"$(conf)" <<EOF
[global]
fsid = $FSID
mon host = v2:127.0.0.1:$MON_PORT
public network = 127.0.0.0/8
auth cluster required = none
auth service required = none
auth client required = none
# With cephx off the monitor client must still agree on a mode, or it loops on auth errors.
ms mon client mode = crc
ms bind msgr1 = false
run dir = $DIR/run
pid file = $DIR/run/\$name.pid
admin socket = $DIR/run/\$name.asok
log file = $DIR/log/\$name.log
log to stderr = false
err to stderr = true
mon data = $DIR/mon/\$cluster-\$id
osd data = $DIR/osd/\$cluster-\$id
keyring = /dev/null
osd objectstore = memstore
memstore device bytes = 2147483648
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon max pg per osd = 1000
mon warn on pool no redundancy = false
osd max object name len = 256
osd max object namespace len = 64

[mon.a]
mon addr = v2:127.0.0.1:$MON_PORT

[client.rgw.pf]
rgw frontends = beast endpoint=127.0.0.1:$RGW_PORT
rgw dns name = 127.0.0.1
rgw enable apis = s3, admin
rgw thread pool size = 64
EOF

monmaptool --create --clobber --fsid "$FSID" --addv a "[v2:127.0.0.1:$MON_PORT]" "$DIR/monmap" >/dev/null
ceph-mon -c "$(conf)" -i a --mkfs --monmap "$DIR/monmap" >/dev/null
ceph-mon -c "$(conf)" -i a 2>>"$DIR/log/stderr.log" 9>&-

OSD_UUID="$(uuidgen)"
OSD_ID="$(ceph_ osd new "$OSD_UUID")"
mkdir -p "$DIR/osd/ceph-$OSD_ID"
ceph-osd -c "$(conf)" -i "$OSD_ID" --mkfs --osd-uuid "$OSD_UUID" >/dev/null 2>&1
ceph-osd -c "$(conf)" -i "$OSD_ID" 2>>"$DIR/log/stderr.log" 9>&-

# The OSD up before the gateway creates its pools.
deadline=$((SECONDS + START_TIMEOUT_S))
until ceph_ osd stat 2>/dev/null | grep -q '1 up'; do
  [ $SECONDS -lt $deadline ] || { echo "the OSD did not come up; see $DIR/log" >&2; exit 1; }
  sleep 0.5
done

radosgw -c "$(conf)" -n client.rgw.pf 2>>"$DIR/log/stderr.log" 9>&-
endpoint="http://127.0.0.1:$RGW_PORT"
until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$endpoint/" || true)" != "000" ]; do
  [ $SECONDS -lt $deadline ] || { echo "radosgw did not listen on $endpoint; see $DIR/log" >&2; exit 1; }
  sleep 0.5
done
timeout 60 radosgw-admin -c "$(conf)" user create --uid=pf-test --display-name="pf test" \
  --access-key="$ACCESS_KEY" --secret-key="$SECRET_KEY" >/dev/null 2>>"$DIR/log/stderr.log" 9>&-
echo "$endpoint" >"$DIR/endpoint"
echo "$endpoint"
