#!/usr/bin/env bash
# Checks deploy/ with what this machine has, each part able to fail:
# - the systemd unit passes `systemd-analyze verify` (ExecStart pointed at the
#   built carom-server), and carom-server starts with the unit's environment;
# - the Fleet manifest has what carom relies on (UDP game port, Agones health
#   settings, the /healthz probe, the drain's grace period), and carom-server
#   starts with its CAROM_* settings;
# - with --docker and a running Docker daemon, the image builds and its
#   carom-server prints its version as the non-root user.
#   deploy/check.sh CAROM_SERVER [--docker]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
server=$1
docker=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# starts_with_env NAME=VALUE...: carom-server starts with these settings (on a
# free loopback port), becomes ready, and stops cleanly on SIGTERM.
starts_with_env() {
  rm -f "$work/ready.json"
  env "$@" "$server" --bind 127.0.0.1 --port 0 --ready-file "$work/ready.json" 2> "$work/err" &
  local pid=$! status=0
  for _ in $(seq 1 200); do
    [[ -s $work/ready.json ]] && break
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.05
  done
  if [[ ! -s $work/ready.json ]]; then
    kill -9 "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
    return 1
  fi
  kill -TERM "$pid"
  wait "$pid" || status=$?
  return "$status"
}

# systemd unit
if command -v systemd-analyze > /dev/null; then
  sed "s|^ExecStart=.*|ExecStart=$server|" "$here/carom-server.service" > "$work/carom-server.service"
  if ! out=$(systemd-analyze verify "$work/carom-server.service" 2>&1); then
    fail "systemd-analyze verify: $out"
  elif [[ -n $out ]]; then
    fail "systemd-analyze verify warned: $out"
  else
    echo "ok: systemd-analyze verify carom-server.service"
  fi
else
  fail "systemd-analyze not found (scripts/install-deps.sh installs systemd)"
fi
# The unit's settings must be ones carom-server accepts (a typo'd value would fail at start).
env_args=()
while IFS= read -r line; do env_args+=("${line#Environment=}"); done < <(grep '^Environment=' "$here/carom-server.service")
env_args=("${env_args[@]//%S/$work/state}")
env_args=("${env_args[@]/CAROM_HTTP=127.0.0.1:9100/CAROM_HTTP=127.0.0.1:0}")
if ! starts_with_env "${env_args[@]}"; then
  fail "carom-server does not start with the unit's environment: $(cat "$work/err")"
else
  echo "ok: carom-server starts and stops with the unit's environment"
fi

# Fleet manifest
for want in '^kind: Fleet$' 'containerPort: 27960' 'protocol: UDP' 'health:' 'periodSeconds: 5' \
            'failureThreshold: 3' 'path: /healthz' 'terminationGracePeriodSeconds:'; do
  grep -Eq "$want" "$here/fleet.yaml" || fail "fleet.yaml lacks /$want/"
done
if grep -q $'\t' "$here/fleet.yaml"; then fail "fleet.yaml has tabs (YAML forbids them)"; fi
# Its CAROM_* settings, as the container would get them, must be accepted too.
fleet_env=()
while IFS= read -r name && IFS= read -r value; do
  value=${value#*value: }; value=${value//\"/}
  [[ ${name#*name: } == CAROM_HTTP ]] && value=127.0.0.1:0
  [[ ${name#*name: } == CAROM_PORT ]] && value=0
  fleet_env+=("${name#*name: }=$value")
done < <(grep -A1 -E '^ +- name: CAROM_' "$here/fleet.yaml" | grep -v '^--$')
if ! starts_with_env "${fleet_env[@]}"; then
  fail "carom-server does not start with the Fleet's environment (${fleet_env[*]}): $(cat "$work/err")"
else
  echo "ok: fleet.yaml (${#fleet_env[@]} CAROM_* settings accepted)"
fi

# Docker image
if [[ $docker == --docker ]]; then
  if ! command -v docker > /dev/null || ! docker info > /dev/null 2>&1; then
    echo "SKIP: docker build (no Docker daemon on this machine)"
  elif ! docker build -q -f "$here/Dockerfile" -t carom-server:check "$here/.." > "$work/build.log" 2>&1; then
    fail "docker build: $(tail -20 "$work/build.log")"
  else
    version=$(docker run --rm carom-server:check --version 2>&1)
    user=$(docker run --rm --entrypoint id carom-server:check -u 2>&1)
    [[ $version == carom\ * ]] || fail "image's carom-server --version: $version"
    [[ $user != 0 ]] || fail "the image runs as root"
    echo "ok: docker image ($version, uid $user)"
  fi
else
  echo "SKIP: docker build (run deploy/check.sh CAROM_SERVER --docker)"
fi

echo "$failures failed"
[[ $failures -eq 0 ]]
