#!/bin/sh
# The man pages must be mandoc -Tlint clean.
set -u
rc=0
for m in docs/*.[58]; do
	[ -e "$m" ] || continue
	out=$(mandoc -Tlint -W warning "$m" 2>&1) || true
	if [ -n "$out" ]; then echo "$out"; rc=1; fi
done
[ $rc -eq 0 ] && echo "lint: man pages clean"
exit $rc
