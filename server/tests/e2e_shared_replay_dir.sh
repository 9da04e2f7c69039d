#!/usr/bin/env bash
# Two servers recording into one directory (two units of one service) index
# every match: both run eight rooms of bots on a one-second map, so their
# matches end together, tick for tick, about 60 times each; afterwards
# `carom-replay find` lists every replay file and neither logged an index error.
#   e2e_shared_replay_dir.sh CAROM_SERVER CAROM_REPLAY MAPS_DIR
set -euo pipefail
server_bin="$1" replay_bin="$2" maps="$3"

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; tail -n 5 "$work"/server*.log || true; exit 1; }

# The arena, its matches one second long.
sed -E 's/"match_seconds": *[0-9]+/"match_seconds": 1/' "$maps/arena.json" >"$work/quick.json"
grep -q '"match_seconds": 1' "$work/quick.json" || fail "could not shorten the arena's matches"

for n in 1 2; do
  "$server_bin" --bind 127.0.0.1 --port 0 --bots --run-empty-rooms --rooms 8 --final-pause 0 \
    --map "$work/quick.json" --replay-dir "$work/replays" --stats-interval 0 \
    --ready-file "$work/ready$n.json" 2>"$work/server$n.log" &
  pids+=($!)
done
for n in 1 2; do
  for _ in $(seq 100); do [[ -s "$work/ready$n.json" ]] && break; sleep 0.1; done
  [[ -s "$work/ready$n.json" ]] || fail "server $n not ready within 10 s"
done
sleep 8
for pid in "${pids[@]}"; do kill -TERM "$pid"; done
for pid in "${pids[@]}"; do wait "$pid" || fail "a server exited with $?"; done
pids=()

shopt -s nullglob
files=("$work"/replays/*.crpl)
ended=$(cat "$work"/server*.log | grep -c "over at tick" || true)
echo "${#files[@]} replay files, $ended matches ended"
[[ "$ended" -ge 40 ]] || fail "only $ended matches ended in 8 s"
if grep -i "replay index" "$work"/server*.log | grep -vE "replays, [0-9]+ added"; then
  fail "a server logged an index error"
fi
found=$("$replay_bin" find "$work/replays" | wc -l)
echo "carom-replay find lists $found"
[[ "$found" -eq "${#files[@]}" ]] || fail "find lists $found of ${#files[@]} replays"
echo "PASS: two servers on one directory, every one of ${#files[@]} matches indexed"
