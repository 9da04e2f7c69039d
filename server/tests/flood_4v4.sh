#!/usr/bin/env bash
# A 4 v 4 (arena, 8 carom-loadgen players) under two carom-flood processes at
# full speed on 127.0.0.1, and how late the server's ticks ran. Bounded:
# the flood lasts FLOOD_S (default 10) seconds, the whole run about 16.
# usage: flood_4v4.sh BUILD_DIR [FLOOD_S]   (prints one JSON line, exit = loadgen's)
# SERVER_ARGS: extra server flags (default --max-sessions-per-ip 8; "" for an
# older server without the flag).
# FLOODERS=N: how many flood processes (default 2; 0 for a baseline).
# FLOOD_NICE=1: the flooders run at nice 19, as an attacker on other machines
# would not take the server's CPU (this host has 2 shared cores).
# SPLIT_CPUS=1: the server alone on CPU 0; the flooders, the players and this
# script's own polling on CPU 1 (taskset): full-speed flooders that cannot
# take the server's core. (The polling's jq and python3 on the server's core
# made ticks 2-4 ms late with no flood at all.) Other work on the machine
# still runs where it likes: give the server its core to itself, or say so.
set -u
[ -n "${SPLIT_CPUS:-}" ] && taskset -cp 1 $$ >/dev/null
build=${1:?build dir}
flood_s=${2:-10}
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
${SPLIT_CPUS:+taskset -c 0} "$build/server/carom-server" --port 0 ${SERVER_ARGS---max-sessions-per-ip 8} --map "$here/shared/game/maps/arena.json" \
    --ready-file "$dir/ready" --stats-file "$dir/stats.json" --stats-interval 0 \
    --log-level warn >"$dir/server.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -s "$dir/ready" ] && break; sleep 0.1; done
port=$(jq -r .port "$dir/ready")
${SPLIT_CPUS:+taskset -c 1} "$build/tools/loadgen/carom-loadgen" --server "127.0.0.1:$port" --clients 8 \
    --seconds $((flood_s + 4)) --seed 7 --json --log-level off >"$dir/loadgen.json" 2>"$dir/loadgen.err" &
lg=$!
sleep 2
for s in $(seq "${FLOODERS:-2}"); do
    ${SPLIT_CPUS:+taskset -c 1} ${FLOOD_NICE:+nice -n 19} "$build/tools/loadgen/carom-flood" --port "$port" --seconds "$flood_s" --seed "$s" \
        >"$dir/flood$s.json" &
    pids+=($!)
done
# The stats file holds the last second's tick figures: keep the worst second.
worst_p99=0; worst_max=0
while kill -0 "$lg" 2>/dev/null; do
    sleep 1
    [ -s "$dir/stats.json" ] || continue
    read -r p99 mx < <(jq -r '"\(.tick_late_ms_p99) \(.tick_late_ms_max)"' "$dir/stats.json" 2>/dev/null || echo "0 0")
    worst_p99=$(python3 -c "print(max($worst_p99, ${p99:-0}))")
    worst_max=$(python3 -c "print(max($worst_max, ${mx:-0}))")
done
wait "$lg"; rc=$?
sent=$(cat "$dir"/flood*.json 2>/dev/null | jq -s 'map(.sent) | add')
jq -c --argjson p99 "$worst_p99" --argjson mx "$worst_max" --argjson sent "${sent:-0}" --argjson rc "$rc" \
    '{flood_sent: $sent, worst_second_late_p99_ms: $p99, late_max_ms: $mx, ticks_catch_up, ticks_dropped,
      late_p50_last_s: .tick_late_ms_p50, invalid_total, invalid, receive: (.receive // null), loadgen_exit: $rc}' \
    "$dir/stats.json"
jq -c '{ok, clients, lost_clients, update_gap_ms, update_share_min, loss_pct}' "$dir/loadgen.json" 2>/dev/null || head -c 600 "$dir/loadgen.json"
exit "$rc"
