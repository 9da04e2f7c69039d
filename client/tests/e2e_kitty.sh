#!/usr/bin/env bash
# carom-client in kitty, a terminal that reports key releases (the kitty
# keyboard protocol), on a virtual display, against a real server on
# loopback. xdotool presses and releases keys; the server's replay says how
# long each direction was held: a 50 ms tap of d moves right for 3-4 ticks
# (not the 31 of the hold window), w and d held together make a diagonal
# exactly while both are down; the bottom line says "keys: press+release".
# The terminal's keyboard flags are as they were (0) after each way out:
# q, Ctrl-C, an error, SIGTERM.
#   e2e_kitty.sh CAROM_SERVER CAROM_CLIENT CAROM_REPLAY MAPS_DIR
set -euo pipefail
server_bin=$1 client_bin=$2 replay_bin=$3 maps=$4

work=$(mktemp -d)
server_pid="" xvfb_pid="" kitty_pid=""
cleanup() {
  for pid in $kitty_pid $server_pid $xvfb_pid; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in $kitty_pid $server_pid $xvfb_pid; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  echo "--- server log" >&2; tail -20 "$work/server.log" >&2 || true
  echo "--- Xvfb" >&2; tail -5 "$work/xvfb.log" >&2 || true
  exit 1
}

# A display of our own: the first free number from 90.
for n in $(seq 90 150); do
  [[ -e /tmp/.X$n-lock || -e /tmp/.X11-unix/X$n ]] && continue
  Xvfb ":$n" -screen 0 1280x800x24 -nolisten tcp > "$work/xvfb.log" 2>&1 &
  xvfb_pid=$!
  export DISPLAY=":$n"
  break
done
[[ -n $xvfb_pid ]] || fail "no free display"
for _ in $(seq 100); do xdotool getmouselocation > /dev/null 2>&1 && break; sleep 0.05; done

"$server_bin" --bind 127.0.0.1 --port 0 --map "$maps/arena.json" --replay-dir "$work/replays" \
  --ready-file "$work/ready.json" 2> "$work/server.log" &
server_pid=$!
for _ in $(seq 400); do [[ -s $work/ready.json ]] && break; sleep 0.05; done
port=$(sed -n 's/.*"port": *\([0-9]*\).*/\1/p' "$work/ready.json")
[[ -n $port ]] || fail "server did not start"

# What the terminal says its keyboard flags are, once the client is gone:
# on the main screen (the shell's), and on the alternate screen the client
# drew on. kitty keeps a stack of flags for each; the alternate screen's
# survives leaving it, so a push the client did not pop shows there.
cat > "$work/flags.py" <<'PY'
import os, select, sys, termios, tty
fd = sys.stdin.fileno()
saved = termios.tcgetattr(fd)
tty.setraw(fd)

def ask():
    answer = b""
    os.write(sys.stdout.fileno(), b"\x1b[?u\x1b[c")
    while not answer.endswith(b"c"):
        if not select.select([fd], [], [], 3)[0]:
            break
        answer += os.read(fd, 100)
    return answer.decode(errors="replace").replace("\x1b", "ESC")

try:
    main = ask()
    os.write(sys.stdout.fileno(), b"\x1b[?1049h")
    alternate = ask()
    os.write(sys.stdout.fileno(), b"\x1b[?1049l")
finally:
    termios.tcsetattr(fd, termios.TCSADRAIN, saved)
with open(sys.argv[1], "w") as out:
    out.write(f"main {main} alternate {alternate}")
PY
mkdir -p "$work/config" "$work/runtime"
chmod 700 "$work/runtime"
# Four runs of the client in one kitty window, each followed by the
# terminal's flags: it plays and quits with q; it is stopped with Ctrl-C
# (a key, under this protocol); it stops on an error (nobody answers on
# --room 0 of a closed port); it is sent SIGTERM.
closed_port=9  # discard: nothing listens there on loopback
runs="'$client_bin' 127.0.0.1:$port --name kitty --ascii; echo EXIT=\$? > '$work/exit1'
      python3 '$work/flags.py' '$work/flags1'
      '$client_bin' 127.0.0.1:$port --name kitty2 --ascii; echo EXIT=\$? > '$work/exit2'
      python3 '$work/flags.py' '$work/flags2'
      '$client_bin' 127.0.0.1:$closed_port --room 0 --connect-timeout-ms 1500 --ascii
      echo EXIT=\$? > '$work/exit3'; python3 '$work/flags.py' '$work/flags3'
      '$client_bin' 127.0.0.1:$port --name kitty4 --ascii; echo EXIT=\$? > '$work/exit4'
      python3 '$work/flags.py' '$work/flags4'; sleep 30"
