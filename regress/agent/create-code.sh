#!/bin/sh
# create --code DIR (issue 23): the code goes in beside the server's
# start, and a failure of either leaves nothing behind.  The test agent
# (hostile-server/) listens only once a project's code is in its folder,
# so a create that waited for the server before bringing the code in
# would never see it ready.  A project named "never" keeps it from
# listening: the code went in, the create fails, and the space and the
# refs code in made in the repository go again.
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/hostile.sh"
SPACED_AGENT_CONF=$(HOSTILE_READY_WAIT=60 profile "agent hostile env HOSTILE_LISTEN_AFTER_CODE=1")
. "$dir/../contract/lib.sh"

# repo DIR: a repository of one commit
repo() {
	git init -q "$1" && printf 'code-%s\n' "$$" >"$1/marker.txt" &&
	    git -C "$1" add . &&
	    git -C "$1" -c user.name=t -c user.email=t@example.org commit -qm one
}
refs() { git -C "$1" for-each-ref; git -C "$1" status --porcelain; }
spaces() { sc -j list | jq length; }

check "npm packed the test agent" test -s "$TGZ"
check "tools fill fills the packed profile offline" sc tools fill

# --- the code goes in while the server starts ----------------------------
repo "$T/proj"
check_fails "control: a create without code never sees this server ready" \
    sc create -n nocode
n0=$(spaces)
check "and it left no space ($n0)" test "$n0" = 0
refs "$T/proj" >"$T/proj.before"
id=$(sc create -n code --code "$T/proj")
check "create --code answers: the server listened once the code was in ($id)" \
    sh -c "printf %s '$id' | grep -Eqx '[0-9a-f]{12}'"
check "the folder's code is in the space" \
    sc exec "$id" -- grep -qx "code-$$" "/spaces/$id/proj/marker.txt"
check "the server answers" sc server "$id" GET /pid
check "the project's start is marked in the space" \
    sc exec "$id" -- git -C "/spaces/$id/proj" rev-parse -q --verify refs/spaced/start
refs "$T/proj" >"$T/proj.made"
check "control: code in left refs in the repository" \
    sh -c "! cmp -s '$T/proj.before' '$T/proj.made'"
check "remove" sc remove "$id"
refs "$T/proj" >"$T/proj.after"
check "remove takes them back" cmp -s "$T/proj.before" "$T/proj.after"

# --- the server never comes: the create fails, nothing is left -------------
repo "$T/never"
refs "$T/never" >"$T/refs.before"
sc create -n never --code "$T/never" >"$T/never.out" 2>"$T/never.err"
rc=$?
check "create --code fails when the server never answers ($rc)" test "$rc" -ne 0
check "... naming why (server_not_ready)" grep -q server_not_ready "$T/never.err"
check "no space is left" test "$(spaces)" = 0
refs "$T/never" >"$T/refs.after"
check "the repository is as it was (refs and work tree)" \
    cmp -s "$T/refs.before" "$T/refs.after"

for v in $(api GET /volumes | jq -r '.Volumes[].Name' | grep "^spaced-tools-$INSTALL-"); do
	api DELETE "/volumes/$v" >/dev/null
done
rm -rf "$tgzdir"
finish
