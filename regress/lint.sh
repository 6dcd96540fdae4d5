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

includes() {
	sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$1"
}
for p in $programs; do
	for f in "$p"/*.[ch]; do
		[ -e "$f" ] || continue
		for h in $(includes "$f"); do
			case $h in */*) v include "$f" "\"$h\" is a path"; continue;; esac
			[ -e "$p/$h" ] || [ -e "common/lib/$h" ] ||
			    [ -e "common/proto/$h" ] ||
			    v include "$f" "\"$h\" is neither its own nor common/'s"
		done
	done
done
for f in common/lib/*.[ch] common/proto/*.[ch]; do
	for h in $(includes "$f"); do
		[ -e "common/lib/$h" ] || [ -e "common/proto/$h" ] ||
		    v include "$f" "\"$h\" is not in common/"
	done
done

# Every production source (not git's list: a copy without .git is checked too).
srcs=$(find common/lib common/proto $programs -maxdepth 1 -name '*.[ch]' | sort)
for f in $srcs; do
	grep -n '(void)[ \t]*imsg_get_data\|^[ \t][ \t]*imsg_get_data' "$f" |
	while IFS=: read -r n _; do
		v imsg "$f" "line $n: imsg_get_data unchecked"
	done
	n=$(wc -l < "$f")
	[ "$n" -gt 800 ] && v size "$f" "$n lines (at most 800)"
done

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
