#!/usr/bin/env bash
# carom-replay on good and bad files: exit codes 0 / 1 / 2 and a reason, never a crash.
#   tool_exit_codes.sh CAROM_REPLAY GOOD_REPLAY MAP_JSON
set -uo pipefail
tool="$1" good="$2" map="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0

# expect CODE PATTERN -- COMMAND...: the exit code, and PATTERN in stdout+stderr.
expect() {
  local code="$1" pattern="$2"; shift 3
  local out rc
  out="$(timeout 60 "$@" 2>&1)"; rc=$?
  if [[ $rc -ne $code ]] || ! grep -q -- "$pattern" <<<"$out"; then
    echo "FAIL: $* -> exit $rc (want $code), output:"; echo "$out"
    failures=$((failures + 1))
  fi
}

size=$(stat -c %s "$good")
: > "$work/empty.crpl"
head -c $((size / 2)) "$good" > "$work/cut.crpl"
{ printf 'NOTAREPL'; tail -c +9 "$good"; } > "$work/magic.crpl"
cp "$good" "$work/flipped.crpl"
printf '\x55' | dd of="$work/flipped.crpl" bs=1 seek=$((size / 3)) conv=notrunc status=none
{ head -c 12 "$good"; printf '\xff\xff\xff\x7f'; tail -c +17 "$good"; } > "$work/huge.crpl"
{ head -c 8 "$good"; printf '\x63\x00\x00\x00'; tail -c +13 "$good"; } > "$work/newer.crpl"

expect 0 "OK: "                    -- "$tool" verify "$good"
expect 2 "empty file"              -- "$tool" verify "$work/empty.crpl"
expect 2 "INCOMPLETE"              -- "$tool" verify "$work/cut.crpl"
expect 2 "bad magic"               -- "$tool" verify "$work/magic.crpl"
expect 2 "at byte"                 -- "$tool" verify "$work/flipped.crpl"
expect 2 "out of range"            -- "$tool" verify "$work/huge.crpl"
expect 2 "newer than this build"   -- "$tool" verify "$work/newer.crpl"
expect 2 "cannot open"             -- "$tool" verify "$work/missing.crpl"
expect 2 "INCOMPLETE"              -- "$tool" verify "$good" "$work/cut.crpl"
expect 2 "read stopped"            -- "$tool" info "$work/cut.crpl"
expect 0 '"map":"rink"'            -- "$tool" info --json "$good"
# 64-bit hashes as lowercase hex strings: JSON numbers past 2^53 are rounded by many readers.
expect 0 '"final_hash":"[0-9a-f]\{16\}"' -- "$tool" info --json "$good"
expect 0 "identical"               -- "$tool" diff "$good" "$good"
expect 2 "unreadable"              -- "$tool" diff "$good" "$work/empty.crpl"
expect 2 "required"                -- "$tool" verify
expect 0 "Exit 0 = identical"      -- "$tool" verify --help

# Recording the same match twice gives the same file; a different seed differs.
expect 0 "ticks"                   -- "$tool" record --map "$map" --players 2 --ticks 600 --seed 3 -o "$work/a.crpl"
expect 0 "ticks"                   -- "$tool" record --map "$map" --players 2 --ticks 600 --seed 3 -o "$work/b.crpl"
expect 0 "ticks"                   -- "$tool" record --map "$map" --players 2 --ticks 600 --seed 4 -o "$work/c.crpl"
expect 0 "ticks"                   -- "$tool" record --map "$map" --players 2 --ticks 600 --seed 3 --churn 4 -o "$work/e.crpl"
expect 0 "identical"               -- "$tool" diff "$work/a.crpl" "$work/b.crpl"
expect 1 "different starts"        -- "$tool" diff "$work/a.crpl" "$work/c.crpl"
expect 1 "first difference at tick 241" -- "$tool" diff "$work/a.crpl" "$work/e.crpl"
# One wall one ulp off (52 -> 52.00000000000001): diff names it in the map and
# in the world as built, from tick 0.
sed '0,/"y": 52.0/s//"y": 52.00000000000001/' "$map" > "$work/ulp.json"
expect 0 "ticks"                   -- "$tool" record --map "$work/ulp.json" --players 2 --ticks 600 --seed 3 -o "$work/ulp.crpl"
expect 1 "map boxes\[0\] center.y: 52 vs 52.00000000000001" -- "$tool" diff "$work/a.crpl" "$work/ulp.crpl"
expect 1 "static 0 box.center.y: 52 vs 52.00000000000001" -- "$tool" diff "$work/a.crpl" "$work/ulp.crpl"
expect 1 "first difference at tick 0" -- "$tool" diff "$work/a.crpl" "$work/ulp.crpl"
# A damaged copy is reported with its offset, and is a difference.
expect 1 "B is damaged at byte"    -- "$tool" diff "$good" "$work/flipped.crpl"
cmp -s "$work/a.crpl" "$work/b.crpl" || { echo "FAIL: the same recording differs byte for byte"; failures=$((failures + 1)); }
expect 2 "cannot open the map"     -- "$tool" record --map "$work/none.json" -o "$work/d.crpl"
expect 0 '"tick":600'              -- "$tool" export --json --every 300 "$work/a.crpl"
expect 0 '"hash":"[0-9a-f]\{16\}"'  -- "$tool" export --json --every 300 "$work/a.crpl"

echo "$failures failure(s)"
[[ $failures -eq 0 ]]
