#!/usr/bin/env bash
# What forged server packets cost a real client: one `carom-client --bot` in
# a 4 v 4 with server bots (arena), its CPU (utime + stime from /proc) over
# 5 s quiet, then over 5 s while carom-flood sends it RATE datagrams a second
# of KINDS as if from its server (raw socket: root). Bounded: about 16 s.
#   forged_server_cpu.sh BUILD_DIR    (prints one line; exit 1 on a resync)
# RATE (1000) datagrams/s; KINDS (server-updates,server-packets).
set -euo pipefail
build=${1:?build dir}
rate=${RATE:-1000} kinds=${KINDS:-server-updates,server-packets}
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$dir"; }
trap cleanup EXIT
"$build/server/carom-server" --bind 127.0.0.1 --port 0 --bots \
  --map "$here/shared/game/maps/arena.json" --ready-file "$dir/ready.json" 2>"$dir/server.log" &
pids+=($!)
for _ in $(seq 100); do [ -s "$dir/ready.json" ] && break; sleep 0.1; done
port=$(sed -E 's/.*"port":([0-9]+).*/\1/' "$dir/ready.json")
"$build/client/app/carom-client" "127.0.0.1:$port" --bot --duration 16 --name victim \
  >"$dir/client.log" 2>&1 &
client=$!
pids+=("$client")
sleep 2
victim=$(grep -oE 'from 127\.[0-9.]+:[0-9]+ joined room 0' "$dir/server.log" | awk '{print $2}' | head -1)
[ -n "$victim" ] || { echo "FAIL: the client never joined"; exit 1; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$client/stat"; }
hz=$(getconf CLK_TCK)
a=$(cpu_ticks); sleep 5; b=$(cpu_ticks)
"$build/tools/loadgen/carom-flood" --port "$port" --seconds 6 --rate "$rate" --attacks "$kinds" \
  --victims "$victim" >"$dir/flood.json" 2>"$dir/flood.err"
c=$(cpu_ticks)
wait "$client" || true
grep -q 'skipped' "$dir/flood.err" && { cat "$dir/flood.err"; exit 1; }
quiet=$(awk -v t=$((b - a)) -v hz="$hz" 'BEGIN {printf "%.1f", 100 * t / hz / 5}')
attacked=$(awk -v t=$((c - b)) -v hz="$hz" 'BEGIN {printf "%.1f", 100 * t / hz / 6}')
summary=$(grep -o 'left after.*' "$dir/client.log" || echo "no summary")
echo "victim $victim: $quiet % of a core quiet, $attacked % under $rate/s of $kinds" \
  "($(grep -o '"sent":[0-9]*' "$dir/flood.json") sent); $summary"
grep -q ' 0 full states asked again' <<<"$summary"
