#!/usr/bin/env bash
# make play: installs what is missing, builds, starts a local carom-server
# with bots on loopback (a free port, replays recorded), and opens
# carom-client in this terminal. Quitting the client stops the server
# (SIGTERM, then wait) and says where the match's replay was written.
#   PRESET=release   the CMake preset to build
#   REPLAYS=dir      where replays go (default build/play-replays)
#   CLIENT_ARGS=...  more carom-client options (--name, --ascii, --fps ...)
#   MAP=file         a map or stadium (.json, .hbs) the server plays; the
#                    client gets it as from any server (its cache, else
#                    the server sends it)
#   SERVER_ARGS=...  more carom-server options (--seed ...)
set -euo pipefail
cd "$(dirname "$0")/.."

preset=${PRESET:-release}
replays=${REPLAYS:-build/play-replays}
bin=build/$preset

scripts/install-deps.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --target carom-server carom-client carom-replay

mkdir -p "$replays"
run=$(mktemp -d)
touch "$run/started"
server_pid=""
stop_server() {
  if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid"
    wait "$server_pid" || true
  fi
  server_pid=""
}
trap 'stop_server; rm -rf "$run"' EXIT
trap 'exit 130' INT TERM HUP

map_args=()
if [[ -n ${MAP:-} ]]; then
  [[ -f $MAP ]] || { echo "play: MAP=$MAP: no such file" >&2; exit 2; }
  map_args=(--map "$MAP")
fi
# shellcheck disable=SC2086
"$bin/server/carom-server" --bind 127.0.0.1 --port 0 --bots --replay-dir "$replays" \
  --ready-file "$run/ready.json" "${map_args[@]}" ${SERVER_ARGS:-} 2>"$run/server.log" &
server_pid=$!
for _ in $(seq 100); do
  [[ -s $run/ready.json ]] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "play: carom-server did not start:" >&2
    cat "$run/server.log" >&2
    exit 1
  fi
  sleep 0.1
done
port=$(sed -n 's/.*"port": *\([0-9]*\).*/\1/p' "$run/ready.json")
if [[ -z $port ]]; then
  echo "play: carom-server wrote no port in $run/ready.json" >&2
  exit 1
fi

status=0
# shellcheck disable=SC2086
"$bin/client/app/carom-client" "127.0.0.1:$port" ${CLIENT_ARGS:-} ||
  status=$?
stop_server

mapfile -t written < <(find "$replays" -name '*.crpl' -newer "$run/started" | sort)
if [[ ${#written[@]} -eq 0 ]]; then
  echo "play: no replay was written (server log: see above)" >&2
  tail -5 "$run/server.log" >&2
else
  echo "Replays of this session (in $replays):"
  for f in "${written[@]}"; do echo "  $f"; done
  echo "Verify one with:"
  echo "  $bin/replays/carom-replay verify ${written[-1]}"
fi
exit "$status"
