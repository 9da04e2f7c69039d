#!/usr/bin/env bash
# bot.py against a real carom-server on loopback: it joins a room the
# server's bots fill, plays the chase rule for a few seconds over Python's
# socket module, and leaves; its copy of the match stayed the server's (no
# failed state check, no resync, by the counters carom_client_get_info
# gives), and the server's replay of the match verifies and names the bot
# among its players. With a sixth argument `token`, the server requires
# connect tokens and bot.py makes its own with the server's key
# (carom.make_token, through libcarom's carom_token_make).
# Usage: python_bot.sh PYTHON LIBCAROM CAROM_SERVER CAROM_REPLAY SOURCE_DIR [token]
set -euo pipefail
python=$1 libcarom=$2 server=$3 carom_replay=$4 src=$5 mode=${6:-open}
work=$(mktemp -d)
server_pid=""
cleanup() {
    [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

server_args=() bot_args=()
if [[ $mode == token ]]; then
    # The key file as carom-token keygen writes it: 64 hexadecimal digits.
    od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$work/server.key"
    server_args=(--token-key "$work/server.key")
    bot_args=(--token-key "$work/server.key")
fi
"$server" --bind 127.0.0.1 --port 0 --rooms 1 --bots --replay-dir "$work/replays" \
          --ready-file "$work/ready.json" "${server_args[@]}" 2> "$work/server.log" &
server_pid=$!
for _ in $(seq 100); do [[ -s $work/ready.json ]] && break; sleep 0.1; done
port=$(sed -E 's/.*"port":([0-9]+).*/\1/' "$work/ready.json")

out=$(PYTHONDONTWRITEBYTECODE=1 CAROM_LIBRARY="$libcarom" PYTHONPATH="$src/shared/libcarom/python" \
      timeout 60 "$python" "$src/shared/libcarom/python/examples/bot.py" \
      --server "127.0.0.1:$port" --seconds 6 "${bot_args[@]}") ||
    { echo "$out"; cat "$work/server.log"; exit 1; }
if [[ $mode == token ]]; then
    grep -q "(pybot, player 1) from" "$work/server.log" ||
        { echo "FAIL: the server did not admit pybot's token"; cat "$work/server.log"; exit 1; }
fi
echo "$out"
counters='copy: ([0-9]+) FullStates, ([0-9]+) state checks failed, ([0-9]+) resyncs; ([0-9]+) bytes in, ([0-9]+) bytes out'
[[ $out =~ $counters ]] || { echo "FAIL: bot.py printed no counters"; exit 1; }
read -r full_states failures resyncs bytes_in bytes_out <<< "${BASH_REMATCH[*]:1}"
if (( full_states < 1 || failures != 0 || resyncs != 0 || bytes_in == 0 || bytes_out == 0 )); then
    echo "FAIL: the client's copy was not sound on loopback (${BASH_REMATCH[0]})"
    exit 1
fi

# The room sleeps once the bot left, and its replay is closed then.
for _ in $(seq 100); do grep -q "nobody is in it; it sleeps" "$work/server.log" && break; sleep 0.1; done
kill -TERM "$server_pid"
wait "$server_pid" || true
server_pid=""
replay=$(ls "$work"/replays/*.crpl)
"$carom_replay" verify "$replay"
"$carom_replay" info --json "$replay" | grep -Eq '"name": ?"pybot"' ||
    { echo "FAIL: the replay does not name pybot"; "$carom_replay" info "$replay"; exit 1; }
echo "ok: bot.py played a real server ($mode) and its replay verifies"
