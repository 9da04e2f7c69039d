#!/usr/bin/env bash
# A 4-player match over a bad link, end to end on 127.0.0.1: three carom-loadgen
# players and one carom-client --bot, each direction of each through the link
# simulator (--sim) with SIM (default 5 % loss, 50 ± 10 ms latency: a 100 ms
# round trip; 2 % duplication and 2 % reordering), for SECONDS (60) of match
# time. Holds
# when every client stays connected to the end (loadgen's verdict, the bot's
# exit code), every client's copy of the match holds a state at the end (a
# failed proof, printed, was recovered from by a FullState), the server
# recovered inputs through redundancy (inputs_recovered > 0), a change of
# input reached the match within a round trip and CHANGE_SLACK_MS (250: a
# change lost twice rides on the acknowledgements, every 5 ticks; loadgen's
# input → update p99 against its round-trip p99: a client sends only changes,
# so the server repeating the last input is the rule, not a loss), and every
# replay the server wrote verifies (--synctest). SEED (printed) repeats a run.
#   e2e_lossy_link.sh CAROM_SERVER CAROM_LOADGEN CAROM_CLIENT CAROM_REPLAY MAPS_DIR JSON_FIELD
set -euo pipefail
server_bin="$1" loadgen_bin="$2" client_bin="$3" replay_bin="$4" maps="$5" json_field="$6"
seconds="${SECONDS_OF_PLAY:-60}"
seed="${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
sim="${SIM:-loss=5,latency=50,jitter=10,dup=2,reorder=2}"
change_slack="${CHANGE_SLACK_MS:-250}"
echo "link $sim each way, $seconds s, seed $seed (SEED=$seed repeats it)"

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $* (seed $seed)"; echo "--- server log"; tail -n 40 "$work/server.log" || true; exit 1; }

"$server_bin" --bind 127.0.0.1 --port 0 --rooms 1 --map "$maps/arena.json" \
  --replay-dir "$work/replays" --ready-file "$work/ready.json" --stats-file "$work/stats.json" \
  --stats-interval 10 2>"$work/server.log" &
server_pid=$!
pids+=("$server_pid")
for _ in $(seq 100); do [[ -s "$work/ready.json" ]] && break; sleep 0.1; done
[[ -s "$work/ready.json" ]] || fail "server not ready within 10 s"
port=$(sed -E 's/.*"port":([0-9]+).*/\1/' "$work/ready.json")

# The update-gap bound is loose (1.5 s): on 2 busy cores, under ASan, a
# process can stall; a lost client fails either way.
timeout $((seconds + 30)) "$loadgen_bin" --server "127.0.0.1:$port" --clients 3 --rooms 1 \
  --seconds "$((seconds + 2))" --max-gap-ms 1500 --maps-dir "$maps" --seed "$seed" \
  --sim "$sim" --json >"$work/loadgen.json" 2>"$work/loadgen.log" &
loadgen_pid=$!
pids+=("$loadgen_pid")
timeout $((seconds + 30)) "$client_bin" "127.0.0.1:$port" --name lossy --bot --duration "$seconds" \
  --map-dir "$maps" --sim "$sim,seed=$((seed + 1))" 2>"$work/client.log" &
client_pid=$!
pids+=("$client_pid")

rc=0
wait "$loadgen_pid" || rc=$?
cat "$work/loadgen.log" "$work/loadgen.json"
[[ $rc -eq 0 ]] || fail "loadgen exited with $rc (a client lost or refused)"
rc=0
wait "$client_pid" || rc=$?
cat "$work/client.log"
[[ $rc -eq 0 ]] || fail "carom-client --bot exited with $rc"
grep -q "left after" "$work/client.log" || fail "the bot client never joined"
grep -q "the match held" "$work/client.log" || fail "the bot client's copy of the match held no state"
read -r mismatches resyncs without < <("$json_field" "$work/loadgen.json" /updates/hash_mismatches \
  /updates/resyncs /updates/without_state | paste -sd' ')
echo "loadgen clients: $mismatches failed state checks, $resyncs copies dropped for a full state," \
  "$without without a state at the end"
[[ "$without" -eq 0 ]] || fail "$without loadgen clients ended without a copy of the match"

# Wait for a stats file written after the clients left.
for _ in $(seq 30); do
  [[ "$("$json_field" "$work/stats.json" /clients 2>/dev/null || echo 1)" == 0 ]] && break
  sleep 0.2
done
read -r ticks recovered repeated duplicate < <("$json_field" "$work/stats.json" /tick \
  /inputs_recovered /inputs_repeated /inputs_duplicate | paste -sd' ')
echo "server: $ticks ticks; inputs recovered through redundancy $recovered, repeated $repeated," \
  "duplicates dropped $duplicate"
[[ "$recovered" -gt 0 ]] || fail "no input was recovered through redundancy"
read -r change_p99 rtt_p99 < <("$json_field" "$work/loadgen.json" /input_to_update_ms/p99 \
  /rtt_ms/p99 | paste -sd' ')
echo "loadgen clients: input → update p99 $change_p99 ms, round trip p99 $rtt_p99 ms"
awk -v c="$change_p99" -v r="$rtt_p99" -v s="$change_slack" 'BEGIN { exit !(c > 0 && c <= r + s) }' ||
  fail "a change of input took $change_p99 ms (p99) to reach the match, past the round trip's $rtt_p99 ms + $change_slack"

kill -TERM "$server_pid"
for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$server_pid" 2>/dev/null && fail "server still running 10 s after SIGTERM"
rc=0
wait "$server_pid" || rc=$?
[[ $rc -eq 0 ]] || fail "server exited with $rc after SIGTERM"

shopt -s nullglob
files=("$work"/replays/*.crpl)
[[ ${#files[@]} -ge 1 ]] || fail "no replay written"
recorded=0
for f in "${files[@]}"; do
  out=$("$replay_bin" verify --synctest "$f") || fail "$(basename "$f") does not verify: $out"
  echo "$out"
  recorded=$((recorded + $(grep -oE 'OK: [0-9]+ ticks' <<<"$out" | awk '{print $2}')))
done
[[ "$recorded" -ge $((seconds * 60)) ]] || fail "only $recorded ticks recorded"
humans=$("$replay_bin" info --json "${files[0]}" | grep -o '"bot":false' | wc -l)
[[ "$humans" -ge 4 ]] || fail "the first replay has $humans players who are not bots, expected 4"
echo "PASS: 4 players over $sim for $seconds s; ${#files[@]} replays, $recorded ticks verify"
