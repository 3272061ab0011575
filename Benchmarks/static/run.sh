#!/usr/bin/env bash
# Static-file throughput: Playfield against nginx on the same 4 KiB file, same machine, same run.
#
#   Benchmarks/static/run.sh            # 3 rounds of 10 s each, alternating servers
#   ROUNDS=5 DURATION=20s Benchmarks/static/run.sh
#   NGINX_CONF=Benchmarks/static/nginx-stock.conf Benchmarks/static/run.sh   # Debian's settings
#   PLAYFIELD_BIN="/tmp/before/playfield .build/release/playfield" Benchmarks/static/run.sh
#
# Needs nginx, wrk and a release build (`swift build -c release --product playfield`, or set
# PLAYFIELD_BIN; several binaries, space-separated, are run in turn in every round, so builds
# compare under the same load). Both servers get two worker threads and no access log; wrk
# runs with 2 threads and 64 keep-alive connections over loopback. Besides requests/s, each
# round prints the CPU (user + system) each server and wrk spent per request, from
# /proc/PID/stat around the wrk run: unlike requests/s, it hardly depends on how much of the
# two cores other programs take.
set -euo pipefail
cd "$(dirname "$0")/../.."

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
PLAYFIELD_BIN=${PLAYFIELD_BIN:-.build/release/playfield}
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
NGINX_CONF=${NGINX_CONF:-Benchmarks/static/nginx.conf}
read -r -a binaries <<< "$PLAYFIELD_BIN"

for tool in "$NGINX" wrk /usr/bin/time "${binaries[@]}"; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool is missing" >&2; exit 1; }
done

work=$(mktemp -d /tmp/playfield-bench.XXXXXX)
chmod 755 "$work"
mkdir -p "$work/public"
# 4096 bytes of text, the same file for both servers.
head -c 3072 /dev/urandom | base64 -w 64 | head -c 4096 > "$work/public/4k.txt"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

names=(nginx)
ports=("$(free_port)")
sed -e "s|@DIR@|$work|g" -e "s|@PORT@|${ports[0]}|g" "$NGINX_CONF" > "$work/nginx.conf"
"$NGINX" -c "$work/nginx.conf" -p "$work" &
pids=($!)
cleanup() {
  kill "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
for index in "${!binaries[@]}"; do
  port=$(free_port)
  "${binaries[$index]}" serve --port "$port" --public "$work/public" \
    --database "$work/playfield$index.db" --event-loops 2 \
    > "$work/playfield$index.out" 2> "$work/playfield$index.log" &
  pids+=($!)
  ports+=("$port")
  names+=("playfield$((index + 1))")
done

for port in "${ports[@]}"; do
  for _ in $(seq 100); do
    curl -fsS -o /dev/null "http://127.0.0.1:$port/4k.txt" 2>/dev/null && break
    sleep 0.1
  done
  size=$(curl -fsS "http://127.0.0.1:$port/4k.txt" | wc -c)
  [ "$size" = 4096 ] || { echo "run.sh: port $port serves $size bytes, not 4096" >&2; exit 1; }
done

# Clock ticks of user and of system time of a process and its children (nginx's workers).
cpu_ticks() {
  local user=0 system=0 pid
  for pid in "$1" $(pgrep -P "$1" || true); do
    read -r u s < <(awk '{ print $14, $15 }' "/proc/$pid/stat")
    user=$((user + u))
    system=$((system + s))
  done
  echo "$user $system"
}
tick=$(getconf CLK_TCK)

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "versions: $("$NGINX" -v 2>&1 | cut -d/ -f2), $(wrk --version 2>&1 | head -1 | cut -d' ' -f1-2), $(swift --version 2>/dev/null | head -1)"
echo "nginx:     $NGINX -c $NGINX_CONF (2 workers, access_log off)"
for index in "${!binaries[@]}"; do
  echo "${names[$((index + 1))]}: ${binaries[$index]} serve --event-loops 2 --public DIR"
done
echo "commands:  wrk -t$THREADS -c$CONNECTIONS -d$DURATION http://127.0.0.1:PORT/4k.txt, one server after the other"
echo "columns:   requests/s, server CPU µs per request, wrk CPU µs per request, requests/s against nginx's"
echo "           (the mean line: server CPU µs per request, and of it user and system time)"
echo
declare -A total_rate total_cpu total_user
for round in $(seq "$ROUNDS"); do
  line=$(printf "%-6s" "$round")
  nginx_rate=0
  for index in "${!ports[@]}"; do
    read -r user_before system_before < <(cpu_ticks "${pids[$index]}")
    out=$(/usr/bin/time -f "wrk-cpu %U %S" \
      wrk "-t$THREADS" "-c$CONNECTIONS" "-d$DURATION" "http://127.0.0.1:${ports[$index]}/4k.txt" 2>&1)
    read -r user_after system_after < <(cpu_ticks "${pids[$index]}")
    requests=$(echo "$out" | awk '/requests in/ { print $1 }')
    rate=$(echo "$out" | awk '/^Requests\/sec:/ { print $2 }')
    user=$(echo "($user_after - $user_before) * 1000000 / $tick / $requests" | bc -l)
    server=$(echo "$user + ($system_after - $system_before) * 1000000 / $tick / $requests" | bc -l)
    client=$(echo "$out" | awk -v n="$requests" '/^wrk-cpu/ { print ($2 + $3) * 1000000 / n }')
    [ "$index" = 0 ] && nginx_rate=$rate
    total_rate[$index]=$(echo "${total_rate[$index]:-0} + $rate" | bc -l)
    total_cpu[$index]=$(echo "${total_cpu[$index]:-0} + $server" | bc -l)
    total_user[$index]=$(echo "${total_user[$index]:-0} + $user" | bc -l)
    line+=$(printf "  %s %6.0f/s %5.2f %5.2f %4.2fx" "${names[$index]}" "$rate" "$server" "$client" \
      "$(echo "$rate / $nginx_rate" | bc -l)")
  done
  echo "$line"
done
line="mean  "
for index in "${!ports[@]}"; do
  cpu=$(echo "${total_cpu[$index]} / $ROUNDS" | bc -l)
  user=$(echo "${total_user[$index]} / $ROUNDS" | bc -l)
  line+=$(printf "  %s %6.0f/s %5.2f (%4.2f+%4.2f) %4.2fx" "${names[$index]}" \
    "$(echo "${total_rate[$index]} / $ROUNDS" | bc -l)" "$cpu" "$user" "$(echo "$cpu - $user" | bc -l)" \
    "$(echo "${total_rate[$index]} / ${total_rate[0]}" | bc -l)")
done
echo "$line"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
