#!/bin/sh
# Mutation check of the tools volume: each mutant removes one protection
# and its test must go red.  Built in a copy of the tree under a temp
# dir; the tree itself is never modified.  The live suite runs offline
# (SPACED_TOOLS_OFFLINE=1): about 90 s a mutant.
# Usage: sh regress/mutants/tools.sh [label-substring]
set -u
cd "$(dirname "$0")/../.." || exit 1
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
killed=0
survived=0
only=${1:-}

# mutant <label> <file> <"old" => "new"> <suite> [grep for the red line]
mutant() {
	case "$1" in *"$only"*) ;; *) return 0 ;; esac
	rm -rf "$tmp/src"
	mkdir -p "$tmp/src"
	git ls-files -z | (cd "$top" && xargs -0 cp --parents -t "$tmp/src")
	python3 - "$tmp/src/$2" "$3" <<'PY' || exit 1
import sys
path, pair = sys.argv[1], sys.argv[2]
src = open(path).read()
old, new = [x.strip().encode().decode("unicode_escape") for x in pair.split("=>")]
if src.count(old) != 1:
    sys.exit("mutation anchor not found once: %r" % old)
open(path, "w").write(src.replace(old, new))
PY
	if ! make -C "$tmp/src" -j2 binaries >"$tmp/build.log" 2>&1; then
		echo "BROKEN mutant: $1"; tail -5 "$tmp/build.log"; exit 1
	fi
	if [ "$4" = unit ]; then
		make -C "$tmp/src" -j2 SANITIZE=1 build-san/regress/unit/tools \
		    >"$tmp/build.log" 2>&1 || { echo "BROKEN: $1"; exit 1; }
		"$tmp/src/build-san/regress/unit/tools" >"$tmp/run.log" 2>&1
	else
		SPACED_TOOLS_OFFLINE=1 sh "$tmp/src/regress/integration/$4" \
		    >"$tmp/run.log" 2>&1
	fi
	if [ $? -ne 0 ]; then
		killed=$((killed + 1))
		echo "killed: $1 ($(grep -m 1 -E '^not ok|Failing: [1-9]|FAIL' "$tmp/run.log"))"
	else
		survived=$((survived + 1))
		echo "SURVIVED: $1"
	fi
}

mutant "marker written before the flush" worker-docker/spaced-filler.js \
    "	run('sync', '/bin/sync', [], { timeout: 5 * 60 * 1000 });
 => " filler.sh
mutant "42-only rule loosened to any non-zero (unit)" worker-docker/docker_tools.c \
    "if (exit_code == TOOLS_MARKER_ABSENT_EXIT) => if (exit_code != 0)" unit
mutant "42-only rule loosened to any non-zero (live)" worker-docker/docker_tools.c \
    "if (exit_code == TOOLS_MARKER_ABSENT_EXIT) => if (exit_code != 0)" tools.sh
mutant "label check of an existing volume skipped" worker-docker/docker_toolsvol.c \
    "			if (why != NULL) {
				snprintf(msg, sizeof(msg), \"a volume named %s \" => 			if (0 && why != NULL) {
				snprintf(msg, sizeof(msg), \"a volume named %s \"" tools.sh
mutant "--ignore-scripts dropped" worker-docker/spaced-filler.js \
    "['install', '--ignore-scripts', '--no-audit', => ['install', '--no-audit'," tools.sh
mutant "fill rollback skipped" worker-docker/docker_toolsvol.c \
    "	if (tv->filling) {
		/* The same call => 	if (0 && tv->filling) {
		/* The same call" tools.sh
echo "$killed killed, $survived survived"
[ "$survived" -eq 0 ]
