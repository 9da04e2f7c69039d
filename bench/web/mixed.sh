#!/usr/bin/env bash
# The WebSocket door's cost to the tick (bench/README.md, "The play page"):
# 16 carom-loadgen players in two rooms of arena (two 4 v 4s) against a real
# carom-server on loopback, all over UDP (udp), or the first 8 (four a room)
# over the WebSocket door as the play page speaks it (mixed), phases in the
# order udp mixed mixed udp ..., each with a fresh server, all in one run.
#
#   mixed.sh BUILD [WINDOW_S [ROUNDS [BEFORE_BUILD]]]
#
# A phase plays 2 × WINDOW_S + 1 s (default 15): the server's stats line
# (--stats-interval WINDOW_S) at 2 × WINDOW_S covers the second window only,
# every client long joined. Per phase: the tick's work p50/p99 (and, from a
# server that prints them, the p99 of its parts: the rooms, the UDP sends,
# the door's hand-over) and lateness p99 over that window, the server
# process's CPU (all its threads, the door's included, from /proc/PID/stat)
# over about the same window, what the clients saw, and the load average
# at its end. Then, per server, the ratio of the mixed phases' tick p99 to
# the udp phases' (of the medians, and of the means). ROUNDS (default 2)
# pairs of phases. BEFORE_BUILD (another build directory): its server plays
# the same phases, interleaved with BUILD's (before udp, after udp, after
# mixed, before mixed, then the other way round), against BUILD's
# carom-loadgen. BUILD is a build directory (build/release). Needs python3.
set -euo pipefail
build=$(cd "$1" && pwd)
window=${2:-15}
rounds=${3:-2}
before=${4:+$(cd "$4" && pwd)}
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

phase() {  # phase SERVER_LABEL SERVER NAME WS_CLIENTS: a line of figures, appended to $work/results
  local label=$1 server=$2 name=$3 ws=$4
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
  local loadgen_pid=$! cpu_before cpu_after
  sleep "$window"
  cpu_before=$(cpu_ticks)
  sleep "$window"
  cpu_after=$(cpu_ticks)
  wait "$loadgen_pid" || true
  kill -INT "$server_pid"
  wait "$server_pid" || true
  server_pid=
  local line
  line=$(grep -E 'stats: tick p50' "$work/server.log" | sed -n 2p)
  [[ -n "$line" ]] || { echo "$label $name: no second stats line"; tail "$work/server.log"; exit 1; }
  python3 - "$label" "$name" "$line" "$work/loadgen.json" "$cpu_before" "$cpu_after" "$window" \
    "$(getconf CLK_TCK)" "$(cut -d' ' -f1 /proc/loadavg)" >>"$work/results" <<'EOF'
import json, re, sys
label, name, line, report, before, after, window, hz, load = sys.argv[1:]
p50, p99 = map(float, re.search(r'tick p50 ([0-9.]+) ms p99 ([0-9.]+) ms', line).groups())
parts = re.search(r'rooms ([0-9.]+), UDP sends ([0-9.]+), door hand-over ([0-9.]+) ms', line)
late = float(re.search(r'late p99 ([0-9.]+)', line).group(1))
clients = int(re.search(r'([0-9]+) clients', line).group(1))
cpu = (int(after) - int(before)) / int(hz) / float(window) * 100
r = json.load(open(report))
out = {'server': label, 'phase': name, 'tick_p50_ms': p50, 'tick_p99_ms': p99}
if parts:
    out.update(zip(('rooms_p99_ms', 'udp_p99_ms', 'door_p99_ms'), map(float, parts.groups())))
out.update({'late_p99_ms': late, 'clients': clients, 'server_cpu_pct': round(cpu, 1), 'ok': r['ok'],
            'ws_clients': r['ws_clients'], 'rtt_p99_ms': r['rtt_ms']['p99'],
            'gap_max_ms': r['update_gap_ms']['max'], 'resyncs': r['updates']['resyncs'],
            'load_1min': float(load)})
print(json.dumps(out))
EOF
  tail -n1 "$work/results"
}

after="after $build/server/carom-server"
if [[ -n "$before" ]]; then
  was="before $before/server/carom-server"
  order=("$was udp 0" "$after udp 0" "$after mixed 8" "$was mixed 8")
else
  order=("$after udp 0" "$after mixed 8")
fi
for ((k = 0; k < rounds; ++k)); do
  # Every other round the other way round: no phase always first or last.
  for ((i = 0; i < ${#order[@]}; ++i)); do
    ((k % 2 == 0)) && o=${order[i]} || o=${order[${#order[@]} - 1 - i]}
    # shellcheck disable=SC2086
    phase $o
  done
done
python3 - "$work/results" <<'EOF'
import json, statistics, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
mean = lambda xs: sum(xs) / len(xs)
for server in dict.fromkeys(r['server'] for r in rs):
    of = lambda phase, k: [r[k] for r in rs if r['server'] == server and r['phase'] == phase if k in r]
    print(f"{server}:")
    for label, phase in (('16 UDP', 'udp'), ('8 UDP + 8 WebSocket', 'mixed')):
        p99 = of(phase, 'tick_p99_ms')
        parts = ''
        if of(phase, 'door_p99_ms'):
            parts = (f", parts' p99 medians: rooms {statistics.median(of(phase, 'rooms_p99_ms')):.3f}, "
                     f"UDP sends {statistics.median(of(phase, 'udp_p99_ms')):.3f}, "
                     f"door hand-over {statistics.median(of(phase, 'door_p99_ms')):.3f} ms")
        print(f"  {label}: tick p99 {', '.join(str(x) for x in p99)} ms (median "
              f"{statistics.median(p99):.3f}, mean {mean(p99):.3f}), p50 mean "
              f"{mean(of(phase, 'tick_p50_ms')):.3f} ms{parts}, server CPU mean "
              f"{mean(of(phase, 'server_cpu_pct')):.1f} % of a core")
    m, u = of('mixed', 'tick_p99_ms'), of('udp', 'tick_p99_ms')
    print(f"  tick p99, mixed / udp: {statistics.median(m) / statistics.median(u):.2f} (medians), "
          f"{mean(m) / mean(u):.2f} (means)")
print(f"load average (1 min) at the phases' ends: {min(r['load_1min'] for r in rs)}"
      f"–{max(r['load_1min'] for r in rs)}")
EOF
