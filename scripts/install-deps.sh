#!/usr/bin/env bash
# Installs the Debian packages carom needs, only when some are missing.
#   scripts/install-deps.sh          build + test dependencies
#   scripts/install-deps.sh bench        also the peers the benchmarks compare against
#   scripts/install-deps.sh determinism  also the cross compilers, their emulator,
#                                        emscripten (the wasm32 column) and MinGW-w64
#                                        with Wine (the win64 column, `make windows`)
#   scripts/install-deps.sh web          also emscripten, Chromium and playwright-core
# emscripten and MinGW builds also get zstd's source (the WebAssembly and Windows
# builds compile zstd).
set -euo pipefail

foreign_archs=()

packages=(
  cmake ninja-build g++ clang make ccache
  doctest-dev libcli11-dev libxxhash-dev libspdlog-dev
  flatbuffers-compiler libflatbuffers-dev nlohmann-json3-dev
  libasio-dev libsodium-dev libfmt-dev libzstd-dev libsqlite3-dev
  libncurses-dev tmux kitty xvfb xdotool python3 python3-pip python3-setuptools python3-wheel
  pkg-config libcpp-httplib-dev libboost-dev libssl-dev openssl curl help2man systemd
  libclang-rt-14-dev
)
case "${1:-}" in
  bench) packages+=(libbox2d-dev libchipmunk-dev libfmt-dev) ;;
  # libstdc++/glibc for the targets come with the cross compilers; their
  # static libraries let qemu run the binaries without a sysroot. FlatBuffers'
  # JSON parser (map files) and libzstd (replays) are compiled libraries:
  # each target's build comes from Debian's multiarch package. Windows has
  # no such packages: MinGW-w64 builds compile zstd from source (fetched
  # below) and Wine runs their .exe.
  determinism)
    foreign_archs=(arm64 i386 s390x)
    packages+=(g++-aarch64-linux-gnu g++-i686-linux-gnu g++-s390x-linux-gnu qemu-user-static
               emscripten node-acorn nodejs
               libflatbuffers-dev:arm64 libflatbuffers-dev:i386 libflatbuffers-dev:s390x
               libzstd-dev:arm64 libzstd-dev:i386 libzstd-dev:s390x
               g++-mingw-w64-x86-64-posix wine64) ;;
  # emscripten compiles C and C++ only: zstd (replay chunks) is built from
  # the source of the libzstd-dev installed here, fetched below. The browser
  # tests drive Debian's Chromium with playwright-core (from npm, below).
  web) packages+=(emscripten node-acorn nodejs chromium fonts-dejavu-core) ;;
  "") ;;
  *) echo "install-deps.sh: unknown group '$1' (bench, determinism, web)" >&2; exit 2 ;;
esac

sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive

# A library's source, the version of the installed -dev package, from
# Debian's source archive (apt checks it against the signed index), unpacked
# once in /usr/local/src/carom where every clone's web build finds it
# (cmake/wasm32-emscripten.cmake): emscripten compiles C and C++ only, so
# the WebAssembly build compiles zstd (replays) and libsodium (the session's
# proofs) from the same source as the native builds link.
#   fetch_debian_source DEV_PACKAGE SOURCE_PACKAGE DIR_NAME A_FILE_IT_HOLDS
fetch_debian_source() {
  local dev=$1 source=$2 name=$3 probe=$4
  local version upstream dir
  version=$(dpkg-query -W -f='${source:Version}' "$dev:$(dpkg --print-architecture)")
  upstream=${version%%+*}
  upstream=${upstream%%-*}
  dir=/usr/local/src/carom/$name-$upstream
  [[ -f "$dir/$probe" ]] && return 0
  echo "fetching $source $version's source from Debian's archive into $dir" >&2
  local list=/etc/apt/sources.list.d/carom-sources.sources
  if [[ ! -f "$list" ]]; then
    printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' \
      "Suites: $(. /etc/os-release && echo "$VERSION_CODENAME")" 'Components: main' \
      'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' | $sudo tee "$list" >/dev/null
  fi
  $sudo apt-get update -qq || echo "install-deps.sh: apt-get update reported errors (above); fetching anyway" >&2
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && chmod 755 . && apt-get source -qq --download-only "$source=$version" >/dev/null)
  local tarball
  tarball=$(ls "$tmp"/"$source"_*.orig.tar.* 2>/dev/null | head -n 1)
  [[ -n "$tarball" ]] || { echo "install-deps.sh: apt-get source $source=$version fetched no tarball" >&2; exit 1; }
  $sudo mkdir -p "$dir"
  $sudo tar -xf "$tarball" -C "$dir" --strip-components=1
  # Debian's own patches (security fixes), as in the library the natives link.
  local debian
  debian=$(ls "$tmp"/"$source"_*.debian.tar.* 2>/dev/null | head -n 1)
  if [[ -n "$debian" ]]; then
    tar -xf "$debian" -C "$tmp"
    if [[ -f "$tmp/debian/patches/series" ]]; then
      while read -r patch _; do
        [[ -z "$patch" || "$patch" == \#* ]] && continue
        $sudo patch -s -p1 -d "$dir" < "$tmp/debian/patches/$patch"
      done < "$tmp/debian/patches/series"
    fi
  fi
  rm -rf "$tmp"
  [[ -f "$dir/$probe" ]] || { echo "install-deps.sh: $tarball holds no $probe" >&2; exit 1; }
}
fetch_zstd_source() { fetch_debian_source libzstd-dev libzstd zstd lib/zstd.h; }
fetch_sodium_source() {
  fetch_debian_source libsodium-dev libsodium libsodium src/libsodium/include/sodium.h
}

# playwright-core (no browser download: it drives Debian's Chromium) for the
# page's tests, in /usr/local/lib/carom-web (NODE_PATH=.../node_modules).
PLAYWRIGHT_VERSION=1.64.1
fetch_playwright() {
  local dir=/usr/local/lib/carom-web
  local installed
  installed=$(node -p "require('$dir/node_modules/playwright-core/package.json').version" 2>/dev/null || true)
  [[ "$installed" == "$PLAYWRIGHT_VERSION" ]] && return 0
  echo "installing playwright-core $PLAYWRIGHT_VERSION from npm into $dir" >&2
  $sudo mkdir -p "$dir"
  $sudo npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error \
    "playwright-core@$PLAYWRIGHT_VERSION" >&2
}

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
# What the WebAssembly and Windows builds and the web tests take from outside
# Debian's binary packages.
fetch_web_extras() {
  case "${1:-}" in
    determinism) fetch_zstd_source ;;
    web) fetch_zstd_source; fetch_sodium_source; fetch_playwright ;;
  esac
}

if [[ ${#missing[@]} -eq 0 ]]; then
  fetch_web_extras "${1:-}"
  exit 0
fi

echo "installing missing packages: ${missing[*]}" >&2
for arch in "${foreign_archs[@]}"; do
  dpkg --print-foreign-architectures | grep -qx "$arch" || $sudo dpkg --add-architecture "$arch"
done
# A mirror caught mid-sync fails one index now and then; the install below
# still fails clearly if a package it needs cannot be found.
$sudo apt-get update -qq || echo "install-deps.sh: apt-get update reported errors (above); installing anyway" >&2
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fetch_web_extras "${1:-}"
