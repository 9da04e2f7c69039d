#!/usr/bin/env bash
# The command-line contract of every carom program, over a table of bad
# arguments: exit 2 and exactly one line on stderr naming the program and the
# problem; --version prints the versions; the server's options each have an
# environment variable; output that cannot be written is a non-zero exit.
#   cli_contract.sh BIN_DIR_OF_EACH... (KEY=PATH pairs: server=... replay=...)
set -uo pipefail
declare -A bin
for pair in "$@"; do bin[${pair%%=*}]=${pair#*=}; done
corpus=${bin[corpus]}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
checked=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# tool | arguments (word-split) | exit code | extended regex the one stderr line must match
table=$(cat <<'TABLE'
server|--bogus|2|^carom-server: .*--bogus.* \(see --help\)$
server|--timeout -1|2|^carom-server: --timeout: -1 is outside \[0\.1, 3600\]
server|--timeout nan|2|^carom-server: --timeout: 'nan' is not a finite number
server|--grace nan|2|^carom-server: --grace: 'nan' is not a finite number
server|--grace -5|2|^carom-server: --grace: -5 is outside
server|--final-pause inf|2|^carom-server: --final-pause: 'inf' is not a finite number
server|--stats-interval -1|2|^carom-server: --stats-interval: -1 is outside
server|--rooms 0|2|^carom-server: --rooms: 0 is outside \[1, 4096\]
server|--rooms ten|2|^carom-server: --rooms: 'ten' is not a number
server|--port 70000|2|^carom-server: .*--port
server|--update-rate 7|2|^carom-server: --update-rate: 7 not in
server|--snapshot-rate 7|2|^carom-server: --update-rate: 7 not in
server|--input-redundancy 0|2|^carom-server: --input-redundancy: 0 is outside \[1, 64\]
server|--max-clients -1|2|^carom-server: --max-clients: -1 is outside
server|--http nowhere|2|^carom-server: --http: 'nowhere' is not ADDR:PORT
server|--http 127.0.0.1:99999|2|^carom-server: --http: '127.0.0.1:99999' is not ADDR:PORT
server|--stall-after 0|2|^carom-server: --stall-after: 0 is outside
server|--log-level loud|2|^carom-server: --log-level: loud not in
server|--log-format xml|2|^carom-server: --log-format: xml not in
client|127.0.0.1 --fps nan|2|^carom-client: --fps: 'nan' is not a finite number
client|127.0.0.1 --fps 0|2|^carom-client: --fps: 0 is outside \[1, 240\]
client|127.0.0.1 --duration -1|2|^carom-client: --duration: -1 is outside
client|127.0.0.1 --hold-ms 1|2|^carom-client: --hold-ms: 1 is outside
client|127.0.0.1 --log-level loud|2|^carom-client: --log-level: loud not in
client||2|^carom-client: .*server.* \(see --help\)$
client|host:notaport|2|^carom-client: 
replay||2|^carom-replay: .*subcommand
replay|nosuch|2|^carom-replay: 
replay|export|2|^carom-replay: .*file.*required
replay|export x.crpl --json --every 0|2|^carom-replay: --every: 0 is outside
replay|export x.crpl --json --every nan|2|^carom-replay: --every: 'nan' is not a finite number
replay|record --map arena -o x.crpl --kick-speed nan|2|^carom-replay: --kick-speed: 'nan' is not a finite number
replay|record --map arena -o x.crpl --kick-speed -5|2|^carom-replay: --kick-speed: -5 is outside \[0, 2000\]
replay|record --map arena -o x.crpl --churn -1|2|^carom-replay: --churn: -1 is outside
replay|record --map arena -o x.crpl --ticks -1|2|^carom-replay: --ticks
replay|cast x.crpl -o x.cast --speed 0|2|^carom-replay: --speed: 0 is outside
replay|play x.crpl --fps nan|2|^carom-replay: --fps: 'nan' is not a finite number
replay|info /|2|^carom-replay info: /: is a directory$
replay|verify /tmp|2|^carom-replay verify: /tmp: is a directory$
loadgen||2|^carom-loadgen: .*--server.*required
loadgen|--server 127.0.0.1:1 --seconds -1|2|^carom-loadgen: --seconds: -1 is outside
loadgen|--server 127.0.0.1:1 --seconds nan|2|^carom-loadgen: --seconds: 'nan' is not a finite number
loadgen|--server 127.0.0.1:1 --clients 0|2|^carom-loadgen: nothing to simulate
loadgen|--server nohost|2|^carom-loadgen: --server
flood|--port 1 --seconds 0|2|^carom-flood: --seconds: 0 is outside
flood|--port 1 --seconds nan|2|^carom-flood: --seconds: 'nan' is not a finite number
flood|--port 1 --junk-percent 101|2|^carom-flood: --junk-percent: 101 is outside \[0, 100\]
flood|--port 1 --attacks nope|2|^carom-flood: --attacks: unknown kind 'nope'
flood|--port 1 --victims 127.0.0.1:x|2|^carom-flood: --victims: '127.0.0.1:x' is not 127.x.y.z:PORT
flood|--port 1 --victims 10.0.0.1:5000|2|^carom-flood: --victims: '10.0.0.1:5000' is not 127.x.y.z:PORT
clientbench|--seconds nan|2|^carom-client-bench: --seconds: 'nan' is not a finite number
bench||2|^carom-bench: 
bench|physics --n nan|2|^carom-bench: 
token||2|^carom-token: .*subcommand
token|keygen|2|^carom-token: --output is required
token|make --key k --id 1 --name a --server h:1 --expires 0|2|^carom-token: --expires: 0 is outside
token|make --key k --id 1 --name a --server h:1 --expires nan|2|^carom-token: --expires: 'nan' is not a finite number
token|make --key k --id 1 --server h:1 --expires 5|2|^carom-token: .*--name.*required
token|make --key k --id 1 --name a --server nope --expires 5|2|^carom-token: --server nope: 'nope' has no :PORT
client|--token /nonexistent|2|^carom-client: --token /nonexistent: cannot read the connect token
loadgen|--server 127.0.0.1:1 --token x --token-key y|2|^carom-loadgen: --token excludes --token-key
loadgen|--server 127.0.0.1:1 --clients 1 --token /nonexistent|2|^carom-loadgen: --token /nonexistent: cannot read
stadium||2|^carom-stadium: .*stadium.*required
stadium|x.hbs --team-size 17|2|^carom-stadium: --team-size: 
stadium|x.hbs --bogus|2|^carom-stadium: .*--bogus
TABLE
)

while IFS='|' read -r tool args code pattern; do
  [[ -z $tool ]] && continue
  [[ -n ${bin[$tool]:-} ]] || continue  # not built in this configuration
  checked=$((checked + 1))
  # shellcheck disable=SC2086  # the arguments are word-split on purpose
  (cd "$work" && timeout 20 "${bin[$tool]}" $args > "$work/out" 2> "$work/err" < /dev/null)
  got=$?
  lines=$(wc -l < "$work/err")
  if [[ $got -ne $code ]]; then
    fail "$tool $args: exit $got, expected $code (stderr: $(head -c 300 "$work/err"))"
  elif [[ $lines -ne 1 ]]; then
    fail "$tool $args: $lines lines on stderr, expected one: $(head -c 300 "$work/err")"
  elif ! grep -Eq "$pattern" "$work/err"; then
    fail "$tool $args: '$(cat "$work/err")' does not match /$pattern/"
  fi
done <<< "$table"

# --version: the carom version, protocol and replay versions, exit 0.
for tool in server client replay loadgen flood clientbench bench stadium token; do
  [[ -n ${bin[$tool]:-} ]] || continue
  checked=$((checked + 1))
  out=$("${bin[$tool]}" --version 2>&1)
  [[ $? -eq 0 && $out =~ ^carom\ [0-9]+\.[0-9]+\.[0-9]+\ \(protocol\ [0-9]+,\ replay\ format\ [0-9]+,\ replay\ core\ [0-9]+\)$ ]] ||
    fail "$tool --version: '$out'"
done

# The server: every option in --help has an environment variable (the service's contract).
if [[ -n ${bin[server]:-} ]]; then
  checked=$((checked + 1))
  missing=$("${bin[server]}" --help | grep -E '^  +--' | grep -Ev '^  +(-h,)?--(help|version)' | grep -v '(Env:' || true)
  [[ -z $missing ]] || fail "server options without an environment variable: $missing"
fi

# Output that cannot be written is an error, not a silent exit 0.
if [[ -n ${bin[replay]:-} && -e /dev/full ]]; then
  checked=$((checked + 1))
  "${bin[replay]}" export "$corpus" --json > /dev/full 2> "$work/err"
  got=$?
  [[ $got -ne 0 ]] || fail "carom-replay export > /dev/full exited 0"
  grep -q "cannot write standard output" "$work/err" || fail "export > /dev/full: $(cat "$work/err")"
  checked=$((checked + 1))
  "${bin[replay]}" info "$corpus" --json > /dev/full 2> /dev/null
  [[ $? -ne 0 ]] || fail "carom-replay info > /dev/full exited 0"
  checked=$((checked + 1))
  "${bin[replay]}" --help > /dev/full 2> /dev/null
  [[ $? -ne 0 ]] || fail "carom-replay --help > /dev/full exited 0"
fi

echo "$((checked - failures)) passed, $failures failed"
[[ $failures -eq 0 ]]
