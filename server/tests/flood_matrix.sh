#!/usr/bin/env bash
# Every abuse at once against a 4 v 4 on 127.0.0.1: eight carom-loadgen
# players in room 0 while two carom-flood processes send every attack kind
# (random bytes of every size up to 64 KB, junk, bit-flipped packets, forged
# cookies, wrong versions and ids, ConnectRequests from 128 ports, status
# queries far past the rate, inputs and
# disconnects forged from the players' own addresses when root, and, when
# root, ServerUpdates (random contents, the server's tick or far ahead),
# Disconnects, FullStates and the rest forged from the server's address to
# the players) and the first
# also runs two abusive sessions in room 1 (1000 inputs a second with replayed,
# far-ahead and far-behind sequences and acks of updates never sent; one
# that never acks; one that acks each FullState once, then nothing). Holds when: loadgen says ok (no player lost, no update
# gap over MAX_GAP_MS, no player whose inputs the server stopped applying
# for longer: a frozen victim fails here, and no copy of the match dropped
# for a FullState), the players dropped what was forged from the server
# without a tick stepped for it, the server lives and its RSS grows less than 16 MB,
# every refused datagram is counted by reason, the storm session is still
# connected, the never-acking one got a FullState at most every 20 ticks
# (updates against it between; its join's FullState goes twice, and one
# resend comes sooner, within the budget's burst), so did the
# one acking each once (the server's FullState budget: 3, then one every 20
# ticks), and every replay
# verifies. Prints one JSON line of figures.
#   flood_matrix.sh CAROM_SERVER CAROM_LOADGEN CAROM_FLOOD CAROM_REPLAY MAPS_DIR JSON_FIELD
# FLOOD_S (10) seconds of flood; RATE datagrams/s per flooder (0: full speed);
# MAX_GAP_MS (250).
set -euo pipefail
server_bin="$1" loadgen_bin="$2" flood_bin="$3" replay_bin="$4" maps="$5" json_field="$6"
flood_s="${FLOOD_S:-10}" rate="${RATE:-0}" max_gap="${MAX_GAP_MS:-250}"
# In an ASan build the quarantine of freed memory (256 MB by default) would
# show as RSS growth: kept small, so the growth measured is the server's.
export ASAN_OPTIONS="quarantine_size_mb=4:${ASAN_OPTIONS:-}"

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- server log"; grep -v ' joined room\| left$' "$work/server.log" | tail -n 30 || true; exit 1; }
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
field() { "$json_field" "$@" 2>/dev/null; }

"$server_bin" --bind 127.0.0.1 --port 0 --rooms 2 --map "$maps/arena.json" --max-sessions-per-ip 16 \
  --replay-dir "$work/replays" --ready-file "$work/ready.json" --stats-file "$work/stats.json" \
  --stats-interval 0 2>"$work/server.log" &
server_pid=$!
pids+=("$server_pid")
for _ in $(seq 100); do [[ -s "$work/ready.json" ]] && break; sleep 0.1; done
[[ -s "$work/ready.json" ]] || fail "server not ready within 10 s"
port=$(field "$work/ready.json" /port)

timeout $((flood_s + 40)) "$loadgen_bin" --server "127.0.0.1:$port" --clients 8 --rooms 1 \
  --seconds $((flood_s + 6)) --max-gap-ms "$max_gap" --maps-dir "$maps" --seed 7 --json \
  >"$work/loadgen.json" 2>"$work/loadgen.log" &
loadgen_pid=$!
pids+=("$loadgen_pid")
for _ in $(seq 100); do
  [[ $(grep -c 'joined room 0' "$work/server.log" || true) -ge 8 ]] && break
  sleep 0.1
done
victims=$(grep -oE 'from 127\.[0-9.]+:[0-9]+ joined room 0' "$work/server.log" |
  awk '{print $2}' | paste -sd,)
[[ -n "$victims" ]] || fail "no player joined"
sleep 1
rss_before=$(rss_kb "$server_pid")

flood_pids=()
"$flood_bin" --port "$port" --seconds "$flood_s" --seed 1 --rate "$rate" --attacks all \
  --victims "$victims" --abuse --abuse-room 1 >"$work/flood1.json" 2>"$work/flood1.err" &
flood_pids+=($!)
# The abusers' handshakes first: the flood from the same address would spend
# the handshake rate limit (per source IP) before them.
for _ in $(seq 50); do grep -q 'abusive sessions\|not accepted' "$work/flood1.err" && break; sleep 0.1; done
"$flood_bin" --port "$port" --seconds "$flood_s" --seed 2 --rate "$rate" --attacks all \
  --victims "$victims" >"$work/flood2.json" 2>"$work/flood2.err" &
flood_pids+=($!)
pids+=("${flood_pids[@]}")

# The stats file holds the last second's tick figures: keep the worst second.
worst_p99=0 worst_max=0
while kill -0 "${flood_pids[0]}" 2>/dev/null || kill -0 "${flood_pids[1]}" 2>/dev/null; do
  sleep 1
  read -r p99 mx < <(field "$work/stats.json" /tick_late_ms_p99 /tick_late_ms_max | paste -sd' ' || echo "0 0")
  worst_p99=$(awk -v a="$worst_p99" -v b="${p99:-0}" 'BEGIN {print (b > a ? b : a)}')
  worst_max=$(awk -v a="$worst_max" -v b="${mx:-0}" 'BEGIN {print (b > a ? b : a)}')
done
for p in "${flood_pids[@]}"; do wait "$p" || fail "carom-flood exited with $?"; done
cat "$work"/flood*.err >&2 || true
rss_after=$(rss_kb "$server_pid")

