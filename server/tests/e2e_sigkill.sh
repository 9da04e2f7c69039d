#!/usr/bin/env bash
# A server killed with SIGKILL mid-match leaves a replay that reads up to its
# last complete chunk and verifies that far: carom-server with bots on
# 127.0.0.1, killed once its replay holds at least 90 readable ticks (polled,
# with a generous bound, rather than a guessed sleep).
#   e2e_sigkill.sh CAROM_SERVER CAROM_REPLAY MAPS_DIR
set -euo pipefail
server_bin="$1" replay_bin="$2" maps="$3"

work=$(mktemp -d)
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; tail -n 20 "$work/server.log" || true; exit 1; }

"$server_bin" --bind 127.0.0.1 --port 0 --bots --run-empty-rooms --map "$maps/rink.json" \
  --replay-dir "$work/replays" --ready-file "$work/ready.json" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 100); do [[ -s "$work/ready.json" ]] && break; sleep 0.1; done
[[ -s "$work/ready.json" ]] || fail "server not ready within 10 s"
shopt -s nullglob
seen=0
for _ in $(seq 300); do
  files=("$work"/replays/*.crpl)
  if [[ ${#files[@]} -eq 1 ]]; then
    seen=$("$replay_bin" info --json "${files[0]}" 2>/dev/null | grep -oE '"ticks":[0-9]+' |
           head -n1 | cut -d: -f2 || true)
    [[ -n "$seen" && "$seen" -ge 90 ]] && break
  fi
  sleep 0.1
done
[[ -n "$seen" && "$seen" -ge 90 ]] || fail "the replay held only '${seen:-none}' ticks after 30 s"
kill -KILL "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=""

files=("$work"/replays/*.crpl)
[[ ${#files[@]} -eq 1 ]] || fail "expected one replay, found ${#files[@]}"
# No footer: info says so and exits 2 (incomplete), but reports the ticks it read.
rc=0
info=$("$replay_bin" info --json "${files[0]}") || rc=$?
echo "$info" | head -c 400; echo
ticks=$(grep -oE '"ticks":[0-9]+' <<<"$info" | head -n1 | cut -d: -f2)
# The kill cannot take back what was already readable.
[[ -n "$ticks" && "$ticks" -ge "$seen" ]] ||
  fail "read only '${ticks:-none}' ticks after the kill, $seen before it (info exit $rc)"
# Everything that was read re-simulates to the recorded hashes.
verify=$("$replay_bin" verify "${files[0]}" 2>&1) || true
echo "$verify"
grep -qE "no footer|incomplete|unfinished" <<<"$verify" || fail "verify did not say the file is incomplete"
grep -qE "diverge" <<<"$verify" && fail "the part that was read diverges"
echo "PASS: a SIGKILLed server left $ticks readable ticks"
