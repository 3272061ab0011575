#!/usr/bin/env bash
# Static-file throughput: Playfield against nginx on the same 4 KiB file, same machine, same run.
#
#   Benchmarks/static/run.sh            # 3 rounds of 10 s each, alternating servers
#   ROUNDS=5 DURATION=20s Benchmarks/static/run.sh
#   NGINX_CONF=Benchmarks/static/nginx-stock.conf Benchmarks/static/run.sh   # Debian's settings
#
# Needs nginx, wrk and a release build (`swift build -c release --product playfield`, or set
# PLAYFIELD_BIN). Both servers get two worker threads and no access log; wrk runs with 2
# threads and 64 keep-alive connections over loopback.
set -euo pipefail
cd "$(dirname "$0")/../.."

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
PLAYFIELD_BIN=${PLAYFIELD_BIN:-.build/release/playfield}
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
NGINX_CONF=${NGINX_CONF:-Benchmarks/static/nginx.conf}

for tool in "$NGINX" wrk "$PLAYFIELD_BIN"; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool is missing" >&2; exit 1; }
done

work=$(mktemp -d /tmp/playfield-bench.XXXXXX)
chmod 755 "$work"
mkdir -p "$work/public"
# 4096 bytes of text, the same file for both servers.
head -c 3072 /dev/urandom | base64 -w 64 | head -c 4096 > "$work/public/4k.txt"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
nginx_port=$(free_port)
playfield_port=$(free_port)

sed -e "s|@DIR@|$work|g" -e "s|@PORT@|$nginx_port|g" "$NGINX_CONF" > "$work/nginx.conf"
"$NGINX" -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
"$PLAYFIELD_BIN" serve --port "$playfield_port" --public "$work/public" \
  --database "$work/playfield.db" --event-loops 2 > "$work/playfield.out" 2> "$work/playfield.log" &
playfield_pid=$!
cleanup() {
  kill "$nginx_pid" "$playfield_pid" 2>/dev/null || true
  wait "$nginx_pid" "$playfield_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

for port in "$nginx_port" "$playfield_port"; do
  for _ in $(seq 100); do
    curl -fsS -o /dev/null "http://127.0.0.1:$port/4k.txt" 2>/dev/null && break
    sleep 0.1
  done
  size=$(curl -fsS "http://127.0.0.1:$port/4k.txt" | wc -c)
  [ "$size" = 4096 ] || { echo "run.sh: port $port serves $size bytes, not 4096" >&2; exit 1; }
done

nginx_cmd="wrk -t$THREADS -c$CONNECTIONS -d$DURATION http://127.0.0.1:$nginx_port/4k.txt"
playfield_cmd="wrk -t$THREADS -c$CONNECTIONS -d$DURATION http://127.0.0.1:$playfield_port/4k.txt"
rate() { "$@" | awk '/^Requests\/sec:/ { print $2 }'; }

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "versions: $("$NGINX" -v 2>&1 | cut -d/ -f2), $(wrk --version 2>&1 | head -1 | cut -d' ' -f1-2), $(swift --version 2>/dev/null | head -1)"
echo "nginx:     $NGINX -c $NGINX_CONF (2 workers, access_log off)"
echo "playfield: $PLAYFIELD_BIN serve --event-loops 2 --public DIR"
echo "commands:  $nginx_cmd"
echo "           $playfield_cmd"
echo
printf "%-6s %14s %14s %8s\n" round "nginx req/s" "playfield" ratio
total_nginx=0
total_playfield=0
for round in $(seq "$ROUNDS"); do
  n=$(rate $nginx_cmd)
  p=$(rate $playfield_cmd)
  total_nginx=$(echo "$total_nginx + $n" | bc)
  total_playfield=$(echo "$total_playfield + $p" | bc)
  printf "%-6s %14.0f %14.0f %8.2f\n" "$round" "$n" "$p" "$(echo "$p / $n" | bc -l)"
done
printf "%-6s %14.0f %14.0f %8.2f\n" mean "$(echo "$total_nginx / $ROUNDS" | bc -l)" \
  "$(echo "$total_playfield / $ROUNDS" | bc -l)" "$(echo "$total_playfield / $total_nginx" | bc -l)"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
