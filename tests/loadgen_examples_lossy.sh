#!/usr/bin/env bash
# The load examples of README.md and docs/hosting.md, as written, pass with
# 5 % loss each way (carom-loadgen's link simulator, seeded): every client
# accepted, none waiting longer than the default bound (250 ms) for an update
# or for its input to be applied, no copy dropped for a full state.
#   loadgen_examples_lossy.sh CAROM_SERVER CAROM_LOADGEN MAPS_DIR
set -euo pipefail
server_bin="$1" loadgen_bin="$2" maps="$3"

work=$(mktemp -d)
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT

# example NAME SERVER_ARGS -- LOADGEN_ARGS: one server as the page starts it, one load against it.
example() {
  local name="$1" server_args="$2"
  shift 2
  rm -f "$work/ready.json"
  # shellcheck disable=SC2086 # the server's arguments are words
  CAROM_MAPS="$maps" "$server_bin" --bind 127.0.0.1 --port 0 $server_args \
    --replay-dir "$work/replays-$name" --ready-file "$work/ready.json" 2>"$work/server-$name.log" &
  server_pid=$!
  for _ in $(seq 100); do [[ -s "$work/ready.json" ]] && break; sleep 0.1; done
  [[ -s "$work/ready.json" ]] || { echo "FAIL $name: server not ready within 10 s"; exit 1; }
  local port
  port=$(sed -E 's/.*"port":([0-9]+).*/\1/' "$work/ready.json")
  if ! timeout 60 "$loadgen_bin" --server "127.0.0.1:$port" --maps-dir "$maps" "$@" \
      >"$work/loadgen-$name.txt" 2>&1; then
    cat "$work/loadgen-$name.txt"
    echo "FAIL $name: carom-loadgen $*"
    exit 1
  fi
  grep -E "sim|longest|result" "$work/loadgen-$name.txt" || true
  kill "$server_pid"
  wait "$server_pid" || true
  server_pid=""
}

# README.md: eight players in two rooms with bots, five seconds.
example readme "--rooms 2 --bots" --clients 8 --rooms 2 --seconds 5 --sim loss=5,seed=1
# docs/hosting.md: sixteen players in four rooms, ten seconds (two link seeds).
for seed in 1 2; do
  example "hosting-$seed" "--rooms 4" --clients 16 --rooms 4 --sim "loss=5,seed=$seed"
done
echo "the load examples pass with 5 % loss each way"