rc=0
wait "$loadgen_pid" || rc=$?
[[ $rc -eq 0 ]] || { cat "$work/loadgen.log" "$work/loadgen.json"; fail "loadgen exited with $rc (a player lost, or an update gap or an input stall over $max_gap ms)"; }
kill -0 "$server_pid" 2>/dev/null || fail "the server died"

sent=$(( $(field "$work/flood1.json" /sent) + $(field "$work/flood2.json" /sent) ))
read -r storm_connected noack_full noack_delta storm_inputs ackonce_full ackonce_bytes < <(field \
  "$work/flood1.json" /abuse/storm_connected /abuse/noack_full /abuse/noack_delta \
  /abuse/storm_inputs /abuse/ackonce_full /abuse/ackonce_full_bytes | paste -sd' ')
sleep 1.5  # a stats file written after the flood
counts=$(field "$work/stats.json" /invalid_total /ticks_dropped /receive/dropped_unread \
  "/invalid/bad identifier" "/invalid/too long" "/invalid/wrong version" "/invalid/bad tag" \
  "/invalid/wrong client id" "/invalid/unknown sender" "/invalid/malformed" "/invalid/rate limited" \
  /inputs_stale /status_answered /status_refused | paste -sd' ')
read -r invalid dropped_ticks unread bad_id too_long wrong_version wrong_secret wrong_id unknown \
  malformed rate_limited stale status_answered status_refused <<<"$counts"
growth_kb=$((rss_after - rss_before))

kill -TERM "$server_pid"
for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
rc=0
wait "$server_pid" || rc=$?
[[ $rc -eq 0 ]] || fail "server exited with $rc after SIGTERM"
shopt -s nullglob
replays=0
for f in "$work"/replays/*.crpl; do
  "$replay_bin" verify --synctest "$f" >/dev/null || fail "$(basename "$f") does not verify"
  replays=$((replays + 1))
done

echo "{\"flood_sent\": $sent, \"late_p99_worst_ms\": $worst_p99, \"late_max_ms\": $worst_max," \
  "\"ticks_dropped\": $dropped_ticks, \"rss_kb_before\": $rss_before, \"rss_kb_after\": $rss_after," \
  "\"invalid_total\": $invalid, \"dropped_unread\": $unread, \"bad_identifier\": $bad_id," \
  "\"too_long\": $too_long, \"wrong_version\": $wrong_version, \"bad_tag\": $wrong_secret," \
  "\"wrong_client_id\": $wrong_id, \"unknown_sender\": $unknown, \"malformed\": $malformed," \
  "\"rate_limited\": $rate_limited, \"inputs_stale\": $stale, \"status_answered\": $status_answered," \
  "\"status_refused\": $status_refused, \"storm_inputs\": $storm_inputs," \
  "\"storm_connected\": $storm_connected, \"noack_full\": $noack_full, \"noack_delta\": $noack_delta," \
  "\"ackonce_full\": $ackonce_full, \"ackonce_full_bytes\": $ackonce_bytes," \
  "\"replays_verified\": $replays, \"loadgen\": $(cat "$work/loadgen.json" | head -c 100000 | tr -d '\n' | sed -E 's/.*"update_gap_ms":(\{[^}]*\}).*/\1/')," \
  "\"input_stall_ms\": $(field "$work/loadgen.json" /input_stall_ms/max)}"

[[ "$growth_kb" -lt 16384 ]] || fail "RSS grew by $growth_kb KB under the flood"
[[ "$storm_connected" == true ]] || fail "the storm session lost its connection"
# The join's FullState, its copy and a resend (the budget's burst: the
# session speaks, so its round trip is measured), then one every 20 ticks at most.
[[ "$noack_full" -gt 1 && $(((noack_full - 2) * 19)) -le $((noack_delta + 19)) ]] ||
  fail "the never-acking session got $noack_full full states and $noack_delta updates"
# The budget over the flood's seconds at 60 ticks a second, and a second's slack.
ackonce_budget=$((3 + (flood_s + 1) * 60 / 20))
[[ "$ackonce_full" -gt 0 && "$ackonce_full" -le "$ackonce_budget" ]] ||
  fail "the session acking each FullState once got $ackonce_full of them (budget $ackonce_budget)"
for pair in "bad identifier:$bad_id" "wrong version:$wrong_version" "malformed:$malformed" \
  "status answered:$status_answered" "status refused (rate):$status_refused"; do
  [[ "${pair#*:}" -gt 0 ]] || fail "nothing counted as ${pair%:*}"
done
read -r forged_at_players stepped_in_vain resyncs < <(field "$work/loadgen.json" /dropped/forged \
  /dropped/steps_discarded /updates/resyncs | paste -sd' ')
echo "players: $forged_at_players forged datagrams dropped, $stepped_in_vain ticks stepped in vain," \
  "$resyncs resyncs"
if grep -q 'forged-source and server-\* skipped' "$work"/flood*.err; then
  echo "forged-source and server-* attacks skipped (not root): forged packets not checked"
else
  [[ $((wrong_secret + wrong_id)) -gt 0 ]] || fail "forged session packets were not counted"
  [[ "$forged_at_players" -gt 0 ]] || fail "the players counted no forged server packet"
fi
[[ "$stepped_in_vain" -eq 0 && "$resyncs" -eq 0 ]] ||
  fail "forged server packets cost the players $stepped_in_vain steps and $resyncs resyncs"
[[ "$replays" -ge 1 ]] || fail "no replay written"
echo "PASS: $sent hostile datagrams in $flood_s s; players kept, RSS +$growth_kb KB, $replays replays verify"
