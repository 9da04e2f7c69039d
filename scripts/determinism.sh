#!/usr/bin/env bash
# The determinism matrix: builds carom-replay with different compilers,
# optimisation levels, sanitizers, three other architectures (aarch64,
# 32-bit x86 with SSE2, big-endian s390x), WebAssembly (emscripten, run
# by Node; the same build as `make web`, in build/web) and 64-bit Windows
# (MinGW-w64, run by Wine; the same build as `make windows`, in
# build/windows), re-simulates the replay corpus in
# each (verify --synctest) and checks that every configuration passes and
# reports the same final hash for every file. One more configuration,
# i686-x87 (80-bit x87 intermediates), is known to differ: it must be
# reported diverging, naming a tick, or the matrix itself is broken. Each configuration
# also re-runs the bot AI (carom-replay bots, a bot-only match on a corpus
# file's map and seed, which needs no map file) and must end on the golden
# hash in replays/tests/bot_match.golden, and records a bot match of its own
# (carom-replay record, on a map read from JSON by that build): every
# recording must be byte for byte the reference configuration's, and verify
# with its build. The
# cross configurations also build and run the protocol's tests (packet codec,
# delta streams) under qemu or Wine, so the wire format is proven byte-order
# free. Windows also loads carom.dll from a C program built by MinGW and
# replays a corpus file to its hash (the windows preset's CTest test).
#   scripts/determinism.sh              every configuration
#   scripts/determinism.sh gcc-O2 ...   only these (names as in the table)
# Builds go to build/determinism/<configuration>; JOBS sets the parallelism.
# Exit 0 = all identical; 1 = a build, a verify or a hash comparison failed.
set -euo pipefail
cd "$(dirname "$0")/.."

JOBS="${JOBS:-$(nproc)}"
root="build/determinism"

# name: CMake preset (for its compiler and flags), extra cache variables.
# The asan preset is gcc -O1 with ASan+UBSan; the other presets' optimisation
# levels are overridden here where the matrix wants a different one.
configs=(gcc-O0 gcc-O2 clang-O3 asan aarch64 i686 s390x wasm32 win64 i686-x87)
declare -A preset=(
  [gcc-O0]=debug [gcc-O2]=release [clang-O3]=clang [asan]=asan [aarch64]=release
  [i686]=release [s390x]=release [wasm32]=web [win64]=windows [i686-x87]=release
)
cross() { echo "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG|-DCMAKE_TOOLCHAIN_FILE=$PWD/cmake/$1-linux-gnu.cmake|-DCAROM_MAP_FILES=ON"; }
declare -A extra=(
  [gcc-O0]=""
  [gcc-O2]="-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"
  [clang-O3]=""
  [asan]=""
  [aarch64]="$(cross aarch64)"
  [i686]="$(cross i686)"
  [s390x]="$(cross s390x)"
  [wasm32]=""
  [win64]=""
  [i686-x87]="$(cross i686)|-DCAROM_X87=ON"
)
# Where each configuration builds (build/determinism/<name>, but wasm32 and
# win64: their presets' own directories, so that `make web` and `make
# windows` share them with the matrix).
declare -A build_dir=([wasm32]=build/web [win64]=build/windows)
# The programs' file name suffix (carom-replay.js under Node, .exe on Windows).
declare -A suffix=([wasm32]=.js [win64]=.exe)
dir_of() { echo "${build_dir[$1]:-$root/$1}"; }
tool_of() { echo "$(dir_of "$1")/replays/carom-replay${suffix[$1]:-}"; }
# How to run the binary: the other architectures under user-mode emulation,
# Windows under Wine (headless, its prefix in build/wine).
declare -A runner=(
  [aarch64]=qemu-aarch64-static [i686]=qemu-i386-static [s390x]=qemu-s390x-static
  [i686-x87]=qemu-i386-static [wasm32]=node [win64]=scripts/wine.sh
)
# CTest tests of a configuration's own (label: the targets they need), run
# after its build: carom.dll from C under Wine.
declare -A own_tests=([win64]="windows:carom_replay_hash")
declare -A own=()  # [config] OK or FAIL
# Configurations without the protocol tests (WebAssembly is little-endian,
# as x86_64 is: s390x is the byte-order check) and without the JSON map
# parser, which record the same map from the corpus replay that embeds it.
declare -A no_protocol_tests=([wasm32]=1)
declare -A record_map_of=([wasm32]=replays/corpus/churn-arena.crpl [win64]=replays/corpus/churn-arena.crpl)
# Configurations that must NOT re-simulate the corpus: x87 keeps 80-bit
# intermediates. If it passed, the matrix could not tell a desync.
declare -A must_diverge=([i686-x87]=1)

