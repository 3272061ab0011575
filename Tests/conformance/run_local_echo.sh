#!/usr/bin/env bash
# Links EchoServer.swift with the WebSocket layer, starts it on a free port and runs
# ws_conformance.py against it. Extra arguments go to the conformance script, e.g.
#   Tests/conformance/run_local_echo.sh --cases 6.4 13.3
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$out"' EXIT
"$here/link_layer.sh" "$here/EchoServer.swift" "$out/echo"
"$out/echo" 0 > "$out/log" &
pid=$!
for _ in $(seq 50); do grep -q listening "$out/log" 2>/dev/null && break; sleep 0.1; done
url="$(sed -n 's/^listening on //p' "$out/log")"
python3 "$here/ws_conformance.py" "$url" "$@"
