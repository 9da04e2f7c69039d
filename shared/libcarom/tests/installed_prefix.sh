#!/usr/bin/env bash
# libcarom as a user gets it: installed to a prefix, then a C program built
# against it with `pkg-config --cflags --libs carom` alone (and once more
# with libcarom.a, and once with CMake's find_package), re-simulating a
# corpus replay to the final hash carom-replay prints.
# The program is compiled as the build compiles C (CC, CFLAGS): a sanitized
# library needs the sanitizer's runtime in the program that loads it.
# Usage: installed_prefix.sh SOURCE_DIR BUILD_DIR CAROM_REPLAY CC "CFLAGS"
set -euo pipefail
src=$1 build=$2 carom_replay=$3 cc=$4
read -r -a cflags <<< "${5:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
replay="$src/replays/corpus/churn-arena.crpl"

cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
libdir=$(dirname "$(find "$work/prefix" -name carom.pc)")/..
export PKG_CONFIG_PATH="$libdir/pkgconfig"
expected=$("$carom_replay" verify "$replay" | sed -E 's/.*final hash ([0-9a-f]+).*/\1/')
[[ $expected =~ ^[0-9a-f]{16}$ ]] || { echo "no final hash from carom-replay verify"; exit 1; }

check() {  # check NAME PROGRAM...: runs it on the replay, wants carom-replay's hash
    local name=$1
    shift
    local out
    out=$("$@" "$replay")
    echo "$name: $out"
    [[ $out == *"final hash $expected, as the file's footer says"* ]] ||
        { echo "FAIL: $name does not print carom-replay's final hash $expected"; exit 1; }
}

# Shared: pkg-config alone, the library found at run time by its path.
"$cc" "${cflags[@]}" -std=c11 -Wall -Werror "$src/shared/libcarom/examples/replay_hash.c" \
   $(pkg-config --cflags --libs carom) -o "$work/replay_hash"
check "pkg-config (libcarom.so)" env LD_LIBRARY_PATH="$libdir" "$work/replay_hash"

# Static: libcarom.a and what pkg-config --static adds to it.
"$cc" "${cflags[@]}" -std=c11 -Wall -Werror "$src/shared/libcarom/examples/replay_hash.c" \
   $(pkg-config --cflags carom) "$libdir/libcarom.a" \
   $(pkg-config --static --libs carom | sed 's/-lcarom//') -o "$work/replay_hash_static"
if ldd "$work/replay_hash_static" | grep -q libcarom; then
    echo "FAIL: the static build loads libcarom.so"; exit 1
fi
check "pkg-config --static (libcarom.a)" "$work/replay_hash_static"

# CMake: find_package(carom) and carom::carom.
mkdir "$work/cmake"
cat > "$work/cmake/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(replay_hash C)
find_package(carom REQUIRED)
add_executable(replay_hash "$src/shared/libcarom/examples/replay_hash.c")
target_link_libraries(replay_hash PRIVATE carom::carom)
CMAKE
cmake -S "$work/cmake" -B "$work/cmake/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="${5:-}" \
      > "$work/cmake.log" || { cat "$work/cmake.log"; exit 1; }
cmake --build "$work/cmake/build" > "$work/cmake-build.log" || { cat "$work/cmake-build.log"; exit 1; }
check "find_package(carom)" "$work/cmake/build/replay_hash"
echo "ok: libcarom installed, found by pkg-config and CMake, shared and static"
