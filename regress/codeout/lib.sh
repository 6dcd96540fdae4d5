# Shared by the code-out suites (flood.sh, hang.sh, large.sh): the
# contract library (a private spaced, the engine's helpers), and the
# user's repository of one commit the space codes in.
. "$(dirname "$0")/../contract/lib.sh"

RC=$build/regress/tools/repo-compare
G="-c user.name=Agent -c user.email=agent@example.invalid"
jqe() { jq -e "$@" >/dev/null; }

# user_repo: $repo, a repository on main with one commit of a.txt.
user_repo() {
	repo=$T/user
	git init -q -b main "$repo"
	echo a >"$repo/a.txt"
	git -C "$repo" add a.txt
	git -C "$repo" -c user.name=u -c user.email=u@u.invalid commit -qm base
}

# host_hook: a hook of the user's repository that leaves $T/HOST-RAN
# should anything run it on the host.
host_hook() {
	printf '#!/bin/sh\ntouch %s/HOST-RAN\n' "$T" \
	    >"$repo/.git/hooks/reference-transaction"
	chmod +x "$repo/.git/hooks/reference-transaction"
}

# space_in NAME: $id, a new space (checked), with $repo coded in at $sp.
space_in() {
	id=$(sc create -n "$1" 2>"$T/create.err")
	check "a space" sh -c "printf %s '$id' | grep -Eqx '[0-9a-f]{12}'"
	sc -j code-in "$id" "$repo" >"$T/ci.json" 2>"$T/ci.err"
	sp=$(jq -r .spacePath "$T/ci.json")
}
