#!/usr/bin/env bash
# End to end over real UDP on 127.0.0.1: carom-server with an ephemeral port,
# four headless bot clients (carom-loadgen) for 11 s of play with garbage
# datagrams mixed in, then SIGTERM. The replay the server wrote must verify,
# end on the hash the server logged, and the garbage must have been counted.
# The stats file must be JSON with every counter, and say healthy: false once
# the server has stopped. The same joins and inputs replayed through the server
# logic over the in-process link must then write the same replay, byte for byte.
# Waits poll for their condition (with generous bounds), never sleep a guess.
#   e2e_udp.sh CAROM_SERVER CAROM_LOADGEN CAROM_REPLAY MAPS_DIR CAROM_SERVER_REENACT JSON_FIELD
set -euo pipefail
server_bin="$1" loadgen_bin="$2" replay_bin="$3" maps="$4" reenact_bin="$5" json_field="$6"

work=$(mktemp -d)
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- server log"; tail -n 40 "$work/server.log" || true; exit 1; }

"$server_bin" --bind 127.0.0.1 --port 0 --rooms 1 --map "$maps/arena.json" \
  --replay-dir "$work/replays" --ready-file "$work/ready.json" --stats-file "$work/stats.json" \
  --stats-interval 5 2>"$work/server.log" &
server_pid=$!

for _ in $(seq 100); do [[ -s "$work/ready.json" ]] && break; sleep 0.1; done
[[ -s "$work/ready.json" ]] || fail "server not ready within 10 s"
port=$(sed -E 's/.*"port":([0-9]+).*/\1/' "$work/ready.json")
echo "server on 127.0.0.1:$port"

# A lost client still fails loadgen; the update-gap bound is loose here (the
# flood test measures gaps): on 2 busy cores, under ASan, a process can stall.
timeout 40 "$loadgen_bin" --server "127.0.0.1:$port" --clients 4 --rooms 1 --seconds 11 \
  --max-gap-ms 1500 --garbage 50 --maps-dir "$maps" --json >"$work/loadgen.json" 2>"$work/loadgen.log" ||
  { cat "$work/loadgen.log" "$work/loadgen.json"; fail "loadgen failed"; }
cat "$work/loadgen.json"

# The stats file is rewritten every second: wait for one that counts the garbage.
invalid=0
for _ in $(seq 300); do
  invalid=$("$json_field" "$work/stats.json" /invalid_total 2>/dev/null || echo 0)
  [[ "$invalid" -ge 50 ]] && break
  sleep 0.1
done
[[ "$invalid" -ge 50 ]] || fail "server counted $invalid invalid datagrams within 30 s, expected >= 50"
grep -qE 'stats: .*send errors [0-9]+' "$work/server.log" || fail "stats line lacks send errors"

# Every counter of the stats file, as a number ("invalid" by reason).
counters=(/uptime_s /tick /tick_ms_p50 /tick_ms_p99 /tick_ms_max /tick_late_ms_p50
  /tick_late_ms_p99 /tick_late_ms_max /ticks_catch_up /ticks_dropped /clients /players
  /rooms /matches_finished /packets_in /bytes_in /packets_out /bytes_out /send_errors
  /invalid_total /inputs_stale /inputs_duplicate /inputs_repeated /full_states
  /updates "/invalid/too short" "/invalid/too long" "/invalid/bad identifier"
  "/invalid/malformed" "/invalid/unpadded request" "/invalid/unknown sender"
  "/invalid/wrong client id" "/invalid/unexpected type")
check_stats() {  # check_stats HEALTHY: the stats file parses, says HEALTHY, has every counter
  local values healthy
  values=$("$json_field" "$work/stats.json" /healthy "${counters[@]}" 2>"$work/json.err") ||
    fail "stats file: $(cat "$work/json.err")"
  healthy=$(head -n1 <<<"$values")
  [[ "$healthy" == "$1" ]] || fail "stats file says healthy: $healthy, expected $1"
  tail -n +2 <<<"$values" | grep -vqE '^[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?$' &&
    fail "stats file has a counter that is not a number: $(paste -sd' ' <<<"$values")"
  return 0
}
check_stats true

# The clients are gone: the room sleeps (its replay flushed) before the server stops.
for _ in $(seq 100); do grep -q "nobody is in it; it sleeps" "$work/server.log" && break; sleep 0.1; done
grep -q "nobody is in it; it sleeps" "$work/server.log" || fail "the empty room did not sleep within 10 s"

kill -TERM "$server_pid"
rc=0
for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$server_pid" 2>/dev/null && fail "server still running 10 s after SIGTERM"
wait "$server_pid" || rc=$?
server_pid=""
[[ $rc -eq 0 ]] || fail "server exited with $rc after SIGTERM"
check_stats false  # the last word of a stopped server

shopt -s nullglob
files=("$work"/replays/*.crpl)
[[ ${#files[@]} -eq 1 ]] || fail "expected one replay, found ${#files[@]}"
logged=$(grep -oE 'final hash [0-9a-f]{16}' "$work/server.log" | tail -n1 | awk '{print $3}')
[[ -n "$logged" ]] || fail "server logged no final hash"

verify=$("$replay_bin" verify --synctest "${files[0]}") || fail "verify: $verify"
echo "$verify"
verified=$(grep -oE 'final hash [0-9a-f]{16}' <<<"$verify" | awk '{print $3}')
[[ "$verified" == "$logged" ]] || fail "replay ends on $verified, server logged $logged"
ticks=$(grep -oE 'OK: [0-9]+ ticks' <<<"$verify" | awk '{print $2}')
[[ "$ticks" -ge 600 ]] || fail "only $ticks ticks recorded"
info=$("$replay_bin" info --json "${files[0]}")
humans=$(grep -o '"bot":false' <<<"$info" | wc -l)
[[ "$humans" -ge 4 ]] || fail "replay has $humans non-bot players, expected 4: $info"
same=$("$reenact_bin" "${files[0]}" "$maps" "$work/reenacted") || fail "in-process re-run: $same"
echo "$same"
echo "PASS: $ticks ticks, final hash $logged, $invalid invalid datagrams counted"
