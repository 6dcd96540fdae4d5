#!/bin/sh
# Code in and code out of repository shapes a new user brings, through
# spacectl against the real engine, in one real space: a submodule in
# the base, a linked worktree as the project folder.
. "$(dirname "$0")/lib.sh"

hg() { git -c core.hooksPath=/dev/null -c core.fsmonitor= "$@"; }
U="-c user.name=u -c user.email=u@u.invalid"
# in DIR CMD: CMD in the space, in the folder code in made of DIR.
in_sp() { sc exec "$id" -- /bin/sh -c "cd '$1' && $2"; }
# code NAME DIR: code DIR into the space; $sp its folder there.
code() {
	sc -j code-in "$id" "$2" >"$T/$1.ci.json" 2>"$T/$1.ci.err"
	sp=$(jq -r .spacePath "$T/$1.ci.json")
	check "$1: code in" test -n "$sp" -a "$sp" != null
}
# review NAME DIR: its JSON in $T/NAME.json, its status in $T/NAME.rc.
review() {
	sc -j review "$id" "$2" >"$T/$1.json" 2>"$T/$1.err"
	echo $? >"$T/$1.rc"
	jq -c '.error // [.flags, [.paths[] | .status + " " + .path]]' \
	    "$T/$1.json" 2>/dev/null | cut -c1-300 | sed "s/^/# $1: /"
}
flagged() {
	jq -e --arg r "$2" --arg p "$3" '[.flags[] |
	    select(.reason == $r and .path == $p)] | length > 0' \
	    "$T/$1.json" >/dev/null
}
# unchanged NAME DIR...: each DIR as it was at $T/NAME.rc-N.
snap() {
	n=0
	for d in "$@"; do
		n=$((n + 1))
		"$RC" snap "$d" >"$T/rc.$n"
	done
}
unchanged() {
	n=0
	for d in "$@"; do
		n=$((n + 1))
		"$RC" snap "$d" >"$T/rc.$n.after"
		"$RC" diff "$T/rc.$n" "$T/rc.$n.after" "$id" || return 1
	done
}

id=$(sc create -n shapes 2>"$T/create.err")
check "a space" sh -c "printf %s '$id' | grep -Eqx '[0-9a-f]{12}'"

# 1. A submodule in the base: the work on top comes back, the gitlink
# and .gitmodules untouched; a gitlink the agent adds or moves, or a
# .gitmodules it changes, is still named.
git init -q -b main "$T/subsrc"
echo s >"$T/subsrc/s.txt"
git -C "$T/subsrc" add s.txt
git -C "$T/subsrc" $U commit -qm sub
git init -q -b main "$T/sm"
echo a >"$T/sm/a.txt"
git -C "$T/sm" add a.txt
git -C "$T/sm" -c protocol.file.allow=always submodule -q add \
    "$T/subsrc" sub 2>/dev/null
git -C "$T/sm" $U commit -qm base
check "control: the base has a gitlink and .gitmodules" sh -c \
    "git -C '$T/sm' ls-tree HEAD | grep -q '^160000 commit .*	sub\$' &&
    git -C '$T/sm' ls-tree HEAD | grep -q '	.gitmodules\$'"
code sm "$T/sm"
smsp=$sp
in_sp "$smsp" "ls -la; git status --porcelain; git ls-files -s" 2>&1 | sed 's/^/# sm inside: /'
in_sp "$smsp" "echo w >>a.txt && git $G commit -qam work &&
    echo u >new.txt" >/dev/null 2>&1
review sm "$T/sm"
check "submodule in the base: the review is clean" \
    jqe '.flags == []' "$T/sm.json"
check "  the work's paths, nothing of the submodule" \
    jqe '[.paths[] | .status + " " + .path] == ["M a.txt", "A new.txt"]' \
    "$T/sm.json"
sc -j apply "$id" "$T/sm" -b spaced/sm >"$T/sm-b.json" 2>&1
check "  apply -b" jqe '.created == true' "$T/sm-b.json"
check "  the branch keeps the gitlink" sh -c "git -C '$T/sm' ls-tree \
    spaced/sm sub | grep -q '^160000 commit '"