XDG_CONFIG_HOME="$work/config" XDG_RUNTIME_DIR="$work/runtime" LIBGL_ALWAYS_SOFTWARE=1 \
  kitty --config NONE --class carom-kitty-test -o initial_window_width=110c \
        -o initial_window_height=32c -o remember_window_size=no \
        -o allow_remote_control=yes --listen-on "unix:$work/kitty.socket" \
        sh -c "$runs" > "$work/kitty.log" 2>&1 &
kitty_pid=$!
window=""
for _ in $(seq 600); do  # kitty starts in a few seconds on a loaded machine, not 30
  window=$(xdotool search --onlyvisible --class carom-kitty-test 2>/dev/null | tail -1) && [[ -n $window ]] && break
  sleep 0.05
done
[[ -n $window ]] || fail "kitty opened no window: $(cat "$work/kitty.log")"
xdotool windowfocus --sync "$window" || fail "cannot focus the kitty window"
joined() {  # joined NAME: waits until the server logs the client's join
  for _ in $(seq 600); do grep -Eq "\($1\) from .* joined" "$work/server.log" && return 0; sleep 0.05; done
  fail "$1 did not join"
}
ended() {  # ended N WANT: the run's exit status, and the flags after it
  for _ in $(seq 400); do [[ -s $work/flags$1 ]] && break; sleep 0.05; done
  grep -q "EXIT=$2" "$work/exit$1" || fail "run $1: client exit $(cat "$work/exit$1" 2>/dev/null), $2 expected"
  grep -q "main ESC\[?0u.* alternate ESC\[?0u" "$work/flags$1" ||
    fail "run $1: keyboard flags not restored: $(cat "$work/flags$1")"
  echo "run $1: exit $2, then the terminal answered $(cat "$work/flags$1")"
}

joined kitty
sleep 1  # the match under way, the client steering
kitty @ --to "unix:$work/kitty.socket" get-text > "$work/screen.txt" 2>&1 || true
grep -q "keys: press+release" "$work/screen.txt" ||
  fail "the bottom line does not say press+release: $(cat "$work/screen.txt")"
# A 50 ms tap of d; then w and d held together for half a second.
xdotool keydown d sleep 0.05 keyup d
sleep 1
xdotool keydown w sleep 0.05 keydown d sleep 0.5 keyup w sleep 0.05 keyup d
sleep 1
xdotool key q
ended 1 0

joined kitty2
xdotool key ctrl+c
ended 2 130

ended 3 3

joined kitty4
# The client the window's shell runs (not any other test's).
shell=$(pgrep -P "$kitty_pid" -x sh) || fail "no shell in the kitty window"
pkill -TERM -P "$shell" -x carom-client || fail "no client to send SIGTERM to"
ended 4 143

# The room sleeps once the client left, and its replay is closed then.
for _ in $(seq 100); do grep -q "nobody is in it; it sleeps" "$work/server.log" && break; sleep 0.1; done
kill -TERM "$server_pid"; wait "$server_pid" || true; server_pid=""
replay=$(ls "$work"/replays/*m0001.crpl)
"$replay_bin" verify "$replay" > /dev/null || fail "the replay does not verify"
# Runs of the player's input, in ticks: "bits ticks" per line.
"$replay_bin" export --json "$replay" | python3 -c '
import json, sys
runs = []
for line in sys.stdin:
    players = [p for p in json.loads(line)["players"] if p["name"] == "kitty"]
    bits = players[0]["input"] if players else 0
    if runs and runs[-1][0] == bits:
        runs[-1][1] += 1
    else:
        runs.append([bits, 1])
for bits, ticks in runs:
    print(bits, ticks)
' > "$work/runs"
echo "input runs (bits ticks): $(tr '\n' ',' < "$work/runs")"
# Moving right is 16 (move bit, direction 0), up 20 (direction 4), up-right 18 (direction 2).
tap=$(awk '$1 == 16 { print $2; exit }' "$work/runs")
diagonal=$(awk '$1 == 18 { print $2; exit }' "$work/runs")
[[ -n $tap && $tap -ge 2 && $tap -le 5 ]] || fail "a 50 ms tap moved right for ${tap:-no} ticks (3-4 expected)"
[[ -n $diagonal && $diagonal -ge 28 && $diagonal -le 34 ]] ||
  fail "w and d held together 500 ms made ${diagonal:-no} ticks of diagonal (30 expected)"
echo "kitty: a 50 ms tap moved right for $tap ticks, both keys 500 ms made $diagonal ticks of diagonal; flags restored"
