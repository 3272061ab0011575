#!/usr/bin/env bash
# Builds the HTTP, Deflate and WebSocket targets (release) and links them with one Swift
# file into an executable:  Tests/conformance/link_layer.sh SOURCE.swift OUTPUT
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
scratch="${SCRATCH:-$root/.build-conformance}"
cd "$root"
swift build -c release --scratch-path "$scratch" --target WebSocket >&2
build="$scratch/release"
swiftc -O -swift-version 5 -o "$2" "$1" -I "$build/Modules" -I Sources/CZlib \
  "$build"/HTTP.build/*.o "$build"/Deflate.build/*.o "$build"/WebSocket.build/*.o -lz >&2
