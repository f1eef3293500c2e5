#!/usr/bin/env bash
# Makes sure Debian's python3-ezdxf is importable by the system Python: the dieline tests read the
# DXF files the service writes with it (strict readfile plus audit). apt runs under the lock shared
# with the other ensure-* scripts.
set -euo pipefail

if /usr/bin/python3 -c 'import ezdxf' >/dev/null 2>&1; then
  echo "ezdxf present: $(/usr/bin/python3 -c 'import ezdxf; print(ezdxf.__version__)')"
  exit 0
fi

bash "$(dirname "$0")/apt-install.sh" python3-ezdxf
echo "ezdxf installed: $(/usr/bin/python3 -c 'import ezdxf; print(ezdxf.__version__)')"
