#!/bin/sh
# Step-time benchmarks of the simulation models, in release mode.
# Usage: Benchmarks/simulation/run.sh [scratch path]   (run from the package root)
set -eu
scratch="${1:-.build-bench}"
# NB: the same flags as Benchmarks/tiles/run.sh, so that the two share one release build.
PLAYFIELD_BENCH=1 swift test -c release -Xswiftc -enable-testing --scratch-path "$scratch" \
  --filter StepBenchmark 2>&1 \
  | grep BENCH | sed 's/^BENCH //'
