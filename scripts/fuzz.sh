#!/usr/bin/env bash
# Builds the libFuzzer targets (the fuzz preset: clang, ASan + UBSan) and runs
# each for FUZZ_SECONDS (60) from its committed seed corpus. New inputs the
# fuzzer finds go to build/fuzz/corpus/<target> (the committed corpus is only
# read); a crash, leak or timeout leaves its input in build/fuzz/artifacts and
# fails the run. To replay one input: build/fuzz/fuzz/fuzz-<target> FILE.
#   scripts/fuzz.sh [TARGET...]   (default: every target)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-60}"
jobs="${JOBS:-$(nproc)}"

# target:corpus folder (next to the code each one exercises)
all=(
  server-datagrams:server/fuzz/corpus/server_datagrams
  client-updates:shared/netclient/fuzz/corpus/client_updates
  replay-reader:shared/replay/fuzz/corpus/replay_reader
  map-json:shared/protocol/fuzz/corpus/map_json
  map-binary:shared/protocol/fuzz/corpus/map_binary
  stadium-hbs:shared/stadium/fuzz/corpus/stadium_hbs
  connect-token:shared/protocol/fuzz/corpus/connect_token
)
chosen=("$@")

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"

failed=()
for entry in "${all[@]}"; do
  target="${entry%%:*}" seeds="${entry#*:}"
  if [[ ${#chosen[@]} -gt 0 && ! " ${chosen[*]} " =~ " $target " ]]; then continue; fi
  work="build/fuzz/corpus/$target" artifacts="build/fuzz/artifacts/$target"
  mkdir -p "$work" "$artifacts"
  echo "=== fuzz-$target for $seconds s (seeds: $seeds)"
  # The regressions run first, as seeds: a fix that came undone shows at once.
  extra=()
  regressions="${seeds/corpus/regressions}"
  [[ -d "$regressions" ]] && extra+=("$regressions")
  if ! "build/fuzz/fuzz/fuzz-$target" "$work" "$seeds" "${extra[@]}" \
      -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$artifacts/" 2>"build/fuzz/$target.log"; then
    tail -n 40 "build/fuzz/$target.log"
    failed+=("$target")
  else
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done)' "build/fuzz/$target.log" || true
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz: failed: ${failed[*]} (inputs in build/fuzz/artifacts)" >&2
  exit 1
fi
echo "fuzz: every target ran $seconds s without a finding"
