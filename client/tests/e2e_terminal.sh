#!/usr/bin/env bash
# carom-client end to end, on loopback with an ephemeral port: in a real
# terminal (tmux) it joins, a held key moves its disk the right way, the HUD
# shows score and clock, the bottom line the hold window (tmux reports no
# key releases), q quits and restores the terminal, the server logs
# the disconnect; --spectate shows the arena with no disk of its own; --bot
# joins, plays 10 s and leaves; a closed port gives the
# "unreachable" message and a non-zero exit.
#   e2e_terminal.sh CAROM_SERVER CAROM_CLIENT MAPS_DIR
set -euo pipefail
server_bin=$1
client_bin=$2
maps=$3

work=$(mktemp -d)
socket="carom-e2e-$$"
server_pid=""
cleanup() {
  tmux -L "$socket" kill-server 2>/dev/null || true
  if [[ -n $server_pid ]]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; echo "--- server log" >&2; tail -20 "$work/server.log" >&2 || true; exit 1; }

# No bots: the only disk on the field is ours, so '@' (ASCII) is found at once.
"$server_bin" --bind 127.0.0.1 --port 0 --map "$maps/arena.json" --ready-file "$work/ready.json" \
  2>"$work/server.log" &
server_pid=$!
for _ in $(seq 400); do [[ -s $work/ready.json ]] && break; sleep 0.05; done
port=$(sed -n 's/.*"port": *\([0-9]*\).*/\1/p' "$work/ready.json")
[[ -n $port ]] || fail "server did not start"

# The terminal client in tmux, 100 x 30, ASCII so the own disk is '@'.
tmux -L "$socket" new-session -d -x 100 -y 30 \
  "stty -a > $work/stty.before; $client_bin 127.0.0.1:$port --name e2e --ascii; echo EXIT=\$? > $work/exit; stty -a > $work/stty.after; sleep 30"
own_column() { tmux -L "$socket" capture-pane -p | awk '{ i = index($0, "@"); if (i) { print i; exit } }'; }
for _ in $(seq 400); do [[ -n $(own_column) ]] && break; sleep 0.05; done
before=$(own_column)
[[ -n $before ]] || fail "no own disk on screen: $(tmux -L "$socket" capture-pane -p)"
screen=$(tmux -L "$socket" capture-pane -p)
grep -q "left 0 : 0 right" <<<"$screen" || fail "no score in the HUD: $screen"
grep -Eq "[0-9]+:[0-5][0-9]" <<<"$screen" || fail "no clock in the HUD: $screen"
grep -q "#####" <<<"$screen" || fail "no arena walls: $screen"
# tmux does not speak the kitty keyboard protocol: presses alone, the hold window.
grep -q "keys: hold window" <<<"$screen" || fail "the bottom line does not say hold window: $screen"

# Hold right: a press, then key repeat every 40 ms for a second.
for _ in $(seq 25); do tmux -L "$socket" send-keys d; sleep 0.04; done
after=$(own_column)
echo "own disk: column $before, then $after after holding d"
[[ -n $after && $after -gt $((before + 3)) ]] || fail "the disk did not move right ($before -> $after)"

tmux -L "$socket" send-keys q
for _ in $(seq 400); do [[ -s $work/exit ]] && break; sleep 0.05; done
grep -q "EXIT=0" "$work/exit" || fail "client exit: $(cat "$work/exit" 2>/dev/null)"
tmux -L "$socket" capture-pane -p | grep -q "carom-client: bye" || fail "no goodbye line"
sleep 0.2
diff "$work/stty.before" "$work/stty.after" >/dev/null || fail "terminal modes not restored"
for _ in $(seq 200); do grep -q "(e2e) left" "$work/server.log" && break; sleep 0.05; done
grep -q "(e2e) left" "$work/server.log" || fail "server did not log the disconnect"
echo "terminal: joined, moved right, quit, terminal restored, disconnect logged"

# --bot: joins, plays 10 s, leaves.
"$client_bin" 127.0.0.1:"$port" --bot --duration 10 --name ci-bot 2>"$work/bot.log" || fail "bot exit $?: $(cat "$work/bot.log")"
grep -q "joined room 0" "$work/bot.log" || fail "bot did not join: $(cat "$work/bot.log")"
grep -q "left after 10" "$work/bot.log" || fail "bot did not play 10 s: $(cat "$work/bot.log")"
grep -q "(ci-bot) left" "$work/server.log" || fail "server did not log the bot leaving"
echo "bot: $(grep 'left after' "$work/bot.log" | sed 's/.*\] //')"

# --spectate: the arena and the HUD, marked as spectating, with no disk of
# its own ('@'); q quits and the server logs a spectator coming and going.
rm -f "$work/exit"
tmux -L "$socket" new-session -d -s spectator -x 100 -y 30 \
  "$client_bin 127.0.0.1:$port --name watcher --spectate --ascii; echo EXIT=\$? > $work/exit; sleep 30"
# Wait for what is checked: the HUD line itself, not "spectating" anywhere on the screen.
for _ in $(seq 400); do
  tmux -L "$socket" capture-pane -t spectator -p | grep -Eq "left [0-9]+ : [0-9]+ right.*spectating" && break
  sleep 0.05
done
screen=$(tmux -L "$socket" capture-pane -t spectator -p)
grep -Eq "left [0-9]+ : [0-9]+ right.*spectating" <<<"$screen" || fail "no spectating HUD: $screen"
grep -q "#####" <<<"$screen" || fail "spectator: no arena walls: $screen"
grep -q "@" <<<"$screen" && fail "a spectator has no disk of its own: $screen"
grep -q "(watcher) from .* as a spectator" "$work/server.log" || fail "server did not log the spectator"
tmux -L "$socket" send-keys -t spectator q
for _ in $(seq 400); do [[ -s $work/exit ]] && break; sleep 0.05; done
grep -q "EXIT=0" "$work/exit" || fail "spectator exit: $(cat "$work/exit" 2>/dev/null)"
for _ in $(seq 200); do grep -q "(watcher) left" "$work/server.log" && break; sleep 0.05; done
grep -q "(watcher) left" "$work/server.log" || fail "server did not log the spectator leaving"
echo "spectator: HUD spectating, no own disk, quit, logged"

# A closed port: the server's, once it is stopped.
kill -TERM "$server_pid"; wait "$server_pid" || true; server_pid=""
status=0
"$client_bin" 127.0.0.1:"$port" --bot --connect-timeout-ms 1000 2>"$work/closed.log" || status=$?
[[ $status -eq 3 ]] || fail "closed port: exit $status, want 3"
grep -q "server unreachable" "$work/closed.log" || fail "closed port: $(cat "$work/closed.log")"
echo "closed port: exit $status, $(sed 's/.*\] //' "$work/closed.log")"
