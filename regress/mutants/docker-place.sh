#!/bin/sh
# Mutation check of the Docker place: each mutant removes one protection
# in worker-docker/, and the contract suite (regress/contract/docker.sh,
# the real engine) must go red.  Built in a copy of the tree under a temp
# dir; the tree itself is never modified.  About a minute and a half a
# mutant.  Usage: sh regress/mutants/docker-place.sh [label-substring]
set -u
cd "$(dirname "$0")/../.." || exit 1
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
killed=0
survived=0
only=${1:-}

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]> [suite]
mutant() {
	case "$1" in *"$only"*) ;; *) return 0 ;; esac
	rm -rf "$tmp/src"
	mkdir -p "$tmp/src"
	git ls-files -z | (cd "$top" && xargs -0 cp --parents -t "$tmp/src")
	python3 - "$tmp/src/$2" "$3" <<'PY' || exit 1
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
	if ! make -C "$tmp/src" -j2 binaries >"$tmp/build.log" 2>&1; then
		echo "BROKEN mutant: $1"; tail -5 "$tmp/build.log"; exit 1
	fi
	if SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/${4:-contract/docker}.sh" \
	    >"$tmp/run.log" 2>&1; then
		echo "SURVIVED: $1"
		survived=$((survived + 1))
	else
		echo "killed: $1 ($(grep '^not ok' "$tmp/run.log" | head -3 |
		    sed 's/^not ok - //' | paste -sd';' -))"
		killed=$((killed + 1))
	fi
}

mutant "stop acts on a container without this owner's labels" \
    worker-docker/docker_space.c \
    "\"Config\"), \"Labels\"), sp->sq.sq_owner, sp->sq.sq_id, r);\n\t\tjson_decref(o);\n\t\tif (why != NULL) { => \"Config\"), \"Labels\"), sp->sq.sq_owner, sp->sq.sq_id, r);\n\t\tjson_decref(o);\n\t\tif (0) {"
mutant "exec acts on a container without this owner's labels" \
    worker-docker/docker_exec.c \
    "if (why != NULL) {\n\t\t\tex_done(rq, ERR_SPACE_NOT_OURS => if (0) {\n\t\t\tex_done(rq, ERR_SPACE_NOT_OURS"
mutant "exec runs as root" worker-docker/docker_exec.c \
    "HARDEN_SPACE_USER : HARDEN_GK_USER, => \"0:0\" : HARDEN_GK_USER,"
mutant "start starts a space that does not verify" \
    worker-docker/docker_space.c \
    "/* Changed behind our back: named, and not started. */ => sp->report.hr_n = 0; sp->report.hr_truncated = 0;"
mutant "the space gets a network (the default bridge) instead of none" \
    worker-docker/docker_harden.c \
    "HARDEN_SPACE_TMPFS, \"none\", => HARDEN_SPACE_TMPFS, \"bridge\","

# The faults suite, for what only a fault shows.
FAULTS_ONLY=killed
export FAULTS_ONLY
mutant "a cancelled create is dropped, not rolled back" \
    worker-docker/docker_space.c \
    "/* docker_req_cancel freed the branch: it makes nothing more */ => done(rq, ERR_CANCELLED, NULL, 0); return DOCKER_DONE;" \
    faults/docker

echo "mutants: $killed killed, $survived survived"
[ "$survived" -eq 0 ]
