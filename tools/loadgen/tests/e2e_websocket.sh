#!/usr/bin/env bash
# carom-loadgen over the server's WebSocket door: carom-server on 127.0.0.1
# with ephemeral UDP and HTTP ports, one room, four players of which the first
# two come over WebSocket (--ws, --ws-clients 2), 6 s of play, then SIGTERM.
# Every client must be accepted and keep its copy of the match; the server must
# have joined two of them from WebSockets and seen all four leave; the replay
# must verify and name all four.
#   e2e_websocket.sh CAROM_SERVER CAROM_LOADGEN CAROM_REPLAY MAPS_DIR
set -euo pipefail
server_bin="$1" loadgen_bin="$2" replay_bin="$3" maps="$4"

# A URL it cannot use is a usage error, said at once.
rc=0
"$loadgen_bin" --server 127.0.0.1:9 --ws wss://127.0.0.1:9/ws 2>/dev/null || rc=$?
[[ $rc -eq 2 ]] || { echo "FAIL: --ws wss://... exited $rc, expected 2"; exit 1; }

work=$(mktemp -d)
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- server log"; tail -n 40 "$work/server.log" || true; exit 1; }

"$server_bin" --bind 127.0.0.1 --port 0 --http 127.0.0.1:0 --rooms 1 --map "$maps/arena.json" \
  --replay-dir "$work/replays" --ready-file "$work/ready.json" --stats-interval 0 \
  2>"$work/server.log" &
server_pid=$!
for _ in $(seq 100); do [[ -s "$work/ready.json" ]] && break; sleep 0.1; done
[[ -s "$work/ready.json" ]] || fail "server not ready within 10 s"
port=$(sed -E 's/.*"port":([0-9]+).*/\1/' "$work/ready.json")
http_port=$(sed -E 's/.*"http_port":([0-9]+).*/\1/' "$work/ready.json")
echo "server on 127.0.0.1: UDP $port, HTTP $http_port"

# The gap bound is loose: on 2 busy cores, under ASan, a process can stall.
timeout 40 "$loadgen_bin" --server "127.0.0.1:$port" --ws "ws://127.0.0.1:$http_port/ws" \
  --ws-clients 2 --clients 4 --rooms 1 --seconds 6 --max-gap-ms 1500 --maps-dir "$maps" --json \
  >"$work/loadgen.json" 2>"$work/loadgen.log" ||
  { cat "$work/loadgen.log" "$work/loadgen.json"; fail "loadgen failed"; }
cat "$work/loadgen.json"
grep -q '"ws_clients":2' "$work/loadgen.json" || fail "loadgen did not send two clients over WebSocket"
grep -q '"socket_errors":0' "$work/loadgen.json" || fail "loadgen counted failed sends or receives"

for k in 0 1; do
  grep -qE "\(load$k\) from ws#[0-9]+ .* joined room 0" "$work/server.log" ||
    fail "load$k did not join from a WebSocket"
done
for k in 2 3; do
  grep -qE "\(load$k\) from 127\.[0-9.]+:[0-9]+ joined room 0" "$work/server.log" ||
    fail "load$k did not join over UDP"
done
# Each said goodbye (the WebSockets' Disconnect went out before they closed).
for _ in $(seq 50); do
  [[ $(grep -cE '\(load[0-3]\) left' "$work/server.log") -eq 4 ]] && break
  sleep 0.1
done
[[ $(grep -cE '\(load[0-3]\) left' "$work/server.log") -eq 4 ]] ||
  fail "not every client left with a Disconnect"

kill -TERM "$server_pid"
for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$server_pid" 2>/dev/null && fail "server still running 10 s after SIGTERM"
rc=0
wait "$server_pid" || rc=$?
server_pid=""
[[ $rc -eq 0 ]] || fail "server exited with $rc after SIGTERM"

shopt -s nullglob
files=("$work"/replays/*.crpl)
[[ ${#files[@]} -eq 1 ]] || fail "expected one replay, found ${#files[@]}"
verify=$("$replay_bin" verify --synctest "${files[0]}") || fail "verify: $verify"
echo "$verify"
info=$("$replay_bin" info --json "${files[0]}")
for k in 0 1 2 3; do
  grep -q "\"kind\":\"join\",\"name\":\"load$k\"" <<<"$info" || fail "the replay does not name load$k: $info"
done
echo "PASS: two WebSocket and two UDP clients played; the replay verifies and names all four"
