#!/usr/bin/env bash
# Runs a Windows program under Wine (Debian's wine64), headless: no display,
# no debug channels, no Mono or Gecko. The Wine prefix is build/wine unless
# WINEPREFIX names another; it is made on first use (some seconds), once,
# even when several programs start together.
#   scripts/wine.sh build/windows/replays/carom-replay.exe verify replays/corpus/*.crpl
set -euo pipefail
wine=/usr/lib/wine/wine64
[[ -x "$wine" ]] || { echo "wine.sh: $wine not found; run scripts/install-deps.sh determinism" >&2; exit 2; }
export WINEPREFIX="${WINEPREFIX:-$(cd "$(dirname "$0")/.." && pwd)/build/wine}"
export WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
unset DISPLAY WAYLAND_DISPLAY
if [[ ! -f "$WINEPREFIX/system.reg" ]]; then
  mkdir -p "$(dirname "$WINEPREFIX")"
  (
    flock 9
    if [[ ! -f "$WINEPREFIX/system.reg" ]]; then
      "$wine" wineboot --init >/dev/null 2>&1 || true
      "${wine%64}server" -w 2>/dev/null || true
    fi
  ) 9>"$WINEPREFIX.lock"
fi
exec "$wine" "$@"