if [[ $# -gt 0 ]]; then
  for c in "$@"; do
    [[ -v "preset[$c]" ]] || { echo "determinism: unknown configuration '$c' (${configs[*]})" >&2; exit 2; }
  done
  configs=("$@")
fi

for tool in cmake ninja g++ clang++ aarch64-linux-gnu-g++ i686-linux-gnu-g++ s390x-linux-gnu-g++ \
            qemu-aarch64-static qemu-i386-static qemu-s390x-static em++ node \
            x86_64-w64-mingw32-g++-posix /usr/lib/wine/wine64; do
  command -v "$tool" >/dev/null ||
    { echo "determinism: '$tool' not found; run scripts/install-deps.sh determinism" >&2; exit 2; }
done

shopt -s nullglob
# Older cores and older file formats must still verify.
corpus=(replays/corpus/*.crpl replays/corpus/core*/*.crpl replays/corpus/format*/*.crpl)
[[ ${#corpus[@]} -gt 0 ]] || { echo "determinism: no replays in replays/corpus" >&2; exit 2; }

# The bot-only match: REPLAY TICKS HASH.
read -r bot_replay bot_ticks bot_golden < replays/tests/bot_match.golden
[[ -f "replays/corpus/$bot_replay" ]] ||
  { echo "determinism: bot_match.golden names replays/corpus/$bot_replay, which is missing" >&2; exit 2; }
declare -A bots=()    # [config] OK or the hash it ended on

# The match each configuration records, and the results of the cross checks.
record_map=shared/game/maps/arena.json  # parsed by each build, cross ones too
record_args=(--seed 9 --ticks 1800 --churn 5)
declare -A protocol=()  # [config] OK or FAIL (cross configurations)
declare -A recorded=()  # [config] how its recording compares with the reference's

declare -A hash=()    # [config|file] final hash printed by verify
declare -A status=()  # [config|file] OK, FAIL or (after comparison) DIFF
problems=()
seconds() { date +%s; }
start_all=$(seconds)

for c in "${configs[@]}"; do
  dir=$(dir_of "$c")
  replay_tool=$(tool_of "$c")
  mkdir -p "$dir"
  echo "=== $c: configure and build carom-replay (log: $dir/build.log)"
  t0=$(seconds)
  args=()
  [[ -n "${extra[$c]}" ]] && IFS='|' read -r -a args <<<"${extra[$c]}"
  targets=(carom-replay)
  tests=OFF
  if [[ -n "${runner[$c]:-}" && ! -v "must_diverge[$c]" && ! -v "no_protocol_tests[$c]" ]]; then
    targets+=(protocol_tests)
    tests=ON
  fi
  if [[ -v "own_tests[$c]" ]]; then
    read -r -a own_targets <<<"${own_tests[$c]#*:}"
    targets+=("${own_targets[@]}")
  fi
  if ! { cmake --preset "${preset[$c]}" -B "$dir" -DCAROM_TESTS=$tests -DCAROM_NETWORK=OFF "${args[@]}" &&
         cmake --build "$dir" -j "$JOBS" --target "${targets[@]}"; } >"$dir/build.log" 2>&1; then
    tail -n 60 "$dir/build.log"
    echo "=== $c: BUILD FAILED"
    problems+=("$c: build failed (see $dir/build.log)")
    continue
  fi
  echo "    built in $(($(seconds) - t0)) s"

  if [[ -n "${runner[$c]:-}" ]]; then
    # The cross build must not have read host headers other than the
    # architecture-independent header-only libraries staged for it (gcc
    # reports those by their real /usr/include path).
    leaked=$(ninja -C "$dir" -t deps | grep -E '^ +/usr/include/' |
             grep -vE '^ +/usr/include/(flatbuffers/|CLI/|nlohmann/|doctest/|fmt/|xxhash\.h$|zstd\.h$|zstd_errors\.h$)' | sort -u || true)
    if [[ -n "$leaked" ]]; then
      echo "$leaked" | head -n 20
      problems+=("$c: the cross build included host headers from /usr/include (listed above)")
    fi
  fi

  if [[ " ${targets[*]} " == *" protocol_tests "* ]]; then
    echo "=== $c: protocol tests (packet codec, delta streams) under ${runner[$c]}"
    if ${runner[$c]} "$dir/shared/protocol/tests/protocol_tests${suffix[$c]:-}" >"$dir/protocol_tests.log" 2>&1; then
      protocol[$c]=OK
    else
      protocol[$c]=FAIL
      problems+=("$c: protocol tests failed (see $dir/protocol_tests.log)")
    fi
    tail -n 3 "$dir/protocol_tests.log"
  fi

  if [[ -v "own_tests[$c]" ]]; then
    label=${own_tests[$c]%%:*}
    echo "=== $c: its own tests (ctest -L $label)"
    if ctest --test-dir "$dir" -L "$label" --output-on-failure >"$dir/own_tests.log" 2>&1; then
      own[$c]=OK
    else
      own[$c]=FAIL
      problems+=("$c: its tests (ctest -L $label) failed (see $dir/own_tests.log)")
    fi
    tail -n 3 "$dir/own_tests.log"
  fi

  map="${record_map_of[$c]:-$record_map}"
  echo "=== $c: record a bot match on $map"
  rm -f "$dir/recorded.crpl"
  ${runner[$c]:-} "$replay_tool" record --map "$map" "${record_args[@]}" \
    -o "$dir/recorded.crpl" || problems+=("$c: carom-replay record failed")

  echo "=== $c: verify --synctest ${#corpus[@]} replays"
  t0=$(seconds)
  rc=0
  ${runner[$c]:-} "$replay_tool" verify --synctest "${corpus[@]}" >"$dir/verify.log" 2>&1 || rc=$?
  cat "$dir/verify.log"
  echo "    verify exit $rc in $(($(seconds) - t0)) s"
  if [[ -v "must_diverge[$c]" ]]; then
    # Expected to differ: verify must say so (exit 1) and name the tick, for every file.
    for f in "${corpus[@]}"; do
      line=$(grep -F -m1 "$f: " "$dir/verify.log" || true)
      if [[ "$line" =~ ": DIVERGED at tick "[0-9]+ ]]; then
        status[$c|$f]=CAUGHT
      else
        status[$c|$f]=MISSED
        problems+=("$c: $f: a configuration known to differ was not reported diverging: ${line:-no result}")
      fi
    done
    [[ $rc -eq 1 ]] || problems+=("$c: verify exited $rc, expected 1 (divergence)")
    bots[$c]=n/a
    continue
  fi
  for f in "${corpus[@]}"; do
    line=$(grep -F -m1 "$f: " "$dir/verify.log" || true)
    if [[ "$line" =~ ": OK: ".*"final hash "([0-9a-f]+) ]]; then
      hash[$c|$f]=${BASH_REMATCH[1]}
      status[$c|$f]=OK
    else
      status[$c|$f]=FAIL
      problems+=("$c: $f: ${line:-no result (verify exited with $rc before reaching it)}")
    fi
  done
  if [[ $rc -ne 0 ]] && ! printf '%s\n' "${problems[@]}" | grep -q "^$c: "; then
    problems+=("$c: verify exited with $rc (see $dir/verify.log)")
  fi

  echo "=== $c: bot-only match on $bot_replay, $bot_ticks ticks"
  out=$(${runner[$c]:-} "$replay_tool" bots "replays/corpus/$bot_replay" \
        --ticks "$bot_ticks" 2>&1) || true
  echo "$out"
  got=$(grep -oE 'final hash [0-9a-f]{16}' <<<"$out" | awk '{print $3}' || true)
  if [[ "$got" == "$bot_golden" ]]; then
    bots[$c]=OK
  else
    bots[$c]=${got:-FAIL}
    problems+=("$c: bot-only match ended on '${got:-no hash}', golden $bot_golden")
  fi
done

# Every configuration that verified a file must report the same final hash.
declare -A reference=()
for f in "${corpus[@]}"; do
  for c in "${configs[@]}"; do
    [[ -v "must_diverge[$c]" ]] && continue
    h=${hash[$c|$f]:-}
    [[ -z "$h" ]] && continue
    if [[ -z "${reference[$f]:-}" ]]; then
      reference[$f]="$h $c"
    elif [[ "$h" != "${reference[$f]%% *}" ]]; then
      status[$c|$f]=DIFF
      problems+=("$c: $f: final hash $h differs from ${reference[$f]%% *} (${reference[$f]#* })")
    fi
  done
done

# Every recording must be the reference's byte for byte (the first
# configuration that must agree), and verify with the reference build.
rec_ref=""
for c in "${configs[@]}"; do
  [[ -v "must_diverge[$c]" || ! -s "$(dir_of "$c")/recorded.crpl" ]] && continue
  [[ -z "$rec_ref" ]] && rec_ref=$c
done
if [[ -n "$rec_ref" ]]; then
  for c in "${configs[@]}"; do
    file="$(dir_of "$c")/recorded.crpl"
    [[ -s "$file" ]] || { recorded[$c]=none; continue; }
    same=no
    cmp -s "$file" "$(dir_of "$rec_ref")/recorded.crpl" && same=yes
    rc=0
    ${runner[$rec_ref]:-} "$(tool_of "$rec_ref")" verify --synctest "$file" >"$(dir_of "$c")/recorded-verify.log" 2>&1 || rc=$?
    if [[ -v "must_diverge[$c]" ]]; then
      recorded[$c]=$([[ $same == no && $rc -eq 1 ]] && echo differs || echo SAME)
      [[ ${recorded[$c]} == differs ]] ||
        problems+=("$c: its recording was expected to differ from $rec_ref's and to diverge under it")
    elif [[ $same == yes && $rc -eq 0 ]]; then
      recorded[$c]=OK
    else
      recorded[$c]=FAIL
      problems+=("$c: its recording is $([[ $same == yes ]] || echo "not ")byte-identical to $rec_ref's; $rec_ref's verify exited $rc ($(dir_of "$c")/recorded-verify.log)")
    fi
  done
fi

echo
echo "=== determinism summary ($(($(seconds) - start_all)) s)"
printf '%-28s %-17s' file "final hash"
for c in "${configs[@]}"; do printf ' %-9s' "$c"; done
echo
for f in "${corpus[@]}"; do
  ref=${reference[$f]:-}
  printf '%-28s %-17s' "${f#replays/corpus/}" "${ref%% *}"
  for c in "${configs[@]}"; do printf ' %-9s' "${status[$c|$f]:--}"; done
  echo
done

printf '%-28s %-17s' "bots: ${bot_replay%.crpl}" "$bot_golden"
for c in "${configs[@]}"; do printf ' %-9s' "${bots[$c]:--}"; done
echo
printf '%-28s %-17s' "recording vs ${rec_ref:-none}" ""
for c in "${configs[@]}"; do printf ' %-9s' "${recorded[$c]:--}"; done
echo
printf '%-28s %-17s' "protocol tests" ""
for c in "${configs[@]}"; do printf ' %-9s' "${protocol[$c]:--}"; done
echo
printf '%-28s %-17s' "own tests (carom.dll)" ""
for c in "${configs[@]}"; do printf ' %-9s' "${own[$c]:--}"; done
echo

if [[ ${#problems[@]} -gt 0 ]]; then
  echo
  echo "DETERMINISM FAILED:"
  printf '  %s\n' "${problems[@]}"
  exit 1
fi
echo "all ${#configs[@]} configurations behaved: those that must agree verified ${#corpus[@]} replays with identical final hashes, ran the bot-only match to its golden hash and recorded a match byte-identical to ${rec_ref:-the reference}'s (which verifies there); the cross ones passed the protocol tests (and Windows its carom.dll test); those known to differ were caught diverging"
