#!/usr/bin/env bash
# Deep-zoom (perturbation) benchmarks, in one run beside the plain kernel:
#
#   Benchmarks/tiles/deep.sh           (from anywhere; a few minutes)
#   RUNS=9 Benchmarks/tiles/deep.sh    (keep the best of more runs, for a busy machine)
#
# Prints:
#   - raw throughput on one core, in Miter/s counted as the plain loop's total_iters: the
#     scalar and SIMD plain kernels and perturbation with BLA off (and on), in the scalar loop
#     and in SIMD lanes, same shallow tiles;
#   - a deep tile at 10,000 iterations with BLA against without (1e-30 seahorse valley and
#     1e-300 at c = i), two threads, lanes and scalar loop, the reference orbit timed on its own;
#   - a 64-tile view at 1e-100 and 1e-300 over HTTP, cold then cached (deep_over_http.py)
#     against a freshly started release server.
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

database=$(mktemp -d)/bench.db
"$root/.build-bench/release/playfield" serve --port 0 --database "$database" >"$database.out" &
server=$!
trap 'kill $server' EXIT
for _ in $(seq 50); do grep -q listening "$database.out" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/.*127.0.0.1:\([0-9]*\).*/\1/p' "$database.out" | head -1)
python3 "$here/deep_over_http.py" "$port"
