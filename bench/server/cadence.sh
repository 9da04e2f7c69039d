#!/usr/bin/env bash
# When clients send, measured: two builds side by side in one run (BEFORE,
# then AFTER, scenario by scenario), each a carom-server on loopback with
# carom-loadgen's clients on a 4 v 4 arena, and the AFTER build's clients
# sending every tick (--every-tick: the same protocol and seal, the cadence
# before sending by need). Prints one table; the figures are in
# bench/README.md ("When a client sends").
#
#   bench/server/cadence.sh BEFORE_BUILD AFTER_BUILD   # build/release folders
#
# Environment: SECONDS_EACH (30), SEEDS ("1 2 3": the lossy link's),
# ACK_TICKS ("1 2 4 8": the after build's acknowledgement sweep), OUT (a folder
# for the JSON reports; a temporary one by default).
set -euo pipefail
BEFORE=${1:?usage: cadence.sh BEFORE_BUILD AFTER_BUILD}
AFTER=${2:?usage: cadence.sh BEFORE_BUILD AFTER_BUILD}
HERE=$(cd "$(dirname "$0")" && pwd)
MAPS=$HERE/../../shared/game/maps
SECS=${SECONDS_EACH:-30}
SEEDS=${SEEDS:-"1 2 3"}
ACKS=${ACK_TICKS:-"1 2 4 8"}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"

server_pid=""
cleanup() { if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then kill "$server_pid"; fi; }
trap cleanup EXIT

# run BUILD NAME SERVER_ARGS LOADGEN_ARGS...: one server, one load, a JSON report in OUT/NAME.json
run() {
  local b="$1" name="$2" server_args="$3" w
  shift 3
  w=$(mktemp -d)
  # shellcheck disable=SC2086 # the server's arguments are words
  "$b/server/carom-server" --bind 127.0.0.1 --port 0 --rooms 1 --map "$MAPS/arena.json" \
    --replay-dir "$w/replays" --ready-file "$w/ready.json" $server_args 2>"$w/server.log" &
  server_pid=$!
  for _ in $(seq 100); do [[ -s "$w/ready.json" ]] && break; sleep 0.1; done
  local port
  port=$(sed -E 's/.*"port":([0-9]+).*/\1/' "$w/ready.json")
  "$b/tools/loadgen/carom-loadgen" --server "127.0.0.1:$port" --rooms 1 --seconds "$SECS" \
    --maps-dir "$MAPS" --max-gap-ms 1000 --json "$@" >"$OUT/$name.json" 2>"$OUT/$name.log" || true
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
  rm -rf "$w"
}

for who in before every after; do
  b=$BEFORE; [[ $who != before ]] && b=$AFTER
  cadence=(); [[ $who == every ]] && cadence=(--every-tick)
  run "$b" "$who-bots" "" --clients 8 "${cadence[@]}"
  run "$b" "$who-spectator" "--bots" --clients 0 --spectators 1 "${cadence[@]}"
  for s in $SEEDS; do
    run "$b" "$who-lossy-$s" "" --clients 8 --sim "loss=5,latency=50,jitter=10,seed=$s" "${cadence[@]}"
  done
done
run "$AFTER" "after-human" "" --clients 8 --input human
for a in $ACKS; do
  run "$AFTER" "after-ack-$a" "" --clients 8 --ack-ticks "$a"
done

python3 - "$OUT" "$SEEDS" "$ACKS" <<'EOF'
import json, sys
out, seeds, acks = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
def load(name):
    try:
        with open(f"{out}/{name}.json") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
def p99(values):
    v = sorted(values)
    return v[min(len(v) - 1, round(0.99 * (len(v) - 1)))] if v else float("nan")
def row(label, names):
    rs = [r for r in map(load, names) if r]
    if not rs:
        print(f"| {label} | (no report) |")
        return
    up = sum(r["bytes_per_s"]["out_client_mean"] for r in rs) / len(rs)
    down = sum(r["bytes_per_s"]["in_client_mean"] for r in rs) / len(rs)
    upd = sum(r["updates"]["bytes_mean"] for r in rs) / len(rs)
    gaps = [c["max_gap_ms"] for r in rs for c in r["per_client"]]
    wait = rs[0].get("input_to_update_ms")
    wait_s = f'{wait["p50"]:.0f} / {wait["p99"]:.0f}' if wait and wait["p99"] > 0 else "-"
    ok = all(r["ok"] for r in rs)
    print(f"| {label} | {up:.0f} | {down:.0f} | {upd:.1f} | {p99(gaps)} | {max(gaps)} | "
          f"{sum(r['updates']['full'] for r in rs)} | {wait_s} | {'ok' if ok else 'FAILED'} |")
print("| run | up B/s | down B/s | taken B | gap p99 ms | gap max | full states | input→update p50 / p99 ms | loadgen |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for who in ("before", "every", "after"):
    row(f"{who}: 8 bots, loopback", [f"{who}-bots"])
    row(f"{who}: a spectator, loopback", [f"{who}-spectator"])
    row(f"{who}: 8 bots, 100 ms ±10, 5 % (seeds {' '.join(seeds)})",
        [f"{who}-lossy-{s}" for s in seeds])
row("after: 8 human-like players, loopback", ["after-human"])
for a in acks:
    row(f"after: 8 bots, loopback, --ack-ticks {a}", [f"after-ack-{a}"])
print(f"(JSON reports in {out})")
EOF
