#!/usr/bin/env bash
# The most common end of a match in production: the players leave, then the
# orchestrator stops the server at once. Over real UDP on 127.0.0.1: two
# rooms with bots, eight headless clients for a few seconds, SIGTERM the
# moment they have gone. Every replay must verify (--synctest).
#   e2e_leave_then_stop.sh CAROM_SERVER CAROM_LOADGEN CAROM_REPLAY MAPS_DIR
set -euo pipefail
server_bin="$1" loadgen_bin="$2" replay_bin="$3" maps="$4"

work=$(mktemp -d)
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- server log"; tail -n 40 "$work/server.log" || true; exit 1; }

"$server_bin" --bind 127.0.0.1 --port 0 --max-sessions-per-ip 16 --rooms 2 --bots --map "$maps/rink.json" \
  --replay-dir "$work/replays" --ready-file "$work/ready.json" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 100); do [[ -s "$work/ready.json" ]] && break; sleep 0.1; done
[[ -s "$work/ready.json" ]] || fail "server not ready within 10 s"
port=$(sed -E 's/.*"port":([0-9]+).*/\1/' "$work/ready.json")

# A lost client still fails loadgen; the update-gap bound is loose here (the
# flood test measures gaps): on 2 busy cores, under ASan, a process can stall.
timeout 30 "$loadgen_bin" --server "127.0.0.1:$port" --clients 8 --rooms 2 --seconds 3 \
  --max-gap-ms 1500 --maps-dir "$maps" >"$work/loadgen.log" 2>&1 || { cat "$work/loadgen.log"; fail "loadgen failed"; }
kill -TERM "$server_pid"  # at once: the leaves and the stop fall in the same tick or two
rc=0
for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$server_pid" 2>/dev/null && fail "server still running 10 s after SIGTERM"
wait "$server_pid" || rc=$?
server_pid=""
[[ $rc -eq 0 ]] || fail "server exited with $rc after SIGTERM"
left=$(grep -c ' left$' "$work/server.log" || true)
[[ "$left" -eq 8 ]] || fail "the server logged $left of 8 clients leaving"

shopt -s nullglob
files=("$work"/replays/*.crpl)
[[ ${#files[@]} -eq 2 ]] || fail "expected two replays, found ${#files[@]}"
for f in "${files[@]}"; do
  "$replay_bin" verify --synctest "$f" || fail "$(basename "$f") does not verify"
done
echo "ok: 8 clients left, SIGTERM at once, ${#files[@]} replays verify"
