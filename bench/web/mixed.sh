#!/usr/bin/env bash
# The WebSocket door's cost to the tick (bench/README.md, "The play page"):
# 16 carom-loadgen players in two rooms of arena (two 4 v 4s) against a real
# carom-server on loopback, all over UDP (udp), or the first 8 (four a room)
# over the WebSocket door as the play page speaks it (mixed), phases in the
# order udp mixed mixed udp ..., each with a fresh server, all in one run.
#
#   mixed.sh BUILD [WINDOW_S [ROUNDS]]
#
# A phase plays 2 × WINDOW_S + 1 s (default 15): the server's stats line
# (--stats-interval WINDOW_S) at 2 × WINDOW_S covers the second window only,
# every client long joined. Per phase: the tick's work p50/p99 and lateness
# p99 over that window, the server process's CPU (all its threads, the door's
# included, from /proc/PID/stat) over about the same window, and what the
# clients saw. Then the ratio of the mixed phases' mean tick p99 to the udp
# phases'. ROUNDS (default 2) pairs of phases. BUILD is a build directory
# (build/release). Needs python3.
set -euo pipefail
build=$(cd "$1" && pwd)
window=${2:-15}
rounds=${3:-2}
server="$build/server/carom-server"
loadgen="$build/tools/loadgen/carom-loadgen"
maps="$(cd "$(dirname "$0")/../.." && pwd)/shared/game/maps"
work=$(mktemp -d)
server_pid=
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT
field() { python3 -c "import json,sys; d=json.load(open('$1')); print(eval(sys.argv[1]))" "$2"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server_pid/stat"; }

phase() {  # phase NAME WS_CLIENTS: one line of figures, appended to $work/NAME
  local name=$1 ws=$2
  rm -f "$work/ready.json"
  "$server" --bind 127.0.0.1 --port 0 --http 127.0.0.1:0 --rooms 2 --map "$maps/arena.json" \
    --ready-file "$work/ready.json" --stats-interval "$window" 2>"$work/server.log" &
  server_pid=$!
  for _ in $(seq 100); do [[ -s "$work/ready.json" ]] && break; sleep 0.1; done
  [[ -s "$work/ready.json" ]] || { cat "$work/server.log"; exit 1; }
  local port http args=()
  port=$(field "$work/ready.json" "d['port']")
  http=$(field "$work/ready.json" "d['http_port']")
  ((ws > 0)) && args=(--ws "ws://127.0.0.1:$http/ws" --ws-clients "$ws")
  "$loadgen" --server "127.0.0.1:$port" --clients 16 --rooms 2 --seconds $((2 * window + 1)) \
    --maps-dir "$maps" --json "${args[@]}" >"$work/loadgen.json" 2>"$work/loadgen.log" &
  local loadgen_pid=$! before after
  sleep "$window"
  before=$(cpu_ticks)
  sleep "$window"
  after=$(cpu_ticks)
  wait "$loadgen_pid" || true
  kill -INT "$server_pid"
  wait "$server_pid" || true
  server_pid=
  local line
  line=$(grep -E 'stats: tick p50' "$work/server.log" | sed -n 2p)
  [[ -n "$line" ]] || { echo "$name: no second stats line"; tail "$work/server.log"; exit 1; }
  python3 - "$name" "$line" "$work/loadgen.json" "$before" "$after" "$window" \
    "$(getconf CLK_TCK)" >>"$work/$name" <<'EOF'
import json, re, sys
name, line, report, before, after, window, hz = sys.argv[1:]
p50, p99 = map(float, re.search(r'tick p50 ([0-9.]+) ms p99 ([0-9.]+) ms', line).groups())
late = float(re.search(r'late p99 ([0-9.]+)', line).group(1))
clients = int(re.search(r'([0-9]+) clients', line).group(1))
cpu = (int(after) - int(before)) / int(hz) / float(window) * 100
r = json.load(open(report))
print(json.dumps({'phase': name, 'tick_p50_ms': p50, 'tick_p99_ms': p99, 'late_p99_ms': late,
                  'clients': clients, 'server_cpu_pct': round(cpu, 1), 'ok': r['ok'],
                  'ws_clients': r['ws_clients'], 'rtt_p99_ms': r['rtt_ms']['p99'],
                  'gap_max_ms': r['update_gap_ms']['max'], 'resyncs': r['updates']['resyncs']}))
EOF
  tail -n1 "$work/$name"
}

for ((k = 0; k < rounds; ++k)); do
  if ((k % 2 == 0)); then
    phase udp 0
    phase mixed 8
  else
    phase mixed 8
    phase udp 0
  fi
done
python3 - "$work/udp" "$work/mixed" <<'EOF'
import json, sys
udp, mixed = ([json.loads(l) for l in open(f)] for f in sys.argv[1:])
mean = lambda rs, k: sum(r[k] for r in rs) / len(rs)
for label, rs in (('16 UDP', udp), ('8 UDP + 8 WebSocket', mixed)):
    print(f"{label}: tick p99 {', '.join(str(r['tick_p99_ms']) for r in rs)} ms "
          f"(mean {mean(rs, 'tick_p99_ms'):.3f}), p50 mean {mean(rs, 'tick_p50_ms'):.3f} ms, "
          f"server CPU mean {mean(rs, 'server_cpu_pct'):.1f} % of a core")
print(f"tick p99 ratio, mixed / udp: {mean(mixed, 'tick_p99_ms') / mean(udp, 'tick_p99_ms'):.2f}")
EOF
