#!/usr/bin/env bash
# Builds PlayfieldFuzz with SwiftPM, instrumented for libFuzzer (coverage + AddressSanitizer),
# in .build-fuzz/, and runs each target on its checked-in corpus in Tests/fuzz/corpus/TARGET:
#   FUZZ_SECONDS=N  explore for N seconds (default 60), keeping what it finds in .build-fuzz/corpus;
#   FUZZ_SECONDS=0  replay the corpus once, exploring nothing;
#   FUZZ_RUNS=N     explore for exactly N executions (a dearer target fewer: `PlayfieldFuzz
#                   list` gives each target's cost factor) from random seed FUZZ_SEED
#                   (default 1), starting from the checked-in corpus alone, so a run repeats
#                   exactly (CI).
# Usage: Tests/fuzz/fuzz.sh [TARGET ...] (default: every target `PlayfieldFuzz list` names).
# A crash stops the run, leaves the input in .build-fuzz/artifacts/ and exits non-zero.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
seconds="${FUZZ_SECONDS:-60}"
scratch="$root/.build-fuzz"
targets=("$@")

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
# Every target and its cost factor come from the binary itself (`FuzzTarget`), the one list.
declare -A cost
while read -r name factor; do cost[$name]=$factor; done < <("$binary" list)
if [ ${#targets[@]} -eq 0 ]; then mapfile -t targets < <("$binary" list | cut -d' ' -f1); fi

mkdir -p "$scratch/artifacts"
for target in "${targets[@]}"; do
  if [ -n "${FUZZ_RUNS:-}" ]; then
    # A fresh copy of the checked-in corpus, so that the same seed explores the same way.
    work="$scratch/repeatable-corpus/$target"
    rm -rf "$work"
    # NB: a dearer target (a soccer input plays up to 24 steps) runs fewer inputs.
    runs=$((FUZZ_RUNS / ${cost[$target]:-1}))
    limit=(-runs="$runs" -seed="${FUZZ_SEED:-1}")
    echo "== $target: $runs runs from seed ${FUZZ_SEED:-1}"
  elif [ "$seconds" = 0 ]; then
    work="$scratch/corpus/$target"
    limit=(-runs=0)
    echo "== $target: the corpus once"
  else
    work="$scratch/corpus/$target"
    limit=(-max_total_time="$seconds")
    echo "== $target: ${seconds}s"
  fi
  mkdir -p "$work"
  if [ -d "Tests/fuzz/corpus/$target" ]; then cp -n "Tests/fuzz/corpus/$target"/* "$work"/ 2>/dev/null || true; fi
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
