#!/usr/bin/env bash
# Fan-out: how many spectators of one session get every frame at 60 Hz.
#
#   Benchmarks/websocket/fanout.sh                 (from anywhere; about a minute per count)
#   COUNTS="200 1000" SECONDS_EACH=10 Benchmarks/websocket/fanout.sh
#   PLAYFIELD_BIN=/tmp/base/.build/release/playfield EXTRA_OPTIONS="" ...   (another build)
#
# With SECONDS_EACH of 21 or more, `/healthz` is also read one second before the counting
# ends (`# during:`): its tick work and lateness then cover a whole 10-second window of the
# steady state, not the spectators' arrival. PERF=1 records `perf record -g` of the server
# for 5 s in the middle of the counting into $out/perf-N.data (4,000 samples per second of a
# thread's CPU time), with `/healthz` before and after (`# perf from:`, `# perf to:`).
#
# Uses the team's load tools in shared/bench (override with BENCH_REF=/path/to/bench):
# wsflood.c (C, epoll) opens N spectator connections to one running bouncing-balls session
# and counts the frames each receives; fanout.py creates and starts the session and runs it.
# The figure is wsflood's `kept>=55fps: K/N` (spectators that received at least 55 frames per
# second), with the server's CPU share beside it. Needs a release build and the test venv:
#   swift build -c release --product playfield && scripts/install-deps.sh --test
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ref=${BENCH_REF:-$root/../shared/bench}
out=${BENCH_OUT:-${TMPDIR:-/tmp}/playfield-bench-fanout}
python=${PYTHON:-$root/.venv/bin/python}
mkdir -p "$out"
# Every spectator comes from 127.0.0.1, one address: past the per-address connection cap (256
# by default) the server refuses them, so the benchmark lifts it (EXTRA_OPTIONS="" for a
# binary older than that option).
extra=${EXTRA_OPTIONS---connections-per-address 4096}

gcc -O2 -o "$out/wsflood" "$ref/wsflood.c"
echo "# machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"

rm -f "$out"/db.sqlite*
"${PLAYFIELD_BIN:-$root/.build/release/playfield}" serve --port 0 --database "$out/db.sqlite" $extra \
  --public "$root/Public" --templates "$root/Templates" >"$out/stdout" 2>"$out/stderr" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  grep -q listening "$out/stdout" 2>/dev/null && break
  sleep 0.1
done
url=$(sed -n 's/^Playfield listening on //p' "$out/stdout")

for n in ${COUNTS:-200 1000 1500 2000}; do
  echo "## $n spectators"
  seconds=${SECONDS_EACH:-10}
  "$python" "$ref/fanout.py" "$url" "$n" "$seconds" --threads 2 \
    --wsflood "$out/wsflood" --server-pid "$server" | grep -v '^# fanout' &
  flood=$!
  # wsflood connects 500 a second, warms up for 1 s, then counts for $seconds.
  counting=$(echo "$n / 500 + 1.5" | bc -l)
  if [ -n "${PERF:-}" ]; then
    sleep "$(echo "$counting + $seconds / 2 - 2.5" | bc -l)"
    echo "# perf from: $(curl -s "$url/healthz")"
    perf record -q -F 4000 -g -p "$server" -o "$out/perf-$n.data" -- sleep 5 2>/dev/null
    echo "# perf to: $(curl -s "$url/healthz")"
    sleep "$(echo "$seconds / 2 - 3.5" | bc -l)"
  elif [ "$seconds" -ge 21 ]; then
    sleep "$(echo "$counting + $seconds - 1" | bc -l)"
  fi
  if [ "$seconds" -ge 21 ] || [ -n "${PERF:-}" ]; then
    echo "# during: $(curl -s "$url/healthz")"
  fi
  wait "$flood"
  curl -s "$url/healthz"
  echo
done
