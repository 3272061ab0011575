#!/usr/bin/env bash
# Tile benchmarks: the Swift kernel beside the C reference, measured in the same run.
#
#   Benchmarks/tiles/run.sh            (from anywhere; takes a few minutes)
#   RUNS=60 Benchmarks/tiles/run.sh    (keep the best of more runs, for a busy machine)
#
# Builds shared/bench/mandel_ref.c (override with BENCH_REF=/path/to/bench) and a release build
# of TilesTests, then prints:
#   - Miter/s for tile 5/14/11 at 1000 iterations: mandel_ref scalar, avx2 (and avx512 when the
#     CPU has it), single thread; the Swift kernel on one and on two threads;
#   - the same for a few other tiles;
#   - the 64 level-3 tiles at iter=1000, rendered one after another in-process (compute, colour,
#     PNG), cold, beside the time mandel_ref avx2 needs just to compute them on one core.
#   - PNG encode time and size of those tiles under several zlib/filter settings.
# Swift Miter/s count the iterations the plain loop would do (mandel_ref's total_iters) per
# second: the kernel skips some of them (cardioid, bulb, periodic orbits), which is the point.
set -euo pipefail
runs=${RUNS:-15}

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ref=${BENCH_REF:-$root/../shared/bench}
out=${BENCH_OUT:-${TMPDIR:-/tmp}/playfield-bench-tiles}
mkdir -p "$out"

echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores," \
  "flags: $(grep -m1 -o -w -E 'avx512f|avx2|fma' /proc/cpuinfo | sort -u | xargs)"
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"

gcc -O3 -march=native -o "$out/mandel_ref" "$ref/mandel_ref.c"
modes=(scalar avx2)
if grep -q -w avx512f /proc/cpuinfo; then modes+=(avx512); fi

echo "# building the release benchmark (swift test -c release) ..."
if ! log=$(cd "$root" && swift build -c release --build-tests -Xswiftc -enable-testing \
  --scratch-path .build-bench 2>&1); then
  echo "$log" >&2
  exit 1
fi
echo "# checking that the kernel has no fused multiply-adds ..."
fused=$(objdump -d --no-show-raw-insn "$root"/.build-bench/release/Tiles.build/*.o \
  | grep -c -E 'vfn?m(add|sub)[0-9]' || true)
echo "fused multiply-add instructions in Tiles: $fused"

swift_lines=$(cd "$root" && PLAYFIELD_BENCH=1 PLAYFIELD_BENCH_RUNS=$runs swift test -c release -Xswiftc -enable-testing \
  --scratch-path .build-bench --skip-build --filter TilesTests.BenchmarkTests 2>&1 \
  | grep -o 'BENCH .*' || true)

echo
# The best Miter/s of `mandel_ref ... $mode` (itself best of 5) over ceil(runs / 5) runs.
c_mips() {
  local best=0 value
  for _ in $(seq $(((runs + 4) / 5))); do
    value=$("$out/mandel_ref" "$@" | tail -1)
    best=$(echo "if ($value > $best) $value else $best" | bc -l)
  done
  echo "$best"
}

echo "## Kernel throughput, Miter/s (best of $runs runs each)"
for tile in "5 14 11 1000" "0 0 0 200" "20 439128 478211 1000" "12 315 2050 1000"; do
  read -r z x y it <<<"$tile"
  line="$z/$x/$y@$it:"
  for mode in "${modes[@]}"; do
    line+=" C-$mode $(c_mips "$z" "$x" "$y" "$it" "$mode")"
  done
  for kernel in simd4 simd8; do
    for threads in 1 2; do
      value=$(grep -o "tile=$z/$x/$y iter=$it kernel=$kernel threads=$threads .*" <<<"$swift_lines" \
        | sed -E 's/.*Miter_per_s=([0-9.]+).*/\1/')
      line+=" swift-$kernel-${threads}t ${value:-?}"
    done
  done
  echo "$line"
done

echo
echo "## 64 level-3 tiles at iter=1000, one after another"
c_ms=0
for y in 0 1 2 3 4 5 6 7; do
  for x in 0 1 2 3 4 5 6 7; do
    best=1000000000
    for _ in $(seq $(((runs + 4) / 5))); do
      ms=$("$out/mandel_ref" 3 "$x" "$y" 1000 avx2 | head -1 | sed -E 's/.*best_of_5_ms=([0-9.]+).*/\1/')
      best=$(echo "if ($ms < $best) $ms else $best" | bc -l)
    done
    c_ms=$(echo "$c_ms + $best" | bc -l)
  done
done
printf 'C avx2, compute only, one core: %.1f ms\n' "$c_ms"
grep -o 'tiles64 .*' <<<"$swift_lines" | sed 's/^/Swift in-process, compute+colour+PNG, 2 threads: /'

echo
echo "## PNG settings on the same 64 tiles (palette PNG where exact, and all 64 as RGB)"
grep -o 'png .*' <<<"$swift_lines" || true
