#!/usr/bin/env bash
# Builds PlayfieldFuzz with SwiftPM, instrumented for libFuzzer (coverage + AddressSanitizer),
# in .build-fuzz/, and runs each target for FUZZ_SECONDS (default 60) on a copy of its checked-in
# corpus in Tests/fuzz/corpus/TARGET. Usage: Tests/fuzz/fuzz.sh [TARGET ...] (default: all).
# A crash stops the run, leaves the input in .build-fuzz/artifacts/ and exits non-zero.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
seconds="${FUZZ_SECONDS:-60}"
scratch="$root/.build-fuzz"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(http json websocket tile config input snapshot); fi

# NB: -sanitize=fuzzer would link libFuzzer's own main, which clashes with the one SwiftPM
# gives every executable; so instrument with -sanitize-coverage and link the no-main runtime.
runtime="$(dirname "$(swiftc -print-target-info | sed -n 's/.*"runtimeResourcePath": "\(.*\)".*/\1/p')")"
fuzzer="$(find "$runtime" -name 'libclang_rt.fuzzer_no_main-x86_64.a' \
  2>/dev/null | head -1)"
if [ -z "$fuzzer" ]; then
  echo "libclang_rt.fuzzer_no_main is not in this toolchain" >&2
  exit 1
fi
swift build --scratch-path "$scratch" -c debug --product PlayfieldFuzz \
  -Xswiftc -sanitize=address \
  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
  -Xlinker --undefined=LLVMFuzzerRunDriver -Xlinker "$fuzzer" -Xlinker -lstdc++ 2>&1 |
  grep -v "Cannot export local symbol"
binary="$scratch/debug/PlayfieldFuzz"

mkdir -p "$scratch/artifacts"
for target in "${targets[@]}"; do
  work="$scratch/corpus/$target"
  mkdir -p "$work"
  if [ -d "Tests/fuzz/corpus/$target" ]; then cp -n "Tests/fuzz/corpus/$target"/* "$work"/ 2>/dev/null || true; fi
  echo "== $target: ${seconds}s (0: the corpus once)"
  # FUZZ_SECONDS=0 replays the checked-in corpus once and explores nothing (what CI does, so
  # that a test run is repeatable); anything else explores for that many seconds.
  if [ "$seconds" = 0 ]; then limit=(-runs=0); else limit=(-max_total_time="$seconds"); fi
  "$binary" "$target" "${limit[@]}" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$scratch/artifacts/$target-" "$work" 2>&1 |
    grep -E '^(Done [0-9]+ runs|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY|.*(crash|deadly signal|Test unit written))' ||
    true
  # libFuzzer's status is lost in the pipe: a crash leaves an artifact.
  if compgen -G "$scratch/artifacts/$target-*" > /dev/null; then
    echo "== $target: CRASH, see $scratch/artifacts/" >&2
    exit 1
  fi
done
