#!/usr/bin/env bash
# carom-replay verify in a real terminal (tmux): its progress bar is gone
# when the verdict prints; the verdict line stands alone.
#   verify_progress.sh CAROM_REPLAY REPLAY
set -euo pipefail
tool=$1
file=$2
socket="carom-verify-progress-$$"
cleanup() { tmux -L "$socket" kill-server 2> /dev/null || true; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
screen() { tmux -L "$socket" capture-pane -p -t v; }

tmux -L "$socket" new-session -d -s v -x 200 -y 10 \
  "'$tool' verify '$file'; echo \"exit-\$?\"; sleep 60"
for _ in $(seq 400); do screen | grep -q '^exit-' && break; sleep 0.05; done
shown=$(screen)
grep -q '^exit-0' <<< "$shown" || fail "verify did not finish with 0: $shown"
grep -Eq "^$file: OK: " <<< "$shown" || fail "the verdict does not start its own line: $shown"
if grep -q '\[#' <<< "$shown"; then fail "the progress bar is still on screen: $shown"; fi
echo "verify's progress bar cleared: ok"
