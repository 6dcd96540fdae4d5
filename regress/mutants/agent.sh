#!/bin/sh
# Mutation check of the server inside a space: each mutant removes one
# protection and its test (regress/agent/server.sh, offline) must go red.
# Built in a copy of the tree under a temp dir; the tree itself is never
# modified.  About 2 minutes a mutant; the deadline one about 4.
# Usage: sh regress/mutants/agent.sh [label-substring]
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
		SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/$4" \
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

mutant "curl reads the space user's ~/.curlrc (--disable dropped)" \
    common/space_server.h '"--disable", => ' agent/server.sh
mutant "readiness without a deadline" supervisor/server.c \
    "if (waited(r) + READY_PAUSE_MS / 1000.0 > profile()->ag_ready_wait) { => if (0) {" \
    agent/server.sh
mutant "the token file readable by all (no umask)" supervisor/server.c \
    "umask 077; => " agent/server.sh
mutant "a token of any length taken" gatekeeper/collector/server_parse.c \
    "n < SERVER_TOKEN_MIN || n > SERVER_TOKEN_MAX) => 0)" agent/server.sh
mutant "a create whose client left is not undone after the place" \
    supervisor/server.c "	if (r->r_u.srv.op != SV_OP_CREATE || !r->r_u.srv.made)
		return 0; => 	return 0;" agent/server.sh
echo "$killed killed, $survived survived"
[ "$survived" -eq 0 ]
