#!/usr/bin/env bash
# Builds HTTP, Deflate and WebSocket with coverage instrumentation and AddressSanitizer, links
# them into the libFuzzer target FuzzWebSocket.swift and runs it. Arguments go to libFuzzer,
# e.g.  Tests/fuzz/run_fuzz.sh -max_total_time=60   (default: 60 seconds)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${FUZZ_DIR:-$root/.build-fuzz}"
mkdir -p "$out/corpus"
cd "$root"
flags=(-O -swift-version 5 -parse-as-library -sanitize=fuzzer,address -I "$out" -I Sources/CZlib)
for module in HTTP Deflate WebSocket; do
  swiftc "${flags[@]}" -emit-library -static -module-name "$module" -emit-module \
    -emit-module-path "$out/$module.swiftmodule" -o "$out/lib$module.a" Sources/"$module"/*.swift
done
swiftc "${flags[@]}" -o "$out/fuzz-websocket" Tests/fuzz/FuzzWebSocket.swift \
  -L "$out" -lWebSocket -lDeflate -lHTTP -lz
if [ "$#" -eq 0 ]; then set -- -max_total_time=60; fi
"$out/fuzz-websocket" "$out/corpus" "$@"
