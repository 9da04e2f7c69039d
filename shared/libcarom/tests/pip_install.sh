#!/usr/bin/env bash
# The Python package installs from the tree without the network (no build
# isolation, no index) and imports from where it went.
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
import carom, sys
assert carom.__file__.startswith(sys.argv[1]), carom.__file__
print("ok: carom", carom.__version__, "installed to", sys.argv[1])
' "$work/installed"
