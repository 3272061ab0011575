#!/usr/bin/env bash
# User-space instructions per static-file request, which hardly depend on the machine's load
# (this VM has no hardware counters for `perf stat -e instructions`): each binary runs under
# valgrind's callgrind serving the 4 KiB file of run.sh, warmed up by 3 s of `wrk -t1 -c8`;
# the counts are zeroed, `wrk -t2 -c64 -d10s` runs, and the program's total is divided by the
# requests wrk counted.
#
#   Benchmarks/static/instructions.sh /tmp/before/playfield .build/release/playfield
#
# Needs valgrind, wrk and objcopy. valgrind 3.19 cannot read Swift 6's DWARF 5, so each binary
# is copied without its debug info (symbols stay). SWIFT_DETERMINISTIC_HASHING=1 keeps
# dictionary probes the same from run to run. Set KEEP=DIR to keep the callgrind files
# (`callgrind_annotate --inclusive=yes DIR/NAME.1` lists where the instructions go). Set
# BROWSER=1 to send the header fields a browser sends with every request (wrk alone sends only
# `Host`). With 64 connections how many requests one wake-up of a loop serves depends on the
# timing, which moves the count by a few hundred from run to run; CONNECTIONS=1 THREADS=1 (one
# request at a time: a wake-up, a read and a write each) gives the same count every run.
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
for tool in valgrind callgrind_control callgrind_annotate wrk objcopy "$@"; do
  command -v "$tool" >/dev/null || { echo "instructions.sh: $tool is missing" >&2; exit 1; }
done

work=$(mktemp -d /tmp/playfield-instructions.XXXXXX)
mkdir -p "$work/public"
head -c 3072 /dev/urandom | base64 -w 64 | head -c 4096 > "$work/public/4k.txt"
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
headers=()
if [ -n "${BROWSER:-}" ]; then
  headers=(
    -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
    -H 'Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'
    -H 'Accept-Language: en-GB,en;q=0.9,de;q=0.8'
    -H 'Accept-Encoding: gzip, deflate, br, zstd'
    -H 'Referer: http://127.0.0.1/gallery'
    -H 'Sec-Fetch-Dest: document'
    -H 'Sec-Fetch-Mode: navigate'
    -H 'Sec-Fetch-Site: same-origin'
    -H 'sec-ch-ua: "Chromium";v="131", "Not_A Brand";v="24"'
    -H 'sec-ch-ua-platform: "Linux"'
  )
fi
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

index=0
for binary in "$@"; do
  index=$((index + 1))
  objcopy --strip-debug "$binary" "$work/playfield$index"
  port=$(free_port)
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/cg$index" \
    "$work/playfield$index" serve --port "$port" --public "$work/public" \
    --database "$work/playfield$index.db" --event-loops 2 > "$work/out$index" 2>&1 &
  pid=$!
  for _ in $(seq 120); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/4k.txt" && break
    sleep 1
  done
  wrk "${headers[@]}" -t1 -c8 -d3s "http://127.0.0.1:$port/4k.txt" > /dev/null ||
    { echo "instructions.sh: $binary does not serve:" >&2; tail -5 "$work/out$index" >&2; exit 1; }
  callgrind_control -z "$pid" > /dev/null 2>&1
  requests=$(wrk "${headers[@]}" -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" "http://127.0.0.1:$port/4k.txt" | awk '/requests in/ {print $1}') ||
    { echo "instructions.sh: wrk failed against $binary" >&2; exit 1; }
  callgrind_control -d "$pid" > /dev/null 2>&1
  sleep 1
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  pid=
  total=$(callgrind_annotate "$work/cg$index.1" | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
  echo "$binary: $requests requests, $((total / requests)) user-space instructions per request"
  if [ -n "${KEEP:-}" ]; then cp "$work/cg$index.1" "$KEEP/playfield$index.1"; fi
done
