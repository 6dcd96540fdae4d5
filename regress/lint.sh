#!/bin/sh
# The shape of the tree (docs/layout.md), checked by make check:
#  man       man pages mandoc -Tlint clean
#  include   a program folder includes only its own files and common/
#  imsg      every imsg_get_data() is checked where it is called
#  size      no production source over 800 lines
#  circle    no call circle between the files of a program but its router's
# Usage: lint.sh [BUILD]; the circle rule reads BUILD's objects.
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
v() { echo "$1 $2: $3" >> "$out"; }

for m in docs/*.[58]; do
	[ -e "$m" ] || continue
	msg=$(mandoc -Tlint -W warning "$m" 2>&1) || true
	[ -n "$msg" ] && v man "$m" "$msg"
done

# Program folders: every folder with a module.mk but common/ and regress/.
programs=$(find . -name module.mk -path './*/*' | sed 's|^\./||; s|/module.mk$||' |
    grep -v '^common$\|^regress' | sort)

# One awk over every source, not a process or three a file: lint runs
# ten times in its own test, on machines busy with other suites.
# include: a program folder's "x.h" is its own or common/'s, never a
# path; common/ includes only common/.  imsg, size: below.
srcs=$(find common/lib common/proto $programs -maxdepth 1 -name '*.[ch]' | sort)
headers=$(find common/lib common/proto $programs -maxdepth 1 -name '*.h')
# shellcheck disable=SC2086
awk -v hdrs="$headers" '
    BEGIN { n = split(hdrs, h, "\n"); for (i = 1; i <= n; i++) have[h[i]] = 1 }
    FNR == 1 {
	if (NR > 1) size_of(prev, lines)
	prev = FILENAME; lines = 0
	dir = FILENAME; sub(/\/[^\/]*$/, "", dir)
	common = dir ~ /^common\//
    }
    { lines++ }
    /^[ \t]*#[ \t]*include[ \t]*"/ {
	hd = $0; sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", hd); sub(/".*/, "", hd)
	if (common) {
	    if (!have["common/lib/" hd] && !have["common/proto/" hd])
		print "include " FILENAME ": \"" hd "\" is not in common/"
	} else if (hd ~ /\//) {
	    print "include " FILENAME ": \"" hd "\" is a path"
	} else if (!have[dir "/" hd] && !have["common/lib/" hd] &&
	    !have["common/proto/" hd]) {
	    print "include " FILENAME ": \"" hd "\" is neither its own nor common/\x27s"
	}
    }
    # a cast to void, or a call that is a whole statement
    /\(void\)[ \t]*imsg_get_data|^[ \t]*imsg_get_data\([^;]*\);[ \t]*$/ {
	print "imsg " FILENAME ": line " FNR ": imsg_get_data unchecked"
    }
    function size_of(f, n) {
	if (n > 800) print "size " f ": " n " lines (at most 800)"
    }
    END { if (NR > 0) size_of(prev, lines) }' $srcs >> "$out"

if [ -d "$build" ]; then
	python3 regress/lint_calls.py "$build" $programs >> "$out"
else
	v circle "$build" "no build: make first"
fi

# Violations a restructuring in progress has not yet removed; the list
# only shrinks, and an entry that no longer fails is itself an error.
pending=regress/lint-pending
rc=0
while read -r rule file rest; do
	if [ -f "$pending" ] && grep -qx "$rule ${file%:}" "$pending"; then
		echo "lint: pending: $rule $file $rest"
	else
		echo "lint: $rule $file $rest"; rc=1
	fi
done < "$out"
if [ -f "$pending" ]; then
	while read -r rule file; do
		grep -q "^$rule $file:" "$out" ||
		    { echo "lint: stale $pending: \"$rule $file\" passes: remove it"; rc=1; }
	done < "$pending"
fi
[ $rc -eq 0 ] && echo "lint: clean: $(echo "$srcs" | wc -l) sources of $(echo "$programs" | wc -l) programs and common/ (man, include, imsg, size, circle)"
exit $rc
