#!/bin/sh
# The history without DIR (issue 24's code-in defects): it goes from the
# repository code in brought into the space, wherever spacectl runs.  A
# repository git fast-import made, with an untracked file, owned by
# root, and one owned by another user: each brought in, then its history
# sent with no DIR from another repository's folder (the decoy, which
# has no ref of the space): complete, no longer shallow, all 31 commits;
# a second call without DIR, and one with, already_complete.
. "$(dirname "$0")/../contract/lib.sh"

same() { [ -n "$1" ] && [ "$1" = "$2" ]; }
commits() { sc exec "$1" -- git -C "$2" rev-list --count HEAD; }
shallow() { sc exec "$1" -- git -C "$2" rev-parse --is-shallow-repository; }
# from DIR ARGS...: spacectl run in DIR
from() { (cd "$1" && shift && sc "$@"); }
RC=$build/regress/tools/repo-compare

# fast_repo DIR: 31 commits by git fast-import, checked out, plus an
# untracked file.
fast_repo() {
	git init -q -b main "$1" &&
	i=1 && while [ $i -le 31 ]; do
		printf 'commit refs/heads/main\ncommitter f <f@f.invalid> %d +0000\n' \
		    $((1700000000 + i))
		printf 'data 3\nc%02d\n' $i
		printf 'M 100644 inline f%d\ndata 2\n%d\n\n' $i $i
		i=$((i + 1))
	done | git -C "$1" fast-import --quiet &&
	git -C "$1" checkout -q -f main &&
	echo untracked >"$1/untracked.txt"
}

# try WHAT DIR: code in DIR, history without DIR from the decoy and from
# DIR itself, then with DIR.
try() {
	what=$1 dir=$2
	id=$(sc create -n "hist$what" 2>"$T/$what.create")
	check "$what: a space" sh -c "printf %s '$id' | grep -Eqx '[0-9a-f]{12}'"
	sc -j code-in "$id" "$dir" >"$T/$what.ci" 2>"$T/$what.cierr"
	sed 's/^/# /' "$T/$what.cierr"
	sp=$(jq -r .spacePath "$T/$what.ci")
	check "$what: code-in" test -n "$sp" -a "$sp" != null
	check "$what: shallow first" same "$(shallow "$id" "$sp")" true
	"$RC" snap "$decoy" >"$T/decoy.before"
	out=$(from "$decoy" history "$id" 2>"$T/$what.h1")
	sed 's/^/# /' "$T/$what.h1"
	check "$what: history without DIR (from another repository): complete" \
	    same "$out" complete
	check "$what: no longer shallow" same "$(shallow "$id" "$sp")" false
	check "$what: all 31 commits" same "$(commits "$id" "$sp")" 31
	"$RC" snap "$decoy" >"$T/decoy.after"
	check "$what: the other repository is untouched" \
	    "$RC" diff "$T/decoy.before" "$T/decoy.after" "$id"
	out=$(from "$decoy" history "$id" 2>"$T/$what.h2")
	sed 's/^/# /' "$T/$what.h2"
	check "$what: a second history without DIR: already_complete" \
	    same "$out" already_complete
	check "$what: and from inside the repository: already_complete" \
	    same "$(from "$dir" history "$id" 2>/dev/null)" already_complete
	check "$what: and with DIR: already_complete" \
	    same "$(from / history "$id" "$dir" 2>/dev/null)" already_complete
	sc remove "$id" >/dev/null
}

decoy=$T/decoy
fast_repo "$decoy"
fast_repo "$T/fast"
check "control: fast-import made 31 commits" \
    same "$(git -C "$T/fast" rev-list --count HEAD)" 31
try fast "$T/fast"
fast_repo "$T/theirs" && chown -R nobody:nogroup "$T/theirs"
try theirs "$T/theirs"

# Two repositories in one space: without DIR it cannot choose, and
# says so; with DIR each works.
id=$(sc create -n histtwo 2>/dev/null)
sc code-in "$id" "$T/fast" >/dev/null 2>&1
fast_repo "$T/second"
sc code-in "$id" "$T/second" >/dev/null 2>&1
check_refusal "two origins: history without DIR names DIR" 1 \
    'history_transfer_failed.*several repositories' \
    sh -c "cd '$decoy' && '$tree/bin/spacectl' -s '$sd/run/spaced.sock' history '$id'"
check "and with DIR: complete" same "$(sc history "$id" "$T/second" 2>/dev/null)" \
    complete
sc remove "$id" >/dev/null
# A space with no code in: a failed history, no repository touched.
id=$(sc create -n histnone 2>/dev/null)
check_refusal "no code in: history without DIR fails" 1 \
    'history_transfer_failed.*no code in' \
    sh -c "cd '$decoy' && '$tree/bin/spacectl' -s '$sd/run/spaced.sock' history '$id'"
sc remove "$id" >/dev/null
finish
