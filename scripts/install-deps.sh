#!/usr/bin/env bash
# Installs the Debian packages carom needs, only when some are missing.
#   scripts/install-deps.sh          build + test dependencies
#   scripts/install-deps.sh bench        also the peers the benchmarks compare against
#   scripts/install-deps.sh determinism  also the aarch64 cross compiler and its emulator
set -euo pipefail

foreign_archs=()

packages=(
  cmake ninja-build g++ clang make ccache
  doctest-dev libcli11-dev libxxhash-dev libspdlog-dev
  flatbuffers-compiler libflatbuffers-dev nlohmann-json3-dev
  libasio-dev libsodium-dev libfmt-dev libzstd-dev libsqlite3-dev
  libncurses-dev tmux kitty xvfb xdotool python3 python3-pip python3-setuptools python3-wheel
  pkg-config libcpp-httplib-dev help2man systemd libclang-rt-14-dev
)
case "${1:-}" in
  bench) packages+=(libbox2d-dev libchipmunk-dev libfmt-dev) ;;
  # libstdc++/glibc for the targets come with the cross compilers; their
  # static libraries let qemu run the binaries without a sysroot. FlatBuffers'
  # JSON parser (map files) and libzstd (replays) are compiled libraries:
  # each target's build comes from Debian's multiarch package.
  determinism)
    foreign_archs=(arm64 i386 s390x)
    packages+=(g++-aarch64-linux-gnu g++-i686-linux-gnu g++-s390x-linux-gnu qemu-user-static
               libflatbuffers-dev:arm64 libflatbuffers-dev:i386 libflatbuffers-dev:s390x
               libzstd-dev:arm64 libzstd-dev:i386 libzstd-dev:s390x) ;;
  "") ;;
  *) echo "install-deps.sh: unknown group '$1' (bench, determinism)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "installing missing packages: ${missing[*]}" >&2
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
for arch in "${foreign_archs[@]}"; do
  dpkg --print-foreign-architectures | grep -qx "$arch" || $sudo dpkg --add-architecture "$arch"
done
# A mirror caught mid-sync fails one index now and then; the install below
# still fails clearly if a package it needs cannot be found.
$sudo apt-get update -qq || echo "install-deps.sh: apt-get update reported errors (above); installing anyway" >&2
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
