#!/usr/bin/env bash
# What hosting costs, measured on a real carom-server over loopback
# (bench/README.md, "Idle rooms and match ends"):
#
#   hosting_costs.sh BUILD idle ROOMS [SERVER ARGS...]
#       the server's CPU (its tick thread, from /proc/PID/schedstat) over
#       20 s after 5 s of start-up, its RSS, and the ticks it skipped;
#   hosting_costs.sh BUILD match-ends ROOMS [SERVER ARGS...]
#       ROOMS rooms of bots playing 4-second matches on a copy of rink.json
#       (1 s final pause), recording, for 31 s: every room's match ends on
#       the same tick; the worst tick (the stats file's maximum of each
#       second, read every 0.3 s), the ticks skipped, the matches finished;
#   hosting_costs.sh BUILD join ROOMS
#       8 carom-loadgen players in room 0 for 15 s: what they see (round
#       trip, update gaps, resyncs) and the server's tick.
#
# BUILD is a build directory (build/release). Needs python3 for the JSON.
set -euo pipefail
build=$(cd "$1" && pwd) mode=$2 rooms=$3
shift 3
server="$build/server/carom-server"
maps="$(cd "$(dirname "$0")/../.." && pwd)/shared/game/maps"
work=$(mktemp -d)
server_pid=
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT
field() { python3 -c "import json,sys; d=json.load(open('$1')); print(eval(sys.argv[1]))" "$2"; }

start() {  # start ARGS...: carom-server on 127.0.0.1, ready
  "$server" --bind 127.0.0.1 --port 0 --ready-file "$work/ready.json" \
    --stats-file "$work/stats.json" --stats-interval 0 "$@" 2>"$work/server.log" &
  server_pid=$!
  for _ in $(seq 100); do [[ -s "$work/ready.json" ]] && break; sleep 0.1; done
  [[ -s "$work/ready.json" ]] || { cat "$work/server.log"; exit 1; }
}
stop() {
  kill -INT "$server_pid"
  wait "$server_pid" || true
  server_pid=
}
cpu_ns() { awk '{print $1}' "/proc/$server_pid/schedstat"; }

case "$mode" in
  idle)
    start --rooms "$rooms" "$@"
    sleep 5
    before=$(cpu_ns)
    sleep 20
    after=$(cpu_ns)
    rss_kb=$(awk '/VmRSS/{print $2}' "/proc/$server_pid/status")
    stop
    echo "$rooms rooms $*: $(python3 -c "print(round(($after-$before)/20e9*100, 2))") % of a core," \
      "RSS $((rss_kb / 1024)) MB, ticks skipped $(field "$work/stats.json" "d['ticks_dropped']")"
    ;;
  match-ends)
    sed -E 's/"match_seconds": [0-9]+/"match_seconds": 4/' "$maps/rink.json" >"$work/rink.json"
    start --rooms "$rooms" --bots --run-empty-rooms --map "$work/rink.json" --final-pause 1 \
      --replay-dir "$work/replays" "$@"
    worst=0
    end=$((SECONDS + 31))
    while ((SECONDS < end)); do
      sleep 0.3
      now=$(field "$work/stats.json" "d['tick_ms_max']" 2>/dev/null || echo 0)
      worst=$(python3 -c "print(max($worst, $now))")
    done
    stop
    echo "$rooms recording rooms $*: $(field "$work/stats.json" "d['matches_finished']") matches," \
      "worst tick $(python3 -c "print(round($worst, 2))") ms," \
      "ticks skipped $(field "$work/stats.json" "d['ticks_dropped']")," \
      "catch-up ticks $(field "$work/stats.json" "d['ticks_catch_up']")"
    ;;
  join)
    start --rooms "$rooms"
    port=$(field "$work/ready.json" "d['port']")
    "$build/tools/loadgen/carom-loadgen" --server "127.0.0.1:$port" --clients 8 --rooms 1 \
      --seconds 15 --json >"$work/loadgen.json" 2>/dev/null || true
    stop
    r="$work/loadgen.json"
    echo "8 players, $rooms rooms: ok $(field "$r" "d['ok']"), round trip p50/p99" \
      "$(field "$r" "d['rtt_ms']['p50']")/$(field "$r" "d['rtt_ms']['p99']") ms," \
      "update gap max $(field "$r" "d['update_gap_ms']['max']") ms," \
      "resyncs $(field "$r" "d['updates']['resyncs']")," \
      "server tick p99 $(field "$work/stats.json" "round(d['tick_ms_p99'], 3)") ms"
    ;;
  *)
    echo "usage: $0 BUILD idle|match-ends|join ROOMS [SERVER ARGS...]" >&2
    exit 2
    ;;
esac
