#!/bin/sh
# Step-time benchmarks of the simulation models, in release mode.
# Usage: Benchmarks/simulation/run.sh [scratch path]   (run from the package root)
set -eu
scratch="${1:-.build-bench}"
PLAYFIELD_BENCH=1 swift test -c release --scratch-path "$scratch" --filter StepBenchmark 2>&1 \
  | grep BENCH | sed 's/^BENCH //'