check "  HEAD, index and work tree untouched" sh -c "test \"\$(git -C \
    '$T/sm' status --porcelain)\" = ''"
snap "$T/sm"
sc -j apply "$id" "$T/sm" -w >"$T/sm-w.json" 2>&1
check "  apply -w" jqe '.mode == "worktree"' "$T/sm-w.json"
check "  the change staged, the submodule's checkout as it was" sh -c \
    "test \"\$(git -C '$T/sm' status --porcelain | tr '\n' '|')\" = \
    'M  a.txt|A  new.txt|' && test -f '$T/sm/sub/s.txt'"
jq -c . "$T/sm-w.json" | sed 's/^/# /'
git -C "$T/sm" status --porcelain | sed 's/^/# sm after -w: /'
hg -C "$T/sm" reset -q --hard && rm -f "$T/sm/new.txt"

# The agent's gitlink tricks on top of a base with a submodule.
other=$(git -C "$T/subsrc" $U commit-tree -m other \
    "$(git -C "$T/subsrc" rev-parse HEAD^{tree})")
# smtrick NAME REASON PATH CMD: CMD in the space (from the base, clean)
# names PATH by REASON, and apply -b refuses it and changes nothing.
smtrick() {
	in_sp "$smsp" "git reset -q --hard refs/spaced/base; git clean -qffd;
	    $4" >/dev/null 2>&1
	review "$1" "$T/sm"
	check "$1: named ($2 $3)" flagged "$1" "$2" "$3"
	snap "$T/sm"
	sc -j apply "$id" "$T/sm" -b "spaced/$1" >"$T/$1-b.json" 2>&1
	check "  apply refused, named" jqe --arg r "$2" \
	    '.error == "code_out_refused" and (.message |
	    contains("(flagged: " + $r + ")"))' "$T/$1-b.json"
	check "  the user's repository unchanged" unchanged "$T/sm"
}
smtrick sm-moved gitlink sub "git update-index --cacheinfo 160000,$other,sub &&
    git $G commit -qm moved"
smtrick sm-moved-u gitlink sub "git update-index --cacheinfo 160000,$other,sub"
smtrick sm-added gitlink sub2 "git update-index --add --cacheinfo \
    160000,$other,sub2 && mkdir sub2 && git $G commit -qm added"
smtrick sm-gitmodules gitmodules .gitmodules "printf '[submodule \"sub\"]\n\
	path = sub\n\turl = https://example.invalid/x\n' >.gitmodules &&
    git $G commit -qam url"
sc -j apply "$id" "$T/sm" -b spaced/sm-gitmodules --allow gitmodules \
    >"$T/sm-gitmodules-ok.json" 2>&1
check "  allowed by name, the .gitmodules change lands" \
    jqe '.created == true' "$T/sm-gitmodules-ok.json"
# A file where the base's gitlink was, and a gitlink where its file was.
smtrick sm-over-file gitlink a.txt "git rm -q --cached a.txt &&
    git update-index --add --cacheinfo 160000,$other,a.txt &&
    rm a.txt && mkdir a.txt && git $G commit -qm t"
in_sp "$smsp" "git reset -q --hard refs/spaced/base; rmdir a.txt; git clean -qffd;
    git checkout -q -- ." >/dev/null 2>&1
in_sp "$smsp" "git rm -q --cached sub && rmdir sub && echo f >sub &&
    git add sub && git $G commit -qm file" >/dev/null 2>&1
review sm-to-file "$T/sm"
check "a file where the base's gitlink was: no flag" \
    jqe '.flags == [] and ([.paths[] | .status + " " + .path] ==
    ["D sub", "A sub"])' "$T/sm-to-file.json"
in_sp "$smsp" "git rm -q --cached sub && rm sub && mkdir sub &&
    git update-index --add --cacheinfo 160000,$(git -C "$T/sm" rev-parse \
    HEAD:sub),sub && git $G commit -qm back" >/dev/null 2>&1
