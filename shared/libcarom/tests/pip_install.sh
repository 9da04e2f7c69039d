#!/usr/bin/env bash
# The Python package installs from the tree without the network (no build
# isolation, no index) and imports from where it went, carom.env included.
# Usage: pip_install.sh PYTHON LIBCAROM SOURCE_DIR
set -euo pipefail
python=$1 libcarom=$2 src=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A copy: pip builds in the tree it is given, and the source tree stays clean.
cp -r "$src/shared/libcarom/python" "$work/source"
"$python" -m pip install --quiet --no-build-isolation --no-index --target "$work/installed" \
          "$work/source"
cd "$work"
CAROM_LIBRARY="$libcarom" PYTHONPATH="$work/installed" "$python" -c '
import carom, carom.env, sys
assert carom.__file__.startswith(sys.argv[1]), carom.__file__
env = carom.env.CaromEnv(sys.argv[2])
_, info = env.reset(seed=1)
_, _, _, _, info = env.step([0] * len(env.agents))
assert info["state_hash"] == env.match.state_hash() != 0, info
print("ok: carom", carom.__version__, "and carom.env installed to", sys.argv[1])
' "$work/installed" "$src/shared/game/maps/rink.json"
