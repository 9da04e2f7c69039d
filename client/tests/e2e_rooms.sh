#!/usr/bin/env bash
# Joining a server as a player who has none of its maps, on loopback with an
# ephemeral port: a 4-room server plays two HaxBall stadiums and two carom
# maps, its rooms listed by --list (a table) and --list --json; in a real
# terminal (tmux) the client without --room opens on the rooms, Down and
# Enter join the second (a stadium it never saw: the map is fetched, kept
# in the cache, and the match is drawn), q quits; --bot and carom-loadgen
# with an empty cache play on a stadium too. Every client's cache is its own
# XDG_CACHE_HOME under the test's directory.
#   e2e_rooms.sh CAROM_SERVER CAROM_CLIENT CAROM_LOADGEN JSON_FIELD MAPS_DIR STADIUMS_DIR
set -euo pipefail
server_bin=$1 client_bin=$2 loadgen_bin=$3 json_field=$4 maps=$5 stadiums=$6

work=$(mktemp -d)
socket="carom-rooms-$$"
server_pid=""
cleanup() {
  tmux -L "$socket" kill-server 2>/dev/null || true
  if [[ -n $server_pid ]]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; echo "--- server log" >&2; tail -20 "$work/server.log" >&2 || true; exit 1; }

"$server_bin" --bind 127.0.0.1 --port 0 --rooms 4 --bots --name "e2e rooms" \
  --map "$stadiums/curves.hbs,$stadiums/bumpers.hbs,$maps/arena.json,$maps/rink.json" \
  --ready-file "$work/ready.json" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 400); do [[ -s $work/ready.json ]] && break; sleep 0.05; done
port=$(sed -n 's/.*"port": *\([0-9]*\).*/\1/p' "$work/ready.json")
[[ -n $port ]] || fail "server did not start"
server="127.0.0.1:$port"

# The list, as a table and as JSON.
"$client_bin" "$server" --list >"$work/list.txt" || fail "--list exit $?"
cat "$work/list.txt"
grep -q "^e2e rooms ($server, carom .*, protocol [0-9]*): 4 rooms" "$work/list.txt" || fail "no title line"
for map in curves bumpers arena rink; do grep -q " $map " "$work/list.txt" || fail "$map not listed"; done
"$client_bin" "$server" --list --json >"$work/list.json" || fail "--list --json exit $?"
[[ $("$json_field" "$work/list.json" /name) == '"e2e rooms"' ]] || fail "JSON: name"
for i in 0 1 2 3; do
  [[ $("$json_field" "$work/list.json" "/rooms/$i/room") == "$i" ]] || fail "JSON: room $i"
done
[[ $("$json_field" "$work/list.json" /rooms/1/map) == '"bumpers"' ]] || fail "JSON: room 1's map"
[[ $("$json_field" "$work/list.json" /rooms/1/bots) -gt 0 ]] || fail "JSON: room 1's bots"
"$client_bin" 127.0.0.1:1 --list --connect-timeout-ms 500 2>"$work/closed.err" && fail "--list of a closed port succeeded"
grep -q "no status reply" "$work/closed.err" || fail "closed port: $(cat "$work/closed.err")"

# The room screen in a real terminal: Down, Enter joins room 1 (bumpers).
tmux -L "$socket" new-session -d -x 110 -y 32 \
  "XDG_CACHE_HOME=$work/cache $client_bin $server --name e2e --ascii; echo EXIT=\$? > $work/exit; sleep 30"
screen() { tmux -L "$socket" capture-pane -p; }
for _ in $(seq 200); do screen | grep -q "Enter play" && break; sleep 0.05; done
screen | grep -q "^> *0  curves" || fail "no room screen with room 0 selected: $(screen)"
tmux -L "$socket" send-keys Down
for _ in $(seq 100); do screen | grep -q "^> *1  bumpers" && break; sleep 0.05; done
screen | grep -q "^> *1  bumpers" || fail "Down did not select room 1: $(screen)"
tmux -L "$socket" send-keys Enter
# The HUD says which side we play once the match is drawn (not while the map comes).
for _ in $(seq 400); do screen | grep -Eq "you: (left|right)" && break; sleep 0.05; done
screen | grep -Eq "left [0-9]+ : [0-9]+ right.*you: (left|right)" || fail "no match drawn after Enter: $(screen)"
grep -q "(e2e) from .* joined room 1" "$work/server.log" || fail "the server did not seat e2e in room 1"
ls "$work"/cache/carom/maps/*.cmap >/dev/null 2>&1 || fail "the fetched map is not in the cache"
tmux -L "$socket" send-keys q
for _ in $(seq 200); do [[ -s $work/exit ]] && break; sleep 0.05; done
grep -q "EXIT=0" "$work/exit" || fail "client exit: $(cat "$work/exit" 2>/dev/null)"
echo "room screen: room 1 chosen with Down and Enter, its stadium fetched and drawn"

# --bot and carom-loadgen with empty caches, in the stadium rooms.
XDG_CACHE_HOME="$work/cache-bot" "$client_bin" "$server" --bot --room 0 --duration 2 --name ci-bot \
  2>"$work/bot.log" || fail "bot exit $?: $(cat "$work/bot.log")"
grep -q "joined room 0 slot .* on curves (map from the server)" "$work/bot.log" ||
  fail "bot did not fetch the map: $(cat "$work/bot.log")"
echo "bot: $(grep 'left after' "$work/bot.log" | sed 's/.*\] //')"
XDG_CACHE_HOME="$work/cache-bot" "$client_bin" "$server" --bot --room 0 --duration 1 --name ci-bot2 \
  2>"$work/bot2.log" || fail "second bot exit $?"
grep -q "map from .*cache-bot/carom/maps/.*\.cmap" "$work/bot2.log" ||
  fail "the second bot did not find the cached map: $(cat "$work/bot2.log")"
"$loadgen_bin" --server "$server" --clients 2 --rooms 1 --seconds 3 --json \
  --map-cache "$work/cache-load" >"$work/load.json" 2>"$work/load.err" ||
  fail "loadgen: $(cat "$work/load.err" "$work/load.json")"
[[ $("$json_field" "$work/load.json" /map_problems) == "{}" ]] || fail "loadgen map problems"
echo "bot and loadgen played room 0's stadium from an empty cache"
echo "PASS"