review sm-back "$T/sm"
check "  and back to the base's own gitlink: not the agent's, no flag" \
    jqe '.flags == [] and .paths == []' "$T/sm-back.json"

# 2. A linked worktree (git worktree add) as the project folder: apply
# -b lands in the common directory, the linked worktree's HEAD and
# index untouched; -w writes the linked worktree's own index and files.
git init -q -b main "$T/lw"
echo a >"$T/lw/a.txt"
git -C "$T/lw" add a.txt
git -C "$T/lw" $U commit -qm base
git -C "$T/lw" worktree add -q "$T/lw-wt" -b feature 2>/dev/null
echo mine >"$T/lw/main-only.txt"	# the main worktree's own untracked file
code lw "$T/lw-wt"
lwsp=$sp
in_sp "$lwsp" "git rev-parse --abbrev-ref HEAD" >"$T/lw.branch" 2>/dev/null
check "linked worktree: the space is on its branch" \
    grep -qx feature "$T/lw.branch"
in_sp "$lwsp" "echo w >>a.txt && git $G commit -qam work &&
    echo u >new.txt" >/dev/null 2>&1
review lw "$T/lw-wt"
check "  the review" jqe '.flags == [] and ([.paths[] | .status + " " +
    .path] == ["M a.txt", "A new.txt"])' "$T/lw.json"
hg -C "$T/lw" status --porcelain >"$T/lw.main.before"
wthead=$(git -C "$T/lw-wt" rev-parse HEAD)
sc -j apply "$id" "$T/lw-wt" -b spaced/lw >"$T/lw-b.json" 2>&1
check "  apply -b: the branch in the common directory" sh -c \
    "test \"\$(git -C '$T/lw' rev-parse spaced/lw)\" = \
    \"\$(jq -r .new '$T/lw-b.json')\""
check "  the linked worktree's HEAD, index and files untouched" sh -c \
    "test \"\$(git -C '$T/lw-wt' rev-parse HEAD)\" = $wthead &&
    test -z \"\$(git -C '$T/lw-wt' status --porcelain)\""
sc -j apply "$id" "$T/lw-wt" -b feature >"$T/lw-co.json" 2>&1
check "  apply -b to the branch the linked worktree has out: refused" \
    jqe '.error == "branch_checked_out"' "$T/lw-co.json"
sc -j apply "$id" "$T/lw-wt" -b main >"$T/lw-co2.json" 2>&1
check "  and to the main worktree's: refused" \
    jqe '.error == "branch_checked_out"' "$T/lw-co2.json"
echo dirty >>"$T/lw-wt/a.txt"
snap "$T/lw" "$T/lw-wt"
sc -j apply "$id" "$T/lw-wt" -w >"$T/lw-dirty.json" 2>&1
check "  apply -w on a dirty linked worktree: not_clean" \
    jqe '.error == "not_clean"' "$T/lw-dirty.json"
check "  both worktrees unchanged" unchanged "$T/lw" "$T/lw-wt"
hg -C "$T/lw-wt" checkout -q -- a.txt
sc -j apply "$id" "$T/lw-wt" -w >"$T/lw-w.json" 2>&1
check "  apply -w into the linked worktree" jqe '.mode == "worktree"' \
    "$T/lw-w.json"
check "  its own index and files hold the change" sh -c \
    "test \"\$(git -C '$T/lw-wt' status --porcelain | tr '\n' '|')\" = \
    'M  a.txt|A  new.txt|' && grep -qx w '$T/lw-wt/a.txt'"
hg -C "$T/lw" status --porcelain >"$T/lw.main.after"
check "  the main worktree's index and files as they were" \
    cmp -s "$T/lw.main.before" "$T/lw.main.after"
jq -c . "$T/lw-w.json" "$T/lw-b.json" | sed 's/^/# /'

sc remove "$id" >/dev/null
finish
