#!/bin/sh
# Street soccer opponents: 50 seeded matches strong against novice (and shorter series of the
# other pairings), with each computer turn's CPU time, in release mode.
# Usage: Benchmarks/soccer/run.sh [scratch path]   (run from the package root)
set -eu
scratch="${1:-.build-bench}"
PLAYFIELD_BENCH=1 swift test -c release --scratch-path "$scratch" --filter StreetSoccerBenchmark 2>&1 \
  | grep BENCH | sed 's/^BENCH //'
