#!/usr/bin/env bash
# Builds the WebSocket layer (release), links it into EchoServer.swift, starts it on a free
# port and runs ws_conformance.py against it. Extra arguments go to the conformance script.
#   Tests/conformance/run_local_echo.sh --cases 6.4 13.3
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
scratch="${SCRATCH:-$root/.build-conformance}"
cd "$root"
swift build -c release --scratch-path "$scratch" --target WebSocket >&2
build="$scratch/release"
out="$(mktemp -d)"
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$out"' EXIT
swiftc -O -swift-version 5 -o "$out/echo" Tests/conformance/EchoServer.swift \
  -I "$build/Modules" -I Sources/CZlib \
  "$build"/HTTP.build/*.o "$build"/Deflate.build/*.o "$build"/WebSocket.build/*.o -lz >&2
"$out/echo" 0 > "$out/log" &
pid=$!
for _ in $(seq 50); do grep -q listening "$out/log" 2>/dev/null && break; sleep 0.1; done
url="$(sed -n 's/^listening on //p' "$out/log")"
python3 "$root/Tests/conformance/ws_conformance.py" "$url" "$@"
