#!/usr/bin/env bash
# Builds the WebSocket layer (release) into StateMachineBench.swift and runs it.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
scratch="${SCRATCH:-$root/.build-conformance}"
cd "$root"
swift build -c release --scratch-path "$scratch" --target WebSocket >&2
build="$scratch/release"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
swiftc -O -swift-version 5 -o "$out/bench" Tests/conformance/StateMachineBench.swift \
  -I "$build/Modules" -I Sources/CZlib \
  "$build"/HTTP.build/*.o "$build"/Deflate.build/*.o "$build"/WebSocket.build/*.o -lz >&2
"$out/bench"
