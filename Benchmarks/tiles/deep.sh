#!/usr/bin/env bash
# Deep-zoom (perturbation) benchmarks, in one run beside the plain kernel:
#
#   Benchmarks/tiles/deep.sh           (from anywhere; a few minutes)
#   RUNS=9 Benchmarks/tiles/deep.sh    (keep the best of more runs, for a busy machine)
#   BEFORE=/path/to/old/playfield Benchmarks/tiles/deep.sh
#                                      (the HTTP part against an older build too, first)
#
# Prints:
#   - raw throughput on one core, in Miter/s counted as the plain loop's total_iters: the
#     scalar and SIMD plain kernels and perturbation with BLA off (and on), in the scalar loop
#     and in SIMD lanes, same shallow tiles;
#   - a deep tile at 10,000 iterations with BLA against without (1e-30 seahorse valley and
#     1e-300 at c = i), two threads, lanes and scalar loop, the reference orbit timed on its own;
#   - cold deep tiles (1e-30 seahorse valley, c = i at 1e-100, 1e-300 and 1e-600), reference
#     by the grid (before) and by the nucleus search (after), timed by phase; and exact orbit
#     updates, BigFixed operations against OrbitStepper;
#   - one cold tile at 1e-300 and 1e-600 (iter=10000) and a 64-tile view at 1e-100 and 1e-300
#     over HTTP, cold then cached (deep_over_http.py), against a freshly started release
#     server (and first against BEFORE, when given).
set -euo pipefail
runs=${RUNS:-5}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores," \
  "flags: $(grep -m1 -o -w -E 'avx512f|avx2|fma' /proc/cpuinfo | sort -u | xargs)"
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "# building the release benchmark and server ..."
(cd "$root" && swift build -c release --build-tests -Xswiftc -enable-testing \
  --scratch-path .build-bench >/dev/null)
(cd "$root" && PLAYFIELD_BENCH=1 PLAYFIELD_BENCH_RUNS=$runs swift test -c release \
  -Xswiftc -enable-testing --scratch-path .build-bench --skip-build \
  --filter TilesTests.DeepBenchmarkTests 2>&1 | grep -o 'BENCH .*')

# Runs deep_over_http.py against a fresh server from binary $1, labelled $2.
server=
trap '[ -z "$server" ] || kill "$server" 2>/dev/null' EXIT
over_http() {
  local database
  database=$(mktemp -d)/bench.db
  "$1" serve --port 0 --database "$database" >"$database.out" &
  server=$!
  for _ in $(seq 50); do grep -q listening "$database.out" 2>/dev/null && break; sleep 0.1; done
  local port
  port=$(sed -n 's/.*127.0.0.1:\([0-9]*\).*/\1/p' "$database.out" | head -1)
  python3 "$here/deep_over_http.py" "$port" | sed "s/^BENCH /BENCH $2 /"
  kill "$server"
  wait "$server" 2>/dev/null || true
  server=
}
if [ -n "${BEFORE:-}" ]; then over_http "$BEFORE" before; fi
over_http "$root/.build-bench/release/playfield" after
