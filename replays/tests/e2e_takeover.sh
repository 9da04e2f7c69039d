#!/usr/bin/env bash
# Taking over a player of a corpus replay in a real terminal (tmux): t takes
# over the followed player at the paused tick, the keys steer, Esc returns to
# the replay at that tick, q quits and prints the branch's path; the branch
# verifies (synctest) alone, names its parent and tick (info), and diff says
# they part at that tick. --take with --others recorded starts at once. Bad
# input (a tick past the end, a slot nobody holds, a damaged parent) is one
# line on stderr and exit 2.
#   e2e_takeover.sh CAROM_REPLAY REPLAY
set -euo pipefail
tool=$(realpath "$1")
file=$(realpath "$2")
name=$(basename "$file")

work=$(mktemp -d)
socket="carom-takeover-e2e-$$"
cleanup() {
  tmux -L "$socket" kill-server 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
screen() { tmux -L "$socket" capture-pane -p -t "$1"; }
# wait_for WINDOW PATTERN: polls the pane (up to 10 s) until PATTERN shows.
wait_for() {
  for _ in $(seq 200); do screen "$1" | grep -qF -- "$2" && return 0; sleep 0.05; done
  fail "'$2' never showed on $1: $(screen "$1")"
}
clock() { local t=$(($1 * 10 / 60)); printf '%d:%02d.%d' $((t / 600)) $((t / 10 % 60)) $((t % 10)); }
json() { "$tool" info --json "$1" | python3 -c "import json,sys; j=json.load(sys.stdin); print($2)"; }

mkdir "$work/branches"
# ESCDELAY: ncurses tells Esc from an escape sequence after this many ms.
tmux -L "$socket" new-session -d -x 110 -y 32 -n main \
  "cd '$work'; ESCDELAY=25 $tool play '$file' --ascii --tick 1000 --follow bot0 --branch-dir branches 2> err; echo EXIT=\$? > exit; sleep 60"
wait_for main "/ 2:01.0"
tmux -L "$socket" send-keys -t main Space
wait_for main "|| "
paused=$(screen main | grep -F '|| ' | sed -E 's/^\|\| ([0-9:.]+) .*/\1/')
tmux -L "$socket" send-keys -t main t
wait_for main "TAKEN OVER"
wait_for main "you: bot0"
wait_for main "branch of $name at tick"
start=$(screen main | grep -oE "branch of $name at tick [0-9]+" | grep -oE '[0-9]+$')
[[ $(clock "$start") == "$paused" ]] || fail "took over at tick $start, the replay was paused at $paused"
for key in d d d Space w w a Space; do tmux -L "$socket" send-keys -t main "$key"; sleep 0.05; done
wait_for main "(+0:01."
tmux -L "$socket" send-keys -t main Escape
branch="branches/${name%.crpl}-t$start-s0.crpl"
wait_for main "branch written: $branch"
wait_for main "|| $(clock "$start") / 2:01.0"
echo "back at $(clock "$start") after the takeover from tick $start"
tmux -L "$socket" send-keys -t main q
for _ in $(seq 200); do [[ -s $work/exit ]] && break; sleep 0.05; done
grep -q "EXIT=0" "$work/exit" || fail "play exit after q: $(cat "$work/exit" 2>/dev/null) $(cat "$work/err")"
wait_for main "branch: $branch"
[[ -f $work/$branch ]] || fail "no branch file $branch: $(ls "$work/branches")"

# The branch verifies alone, names its parent, and diff says where they part.
"$tool" verify --synctest "$work/$branch" >"$work/verify" || fail "verify: $(cat "$work/verify")"
grep -qF "a branch of $name at tick $start; its parent is not at hand: verified alone" "$work/verify" ||
  fail "verify: $(cat "$work/verify")"
"$tool" verify "$work/$branch" --parent "$file" >"$work/verify2" || fail "verify --parent: $(cat "$work/verify2")"
grep -qF "its state at tick $start is the branch's start" "$work/verify2" || fail "verify --parent: $(cat "$work/verify2")"
[[ $(json "$work/$branch" "j['parent']['name'], j['parent']['tick'], j['format_version']") == "$name $start 3" ]] ||
  fail "info --json: $(json "$work/$branch" "j['parent']")"
"$tool" info "$work/$branch" | grep -qF "a branch of $name (XXH3-128 " || fail "info: $("$tool" info "$work/$branch")"
set +e
"$tool" diff "$file" "$work/$branch" >"$work/diff"
code=$?
set -e
[[ $code -eq 1 ]] || fail "diff exit $code: $(cat "$work/diff")"
grep -qF "they part at tick $start: B is a branch of A" "$work/diff" || fail "diff: $(cat "$work/diff")"
grep -qE "^first difference at tick [0-9]+" "$work/diff" || fail "diff: $(cat "$work/diff")"
echo "branch $branch: verified, $(head -1 "$work/diff")"

# --take at once, the others playing their recorded inputs.
tmux -L "$socket" new-window -d -n take \
  "cd '$work'; $tool play '$file' --ascii --tick 500 --take bot1 --others recorded --branch-dir branches 2> err2; echo EXIT=\$? > exit2; sleep 60"
wait_for take "branch of $name at tick 500"
wait_for take "others: recorded"
tmux -L "$socket" send-keys -t take a
wait_for take "(+0:01."
tmux -L "$socket" send-keys -t take q
for _ in $(seq 200); do [[ -s $work/exit2 ]] && break; sleep 0.05; done
grep -q "EXIT=0" "$work/exit2" || fail "--take exit: $(cat "$work/exit2") $(cat "$work/err2")"
"$tool" verify --synctest "$work/branches/${name%.crpl}-t500-s2.crpl" >/dev/null || fail "the --take branch does not verify"
echo "--take bot1 --others recorded: verified"

# Bad input: one line, exit 2.
one_line_exit_2() {  # one_line_exit_2 WHAT ARGS...
  local what=$1; shift
  set +e
  "$tool" play "$@" 2>"$work/bad" </dev/null
  local code=$?
  set -e
  [[ $code -eq 2 ]] || fail "$what: exit $code"
  [[ $(wc -l <"$work/bad") -eq 1 ]] || fail "$what: not one line: $(cat "$work/bad")"
  echo "$what: $(cat "$work/bad")"
}
last=$(json "$file" "j['last_tick']")
one_line_exit_2 "past the end" "$file" --tick $((last + 1)) --take bot0
one_line_exit_2 "a slot nobody holds" "$file" --tick 100 --take 1
head -c $(($(stat -c %s "$file") / 2)) "$file" >"$work/damaged.crpl"
one_line_exit_2 "a damaged parent" "$work/damaged.crpl" --tick 10 --take bot0
# A damaged parent given to verify: the branch verified, the parent refused (exit 2).
set +e
"$tool" verify "$work/$branch" --parent "$work/damaged.crpl" >"$work/verify3"
code=$?
set -e
[[ $code -eq 2 ]] || fail "verify --parent DAMAGED: exit $code: $(cat "$work/verify3")"
grep -qF "damaged at byte" "$work/verify3" || fail "verify --parent DAMAGED: $(cat "$work/verify3")"
echo "ok"
