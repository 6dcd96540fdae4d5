#!/bin/sh
# Mutation check of spaced's request, stream and control tables: each
# mutant removes one protection in supervisor/, and spaced-requests.sh
# must go red.  Builds each mutant in a copy of the tree under a temp dir;
# the tree itself is never modified.  About a minute a mutant.
# Usage: sh regress/mutants/spaced-requests.sh [label-substring]
# (the suite is spaced-requests.sh unless a mutant names another)
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
	if ! make -C "$tmp/src" -j2 binaries build/regress/tools/hostile-worker \
	    build/regress/tools/fake_engine \
	    >"$tmp/build.log" 2>&1; then
		echo "BROKEN mutant: $1"; tail -5 "$tmp/build.log"; exit 1
	fi
	if SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/integration/${4:-spaced-requests}.sh" \
	    >"$tmp/run.log" 2>&1; then
		echo "SURVIVED: $1"
		survived=$((survived + 1))
	else
		echo "killed: $1 ($(grep '^not ok' "$tmp/run.log" | head -3 |
		    sed 's/^not ok - //' | paste -sd';' -))"
		killed=$((killed + 1))
	fi
}

mutant "client output never pauses reading" supervisor/control.c \
    "imsg_event_pause_read(&cc->cc_iev, queued > CTL_OUT_SOFT); => imsg_event_pause_read(&cc->cc_iev, 0);"
mutant "idle timer runs while a request is pending" supervisor/control.c \
    "if (cc->cc_pending > 0 || cc->cc_streams > 0) => if (0)"
# Redundant alone: the row's senders refuse what the waiting bits would
# (and the other way round); each is kept, and removing both must show.
mutant "answers from any worker, due or not, taken" supervisor/request.c \
    "(ar->ar_senders & PROC_BIT(from)) == 0 || => 0 || @@ if ((r->r_waiting & PROC_BIT(from)) == 0) => if (0)" \
    spaced-concurrency
mutant "answers for no request ignored instead of fatal" supervisor/request.c \
    "fatalx(\"%s: %s answered %u for no pending request\", __func__,\\n\\t\\t    proc_title(from), type); => return;"
mutant "fds with answers taken" supervisor/request.c \
    "if (imsg->fd != -1) => if (0)"
mutant "no cancel when the client leaves" supervisor/request.c \
    "r->r_answered = 1;	/* nobody to answer */ => r->r_answered = 1; r->r_cancelled = 1;"
mutant "streams relayed without their gauge" supervisor/streams.c \
    "stream_relay(iev, imsg, &s->s_gauge) => stream_relay(iev, imsg, NULL)"

echo "$killed killed, $survived survived"
[ "$survived" -eq 0 ]
