# What every mutation script in regress/mutants/ shares: a copy of the
# tree under a temp dir with one change made, its build, and the
# verdict on the run that must go red.  The tree itself is never
# modified.  A script sources this, then defines mutant() from
# mutant_apply, mutant_build and mutant_judge, lists its mutants and
# ends with mutants_end.  Its first argument keeps only the mutants
# whose label holds it, MUTANT_ONLY_ERE those whose label matches that
# ERE (one script's mutants in parallel runs); MUTANT_DRY=1 only checks
# that each change applies, building and running nothing.  A script's
# first mutants are controls: "$MUTANT_CONTROL" with no change, once per
# way it runs, which must pass (else the script stops: its kills would
# mean nothing).
# mutant_expect ERE before a mutant names the test that must go red: a
# kill by another test does not count.
set -u
cd "$(dirname "$0")/../.." || exit 1
top=$(pwd)
. "$top/regress/lib/harness.sh"
# The suites' jq, as run-integration.sh gives them (tools/strict/jq).
PATH=$top/regress/tools/strict:$PATH
export PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
killed=0
survived=0
only=${1:-}
MUTANT_CONTROL="the unmutated tree (control)"
MUTANT_EXPECT=
# move.sh skips green without images; a copy of the tree has none, so
# it takes this tree's.
MOVE_IMAGES=${MOVE_IMAGES:-$top/build/images.env}
export MOVE_IMAGES

# mutant_apply <label> <file> <"old" => "new"[ @@ "old" => "new"...]>:
# $tmp/src is the tree with each old, found exactly once, made new.
# Fails (1) when the label is not asked for, or in a dry run.
mutant_apply() {
	# An expectation belongs to the mutant it precedes, run or not.
	case "$1" in "$MUTANT_CONTROL"|*"$only"*) ;; *) MUTANT_EXPECT=; return 1 ;; esac
	if [ "$1" != "$MUTANT_CONTROL" ] && [ -n "${MUTANT_ONLY_ERE:-}" ] &&
	    ! printf '%s\n' "$1" | grep -Eq -- "$MUTANT_ONLY_ERE"; then
		MUTANT_EXPECT=
		return 1
	fi
	rm -rf "$tmp/src"
	mkdir -p "$tmp/src"
	git ls-files -z | (cd "$top" && xargs -0 cp --parents -t "$tmp/src")
	[ -z "$3" ] || python3 - "$tmp/src/$2" "$3" <<'PY' || exit 1
import sys
path, pairs = sys.argv[1], sys.argv[2]
src = open(path).read()
for pair in pairs.split("@@"):
    old, new = [x.strip().encode().decode("unicode_escape")
                for x in pair.split("=>")]
    if src.count(old) != 1:
        sys.exit("mutation anchor not found once: %r" % old)
    src = src.replace(old, new)
open(path, "w").write(src)
PY
	if [ "${MUTANT_DRY:-0}" = 1 ]; then
		echo "applies: $1"
		[ "$1" = "$MUTANT_CONTROL" ] || [ -n "$MUTANT_EXPECT" ] ||
		    echo "no expectation: $1"
		MUTANT_EXPECT=
		return 1
	fi
}

# mutant_build <label> [make arguments...]: a mutant that does not
# build ends the script.
mutant_build() {
	b_label=$1
	shift
	if ! make -C "$tmp/src" -j2 "$@" >"$tmp/build.log" 2>&1; then
		echo "BROKEN mutant: $b_label"; tail -5 "$tmp/build.log"; exit 1
	fi
}

# mutant_build_quick <label> <file> [make arguments...]: mutant_build
# (of the binaries by default) in a copy whose build/ is this tree's and
# whose every source but the mutated <file> is as old as this tree's:
# make rebuilds only what <file> touches (a minute, not a full build).
mutant_build_quick() {
	q_label=$1
	q_file=$2
	shift 2
	[ $# -gt 0 ] || set -- binaries
	cp -a "$top/build" "$tmp/src/build"
	git ls-files | while read -r f; do
		[ "$f" = "$q_file" ] ||
		    touch -r "$top/$f" "$tmp/src/$f" 2>/dev/null
	done
	touch "$tmp/src/$q_file"
	mutant_build "$q_label" "$@"
}

# mutant_unit <label> <file> <"old" => "new"[ @@ ...]> <program> <filter>:
# the unit binary regress/unit/<program> built quick with the change,
# only its Criterion tests <filter> names run; a "[FAIL] suite::test"
# line is a red one.  A run that tested nothing ends the script.
mutant_unit() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2" "build/regress/unit/$4"
	(cd "$tmp/src" && timeout 600 "build/regress/unit/$4" \
	    --filter "$5") >"$tmp/run.log" 2>&1
	set -- "$1" $?
	grep -q 'Tested: [1-9]' "$tmp/run.log" ||
	    { echo "BROKEN: no test ran"; exit 1; }
	mutant_judge "$1" "$2" '^\[FAIL\]' 's/^\[FAIL\] //; s/: (.*//'
}

# mutant_live <label> <file> <"old" => "new"[ @@ ...]> <suite>: the most
# common mutant: this tree's binaries built with the change, then one
# live suite (regress/<suite>) run against them.  A script that needs no
# more says mutant() { mutant_live "$@" <suite>; }.
mutant_live() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries
	SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/$4" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

# mutant_judge <label> <status> <ERE of a red line> [sed of those lines]:
# status is the exit status of the run whose output is $tmp/run.log.
mutant_expect() { MUTANT_EXPECT=$1; }

mutant_judge() {
	j_red=$(grep -aE "$3" "$tmp/run.log" | sed "${4:-s/^not ok - //}")
	j_want=$MUTANT_EXPECT
	MUTANT_EXPECT=
	if [ "$1" = "$MUTANT_CONTROL" ]; then
		if [ "$2" -eq 0 ]; then
			ok "$1 passes"
			return
		fi
		not_ok "$1 fails" "$(echo "$j_red" | head -5)"
		finish
	fi
	if [ "$2" -ne 0 ] && [ -n "$j_want" ] &&
	    ! echo "$j_red" | grep -Eq -- "$j_want"; then
		not_ok "killed by another test than $j_want: $1" \
		    "$(echo "$j_red" | head -3)"
		survived=$((survived + 1))
	elif [ "$2" -eq 0 ]; then
		not_ok "SURVIVED: $1"
		survived=$((survived + 1))
	else
		ok "killed: $1 ($(echo "$j_red" | head -3 | paste -sd';' -))"
		killed=$((killed + 1))
	fi
}

mutants_end() {
	echo "mutants: $killed killed, $survived survived"
	finish
}
