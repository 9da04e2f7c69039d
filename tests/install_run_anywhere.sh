#!/usr/bin/env bash
# carom installs into a prefix and runs from anywhere: `cmake --install` to a
# temporary prefix, then the installed programs run from / and find their maps
# by name (installed data dir, CAROM_MAPS), and the server stops cleanly.
#   install_run_anywhere.sh BUILD_DIR
set -euo pipefail
build=$1
work=$(mktemp -d)
server_pid=""
cleanup() {
  [[ -n $server_pid ]] && kill -9 "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; [[ -f $work/server.log ]] && sed 's/^/  server: /' "$work/server.log" >&2; exit 1; }

prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log" || fail "cmake --install"
for f in bin/carom-server bin/carom-client bin/carom-replay bin/carom-loadgen \
         share/carom/maps/arena.json share/carom/maps/rink.json share/carom/maps/stadium.json \
         share/doc/carom/LICENSE; do
  [[ -e $prefix/$f ]] || fail "$f not installed"
done
if command -v help2man > /dev/null; then
  for p in carom-server carom-client carom-replay carom-loadgen; do
    grep -q '^\.TH' "$prefix/share/man/man1/$p.1" || fail "no man page for $p"
  done
fi
# Nothing of the build tree may be needed: move it out of reach of the paths compiled in.
cd /
unset CAROM_MAPS

# The default map (arena), by name, from the installed data dir.
"$prefix/bin/carom-server" --bind 127.0.0.1 --port 0 --map arena --map rink --rooms 2 \
  --ready-file "$work/ready.json" 2> "$work/server.log" &
server_pid=$!
for _ in $(seq 1 200); do [[ -s $work/ready.json ]] && break; sleep 0.05; done
[[ -s $work/ready.json ]] || fail "installed server did not become ready"
grep -q "room 0 plays arena" "$work/server.log" || fail "room 0 is not on arena"
grep -q "room 1 plays rink" "$work/server.log" || fail "room 1 is not on rink"
kill -TERM "$server_pid"
status=0
for _ in $(seq 1 200); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.05; done
wait "$server_pid" || status=$?
server_pid=""
[[ $status -eq 0 ]] || fail "server exited $status after SIGTERM"
grep -q "stopped after" "$work/server.log" || fail "no clean stop in the log"

# The build tree's own programs run from / too: maps/ beside them.
rm -f "$work/ready.json"
"$build/server/carom-server" --bind 127.0.0.1 --port 0 --map stadium \
  --ready-file "$work/ready.json" 2> "$work/server.log" &
server_pid=$!
for _ in $(seq 1 200); do [[ -s $work/ready.json ]] && break; sleep 0.05; done
[[ -s $work/ready.json ]] || fail "build-tree server did not become ready"
grep -q "room 0 plays stadium" "$work/server.log" || fail "build-tree room 0 is not on stadium"
kill -TERM "$server_pid"
wait "$server_pid" || fail "build-tree server did not stop cleanly"
server_pid=""

# A map of one's own, found through CAROM_MAPS (a list; missing entries are skipped).
mkdir -p "$work/mymaps"
sed 's/"name": *"arena"/"name": "custom"/' "$prefix/share/carom/maps/arena.json" > "$work/mymaps/custom.json"
CAROM_MAPS="$work/nowhere::$work/mymaps" "$prefix/bin/carom-replay" record --map custom \
  --ticks 60 -o "$work/custom.crpl" > "$work/record.log" || fail "record --map custom via CAROM_MAPS"
"$prefix/bin/carom-replay" verify "$work/custom.crpl" > /dev/null || fail "the recorded replay does not verify"

# Without it the name is not found, and the message says where it looked.
status=0
"$prefix/bin/carom-server" --bind 127.0.0.1 --port 0 --map custom 2> "$work/server.log" || status=$?
[[ $status -eq 1 ]] || fail "an unknown map name exited $status, not 1"
grep -q "map 'custom' not found in .*$prefix/share/carom/maps" "$work/server.log" || fail "no useful message for a missing map"
# A match as a web page, from the installed copy of `make web`'s viewer.
for f in carom-viewer.js carom-viewer.wasm.gz page.html viewer.js; do
  [[ -s $prefix/share/carom/web/$f ]] || fail "share/carom/web/$f not installed (make web first)"
done
"$prefix/bin/carom-replay" html "$work/custom.crpl" -o "$work/custom.html" > "$work/html.log" ||
  fail "carom-replay html from the installed viewer"
grep -q "the viewer of $prefix/share/carom/web" "$work/html.log" || fail "html did not take the installed viewer"
grep -q 'id="carom-wasm"' "$work/custom.html" || fail "the page holds no WebAssembly"

# The play page, installed beside the programs, served by the installed server at /.
for f in play.html play.js carom-play.js carom-play.wasm; do
  [[ -s $prefix/share/carom/web/$f ]] || fail "share/carom/web/$f not installed (make web first)"
done
rm -f "$work/ready.json"
"$prefix/bin/carom-server" --bind 127.0.0.1 --port 0 --http 127.0.0.1:0 \
  --ready-file "$work/ready.json" 2> "$work/server.log" &
server_pid=$!
for _ in $(seq 1 200); do [[ -s $work/ready.json ]] && break; sleep 0.05; done
http_port=$(sed -E 's/.*"http_port":([0-9]+).*/\1/' "$work/ready.json")
curl -fsS "http://127.0.0.1:$http_port/" | grep -q 'carom-play.js' || fail "/ is not the play page"
curl -fsS -o /dev/null -w '%{content_type}' "http://127.0.0.1:$http_port/carom-play.wasm" |
  grep -q 'application/wasm' || fail "carom-play.wasm is not served as application/wasm"
grep -q "and the play page" "$work/server.log" || fail "the server did not find the installed page"
kill -TERM "$server_pid"; wait "$server_pid" || true; server_pid=""
echo "installed to $prefix and ran from /: ok"
