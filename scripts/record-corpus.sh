#!/usr/bin/env bash
# Re-records the replay corpus (replays/corpus/) on purpose, after a change to
# the rules or the physics that changes how matches play. Review the result
# with `git diff --stat replays/corpus` and `carom-replay info` before committing.
#   scripts/record-corpus.sh PATH/TO/carom-replay [OUT_DIR]
# OUT_DIR (default replays/corpus) lets a change be checked without touching
# the corpus: a refactoring must record every file byte for byte the same.
set -euo pipefail
tool="$(realpath "${1:?usage: scripts/record-corpus.sh PATH/TO/carom-replay [OUT_DIR]}")"
out="$(realpath -m "${2:-$(dirname "$0")/../replays/corpus}")"
cd "$(dirname "$0")/.."
maps=shared/game/maps
mkdir -p "$out"

record() {
  local name="$1"; shift
  rm -f "$out/$name.crpl"  # record never overwrites a replay
  "$tool" record -o "$out/$name.crpl" "$@"
}

record duel-rink          --map "$maps/rink.json"    --players 2 --seed 1
record team-arena         --map "$maps/arena.json"   --seed 2
record hard-kicks-rink    --map "$maps/rink.json"    --seed 3 --kick-speed 1500
record churn-arena        --map "$maps/arena.json"   --players 5 --churn 7 --seed 4
record churn-rink         --map "$maps/rink.json"    --players 1 --churn 3 --seed 6 --ticks 3600
record ten-minutes-stadium --map "$maps/stadium.json" --seed 5
# A HaxBall stadium, imported: arcs, posts, planes, ball-only lines, kick-off barriers.
record curves-stadium     --map shared/stadium/stadiums/curves.hbs --seed 7
# Movable discs: bumpers pushed about, put back at each kick-off.
record bumpers-stadium    --map shared/stadium/stadiums/bumpers.hbs --seed 8
