#!/usr/bin/env bash
# carom-replay play end to end in a real terminal (tmux): it shows the HUD and
# the timeline; space pauses, Home goes to the start, ] to the next goal: the
# score has changed and the timeline shows the goal's time; q quits with exit 0
# and the terminal modes restored; SIGTERM also restores them (exit 143); a
# damaged file says where it stops; without a terminal play refuses (exit 2,
# pointing at export and cast); an unreadable file exits 2 with the reason.
#   e2e_play.sh CAROM_REPLAY REPLAY
set -euo pipefail
tool=$1
file=$2

work=$(mktemp -d)
socket="carom-play-e2e-$$"
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
# clock TICK: the timeline's m:ss.t at 60 Hz.
clock() { local t=$(($1 * 10 / 60)); printf '%d:%02d.%d' $((t / 600)) $((t / 10 % 60)) $((t % 10)); }

# The first two goals, from the file itself (info --json): tick and scoring team.
mapfile -t goals < <("$tool" info --json "$file" |
  grep -oE '"kind":"goal"[^}]*"team":"(left|right)","tick":[0-9]+' |
  sed -E 's/.*"team":"([a-z]+)","tick":([0-9]+)/\2 \1/' | head -n 2)
[[ ${#goals[@]} -eq 2 ]] || fail "expected two goals in $file, got: ${goals[*]}"
read -r goal1 team1 <<<"${goals[0]}"
read -r goal2 team2 <<<"${goals[1]}"
score_after() {  # score_after TEAM... : "left L : R right" after those goals
  local l=0 r=0
  for t in "$@"; do if [[ $t == left ]]; then l=$((l + 1)); else r=$((r + 1)); fi; done
  echo "left $l : $r right"
}

tmux -L "$socket" new-session -d -x 100 -y 32 -n main \
  "stty -a > $work/stty.before; $tool play '$file' --ascii; echo EXIT=\$? > $work/exit; stty -a > $work/stty.after; sleep 60"
wait_for main "/ 2:01.0"
wait_for main "left 0 : 0 right"
grep -q "#####" <<<"$(screen main)" || fail "no arena walls: $(screen main)"

tmux -L "$socket" send-keys -t main Space
wait_for main "|| "
tmux -L "$socket" send-keys -t main Home
wait_for main "|| 0:00.0 / 2:01.0"
tmux -L "$socket" send-keys -t main ']'
wait_for main "|| $(clock "$goal1") / 2:01.0"
wait_for main "$(score_after "$team1")"
wait_for main "GOAL!"
echo "next goal: $(screen main | grep -F '||')"
tmux -L "$socket" send-keys -t main ']'
wait_for main "|| $(clock "$goal2") / 2:01.0"
wait_for main "$(score_after "$team1" "$team2")"
# One tick back: the second goal has not happened yet.
tmux -L "$socket" send-keys -t main ','
wait_for main "|| $(clock $((goal2 - 1))) / 2:01.0"
wait_for main "$(score_after "$team1")"
tmux -L "$socket" send-keys -t main End
wait_for main "FINAL "
echo "end: $(screen main | grep -F 'FINAL')"

tmux -L "$socket" send-keys -t main q
for _ in $(seq 200); do [[ -s $work/exit ]] && break; sleep 0.05; done
grep -q "EXIT=0" "$work/exit" || fail "play exit after q: $(cat "$work/exit" 2>/dev/null)"
for _ in $(seq 100); do [[ -s $work/stty.after ]] && break; sleep 0.05; done
diff "$work/stty.before" "$work/stty.after" >/dev/null || fail "terminal modes not restored after q"
echo "q: exit 0, terminal restored"

# SIGTERM: the terminal is restored too.
tmux -L "$socket" new-window -d -n term \
  "stty -a > $work/stty2.before; sh -c 'echo \$\$ > $work/pid; exec $tool play \"$file\" --ascii'; echo EXIT=\$? > $work/exit2; stty -a > $work/stty2.after; sleep 60"
wait_for term "/ 2:01.0"
kill -TERM "$(cat "$work/pid")"
for _ in $(seq 200); do [[ -s $work/stty2.after ]] && break; sleep 0.05; done
grep -q "EXIT=143" "$work/exit2" || fail "play exit after SIGTERM: $(cat "$work/exit2" 2>/dev/null)"
diff "$work/stty2.before" "$work/stty2.after" >/dev/null || fail "terminal modes not restored after SIGTERM"
echo "SIGTERM: exit 143, terminal restored"

# A damaged file (cut in half) plays and says where it stops.
size=$(stat -c %s "$file")
head -c $((size / 2)) "$file" > "$work/cut.crpl"
tmux -L "$socket" new-window -d -n cut "$tool play '$work/cut.crpl' --ascii; sleep 60"
wait_for cut "damaged file: plays to"
echo "damaged: $(screen cut | grep -F 'damaged file')"

# No terminal: refused, exit 2, pointing at export and cast.
rc=0
out=$("$tool" play "$file" </dev/null 2>&1 >/dev/null) || rc=$?
[[ $rc -eq 2 ]] || fail "without a terminal: exit $rc, want 2"
grep -q "export" <<<"$out" && grep -q "cast" <<<"$out" || fail "no pointer to export and cast: $out"
# An unreadable file: exit 2 and the reason.
: > "$work/empty.crpl"
rc=0
out=$("$tool" play "$work/empty.crpl" 2>&1 >/dev/null) || rc=$?
[[ $rc -eq 2 ]] && grep -q "unreadable" <<<"$out" || fail "empty file: exit $rc, $out"
echo "no terminal: exit 2; unreadable: exit 2 ($out)"
