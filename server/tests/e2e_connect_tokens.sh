#!/usr/bin/env bash
# Connect tokens end to end over UDP on 127.0.0.1: carom-token keygen and
# make, carom-server --token-key, carom-client --bot --token, carom-loadgen
# --token-key. A token plays once under its own name (the server's log and
# the replay show it); used again, expired, missing, or made with another
# key, it is refused with its one-line reason (exit 4).
#   e2e_connect_tokens.sh CAROM_SERVER CAROM_CLIENT CAROM_TOKEN CAROM_REPLAY CAROM_LOADGEN MAPS_DIR
set -euo pipefail
server_bin="$1" client_bin="$2" token_bin="$3" replay_bin="$4" loadgen_bin="$5" maps="$6"

work=$(mktemp -d)
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- server log"; tail -n 40 "$work/server.log" || true; exit 1; }

# The key: mode 0600, never replaced.
"$token_bin" keygen -o "$work/server.key" || fail "keygen failed"
[[ $(stat -c %a "$work/server.key") == 600 ]] || fail "the key file's mode is $(stat -c %a "$work/server.key")"
[[ $(tr -d '\n' <"$work/server.key" | wc -c) -eq 64 ]] || fail "the key is not 64 hex digits"
rc=0
"$token_bin" keygen -o "$work/server.key" 2>"$work/keygen.err" || rc=$?
[[ $rc -eq 2 ]] || fail "keygen over an existing key exited $rc, not 2"
grep -q "never replaced" "$work/keygen.err" || fail "keygen's refusal: $(cat "$work/keygen.err")"
"$token_bin" keygen -o "$work/other.key"

"$server_bin" --bind 127.0.0.1 --port 0 --token-key "$work/server.key" --map "$maps/rink.json" \
  --max-sessions-per-ip 16 \
  --replay-dir "$work/replays" --ready-file "$work/ready.json" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 100); do [[ -s "$work/ready.json" ]] && break; sleep 0.1; done
[[ -s "$work/ready.json" ]] || fail "server not ready within 10 s"
port=$(sed -E 's/.*"port":([0-9]+).*/\1/' "$work/ready.json")
server="127.0.0.1:$port"

make_token() {  # NAME ID KEY EXPIRES
  "$token_bin" make --key "$3" --id "$2" --name "$1" --server "$server" --expires "$4" -o "$work/$1.token"
}
# First, so that it has expired (1 s and the server's 10 s of clock skew, whole seconds) by the end.
make_token old 3 "$work/server.key" 1
expiring_since=$SECONDS
make_token ann 7 "$work/server.key" 60
make_token eve 8 "$work/other.key" 60

# Played under the token's name, whatever --name says.
timeout 20 "$client_bin" --bot --token "$work/ann.token" --name mallory --duration 1 \
  2>"$work/ann.log" || { cat "$work/ann.log"; fail "the client with a token did not play"; }
grep -q "(ann, player 7) from 127.0.0.1" "$work/server.log" || fail "no join of ann, player 7"

refused() {  # TOKEN-NAME-OR-EMPTY EXPECTED-TEXT
  local rc=0 args=(--bot --duration 1 "$server")
  [[ -n "$1" ]] && args+=(--token "$work/$1.token")
  timeout 20 "$client_bin" "${args[@]}" 2>"$work/refused.log" || rc=$?
  [[ $rc -eq 4 ]] || { cat "$work/refused.log"; fail "${1:-no token}: exit $rc, not 4 (refused)"; }
  grep -q "refused: $2" "$work/refused.log" || { cat "$work/refused.log"; fail "${1:-no token}: no '$2'"; }
}
refused ann "the connect token was used already"
refused "" "the server admits only players with a connect token"
refused eve "the connect token is not valid for this server"
# A load test of a token server: carom-loadgen makes a token a client.
timeout 30 "$loadgen_bin" --server "$server" --token-key "$work/server.key" --clients 3 --seconds 2 \
  --max-gap-ms 1500 --maps-dir "$maps" >"$work/loadgen.log" 2>&1 || { cat "$work/loadgen.log"; fail "loadgen with tokens failed"; }
grep -q "(load2, player 3) from" "$work/server.log" || fail "no join of loadgen's load2, player 3"
while (( SECONDS - expiring_since < 13 )); do sleep 0.5; done
refused old "the connect token has expired"

kill -TERM "$server_pid"
for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
wait "$server_pid" || fail "server exited with $? after SIGTERM"
server_pid=""
shopt -s nullglob
files=("$work"/replays/*.crpl)
[[ ${#files[@]} -eq 1 ]] || fail "expected one replay, found ${#files[@]}"
"$replay_bin" info --json "${files[0]}" >"$work/info.txt" || fail "carom-replay info failed"
grep -q "\"ann\"" "$work/info.txt" || { cat "$work/info.txt"; fail "the replay does not name ann"; }
grep -q mallory "$work/info.txt" && fail "the replay names the client's own name"
echo "ok: a token played once as ann; reused, missing, other-key and expired tokens refused"
