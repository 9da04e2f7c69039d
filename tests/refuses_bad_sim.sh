#!/bin/sh
# A bad --sim link spec is a usage error (exit 2) with the offending part named.
# usage: refuses_bad_sim.sh PROGRAM [ARGS...]
out=$("$@" --sim loss=101 2>&1)
rc=$?
echo "$out"
test $rc -eq 2 && echo "$out" | grep -q -- "--sim: loss=101: outside \[0, 100\]%"
