#!/usr/bin/env bash
# The commands of README.md and docs/*.md run as written. The convention:
#   ```sh    a block this test runs
#   ```text  a block shown and not run (it needs root, a terminal, the network
#            beyond loopback, or minutes: make play, make test, make install,
#            carom-replay play, a server on port 27960)
# Any other fence that could hold commands (```bash, ```shell, ```console,
# ```zsh, a bare ```) fails the test: every block says which it is. Fences of
# data (```json, ```yaml...) are left alone.
#
# Each sh block runs in `bash -eo pipefail`, from a fresh directory that looks
# like the repository's root (its top-level entries are links into the source
# tree, and build/release is the build under test), with the build's programs
# first on PATH, as `make install` would put them. So `carom-replay verify
# replays/corpus/duel-rink.crpl` and `build/release/server/carom-server` both
# mean this build's programs and this tree's files, whatever the preset.
# A block binds only to loopback on ports the system picks (--bind 127.0.0.1
# --port 0) and writes only into its directory. It gets BLOCK_TIMEOUT seconds
# (60); after it, whatever it left running (a server started with &) is
# stopped: its process group gets SIGTERM, then SIGKILL. A block fails the
# test when it exits non-zero, times out, or writes into the source tree; the
# failure names the file and line and prints the block and its output
# (VERBOSE=1 prints every block's output).
#   readme_commands.sh SOURCE_DIR BUILD_DIR PROGRAM...
set -uo pipefail
src=$(cd "${1:?source dir}" && pwd)
build=$(cd "${2:?build dir}" && pwd)
shift 2
block_timeout=${BLOCK_TIMEOUT:-60}

work=$(mktemp -d)
group=""   # the process group of the block running now
stop_group() {  # stop_group PGID: SIGTERM to the group, then SIGKILL after 5 s
  local g=$1
  kill -TERM -- "-$g" 2> /dev/null || return 0
  for _ in $(seq 50); do
    kill -0 -- "-$g" 2> /dev/null || return 0
    sleep 0.1
  done
  kill -KILL -- "-$g" 2> /dev/null || true
}
cleanup() {
  [[ -n $group ]] && stop_group "$group"
  rm -rf "$work"
}
trap cleanup EXIT

# The build's programs, first on PATH (their folders, each once).
path=""
for program in "$@"; do
  [[ -x $program ]] || { echo "FAIL: $program is not an executable"; exit 1; }
  dir=$(dirname "$program")
  case ":$path:" in *":$dir:"*) ;; *) path=${path:+$path:}$dir ;; esac
done
export PATH="$path:$PATH"
# Nothing from the caller's environment reaches the programs' options.
while read -r name; do unset "$name"; done < <(compgen -e | grep -E '^(CAROM_|AGONES_)')

# Extract the blocks: blocks/PAGE-LINE.sh, and beside it .where ("README.md:42").
shopt -s nullglob
pages=("$src/README.md" "$src"/docs/*.md)
shopt -u nullglob
mkdir "$work/blocks"
refused=0
index=0
for page in "${pages[@]}"; do
  index=$((index + 1))
  awk -v rel="${page#"$src"/}" -v prefix="$(printf '%s/%02d' "$work/blocks" "$index")" '
    !inside && /^```/ {
      info = substr($0, 4); sub(/[ \t].*$/, "", info)
      inside = 1; first = NR; run = (info == "sh")
      if (run) { file = sprintf("%s-%05d", prefix, NR); print rel ":" NR > (file ".where"); close(file ".where") }
      else if (info == "" || info ~ /^(bash|shell|console|zsh|sh-session|shell-session|terminal)$/) {
        print "FAIL: " rel ":" NR ": a block fenced as \"```" info "\": fence it as sh (run by this test) or text (shown only)"
        refused++
      }
      next
    }
    inside && /^```[ \t]*$/ { inside = 0; if (run) close(file ".sh"); next }
    inside && run { print > (file ".sh") }
    END {
      if (inside) { print "FAIL: " rel ":" first ": a block that is never closed"; refused++ }
      exit (refused > 0)
    }' "$page" || refused=1
done
[[ $refused -eq 0 ]] || exit 1

mapfile -t blocks < <(find "$work/blocks" -name '*.sh' | sort)
if [[ ${#blocks[@]} -eq 0 ]]; then
  echo "FAIL: no sh block in README.md or docs/: the convention above is not in use"
  exit 1
fi

# A directory that looks like the repository's root, build/release the build.
make_root() {
  local root=$1 entry
  mkdir -p "$root/build"
  for entry in "$src"/*; do
    [[ $(basename "$entry") == build ]] && continue
    ln -s "$entry" "$root/$(basename "$entry")"
  done
  ln -s "$build" "$root/build/release"
}

# Files of the source tree changed since STAMP (build/ and .git/ aside).
changed_since() {
  find "$src" \( -path "$src/build" -o -path "$src/.git" \) -prune -o -newer "$1" -type f -print
}

failures=0
ran=0
for block in "${blocks[@]}"; do
  where=$(cat "${block%.sh}.where")
  root=$(mktemp -d "$work/root.XXXXXX")
  make_root "$root"
  touch "$work/stamp"
  sleep 0.01
  # timeout makes itself a process group leader, the group of everything the
  # block starts: that group is stopped after the block, or at the deadline.
  (cd "$root" && exec timeout -k 5 "$block_timeout" bash -eo pipefail "$block") \
    > "$work/out" 2>&1 < /dev/null &
  group=$!
  wait "$group"
  status=$?
  stop_group "$group"
  group=""
  ran=$((ran + 1))
  problem=""
  if [[ $status -eq 124 || $status -eq 137 ]]; then
    problem="did not finish within ${block_timeout} s"
  elif [[ $status -ne 0 ]]; then
    problem="exited $status"
  fi
  written=$(changed_since "$work/stamp")
  if [[ -n $written ]]; then
    problem="${problem:+$problem; }wrote into the source tree: $(echo "$written" | head -5 | tr '\n' ' ')"
  fi
  if [[ -n $problem ]]; then
    failures=$((failures + 1))
    echo "FAIL: $where: the sh block $problem"
    sed 's/^/  | /' "$block"
    echo "  output:"
    tail -n 60 "$work/out" | sed 's/^/  > /'
  else
    echo "ok: $where"
    [[ -n ${VERBOSE:-} ]] && sed 's/^/  > /' "$work/out"
  fi
  rm -rf "$root"
done
echo "$ran sh blocks run, $failures failed"
[[ $failures -eq 0 ]]
