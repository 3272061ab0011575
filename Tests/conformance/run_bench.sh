#!/usr/bin/env bash
# Links StateMachineBench.swift with the WebSocket layer (release) and runs it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$here/link_layer.sh" "$here/StateMachineBench.swift" "$out/bench"
"$out/bench"
