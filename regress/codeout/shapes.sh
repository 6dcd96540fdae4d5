#!/bin/sh
# Code in and code out of repository shapes a new user brings, through
# spacectl against the real engine, in one real space (each repository
# coded into a folder of its own): (1) a submodule in the base, whose
# gitlink the work leaves as it is, against a gitlink the agent moves
# or adds and a .gitmodules it changes; a clone whose submodule was
# never initialised; the submodule's own checkout (.git a file); (2) a
# linked worktree as the project folder; (3) a split index (code in
# merges it; apply -w refuses it by name), feature.manyFiles (index v4,
# untracked cache), autocrlf and eol attributes, core.fileMode=false, symlinks in
# the base, a case-only rename, a file made a folder and back, names
# with a tab and a newline, an agent's merge commit, commits with an
# encoding and a signature header, the agent on another branch and
# detached, a stash left behind, empty commits, the user's HEAD
# detached; (4) the project folder a subfolder; (5) what an agent
# leaves (a conflict in progress, the start pruned, tags, control
# characters, a repository inside) and what a user's repository holds
# or is named (another git's locks, a branch beside a branch, a sparse
# index, DIR in a git directory, core.worktree elsewhere).  Each comes
# back exact
# (review, apply -b, apply -w); each refusal leaves the user's
# repository unchanged (regress/lib/repo_compare.c).
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
	[ "$sp" != null ] || cat "$T/$1.ci.json" "$T/$1.ci.err" |
	    sed "s/^/# $1: /"
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
# snap DIR...; unchanged DIR...: each DIR as snap saw it.
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

# fresh NAME: $r, a repository on main with a.txt and b/c.txt.
fresh() {
	r=$T/$1
	git init -q -b main "$r"
	echo a >"$r/a.txt" && mkdir "$r/b" && echo c >"$r/b/c.txt"
}
commit_base() { git -C "$r" add -A && git -C "$r" $U commit -qm base; }
# worktree NAME: the tree of the space's work tree (a temporary index).
worktree() {
	in_sp "$2" "export GIT_INDEX_FILE=/tmp/wt-$1; git read-tree HEAD &&
	    git add -A && git write-tree; rm -f /tmp/wt-$1" 2>/dev/null
}
# roundtrip NAME: review clean, apply -b spaced/NAME is the work tree,
# apply -w stages it.
roundtrip() {
	review "$1" "$r"
	check "$1: review clean" jqe '.error == null and .flags == []' \
	    "$T/$1.json"
	want=$(worktree "$1" "$sp")
	sc -j apply "$id" "$r" -b "spaced/$1" >"$T/$1-b.json" 2>&1
	check "  apply -b: the space's work tree" sh -c "test \"\$(git -C \
	    '$r' rev-parse 'spaced/$1^{tree}' 2>/dev/null)\" = '$want'"
	sc -j apply "$id" "$r" -w >"$T/$1-w.json" 2>&1
	jq -c '.error // empty' "$T/$1-w.json" | sed "s/^/# $1 -w: /"
	check "  apply -w stages it" sh -c "test \"\$(git -C '$r' \
	    write-tree)\" = '$want'"
	check "  the files as the index has them" hg -C "$r" diff --quiet
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
check "  the submodule arrives an empty folder, the space's status clean" \
    in_sp "$smsp" "test -d sub && test -z \"\$(ls -A sub)\" &&
    test -z \"\$(git status --porcelain)\""
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
sc -j apply "$id" "$T/sm" -w >"$T/sm-w.json" 2>&1
check "  apply -w" jqe '.mode == "worktree"' "$T/sm-w.json"
check "  the change staged, the submodule's checkout as it was" sh -c \
    "test \"\$(git -C '$T/sm' status --porcelain | tr '\n' '|')\" = \
    'M  a.txt|A  new.txt|' && test -f '$T/sm/sub/s.txt'"
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
# The agent removes the submodule: its .gitmodules change is named.
smtrick sm-removed gitmodules .gitmodules "git rm -q sub &&
    git $G commit -qm removed"
check "sm-removed: only .gitmodules is named" \
    jqe '.flags | length == 1' "$T/sm-removed.json"
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

# A clone whose submodule was never initialised (an empty folder).
git clone -q "$T/sm" "$T/smclone" 2>/dev/null
r=$T/smclone
check "control: the clone's submodule is an empty folder" sh -c \
    "test -d '$r/sub' && test -z \"\$(ls -A '$r/sub')\""
code smclone "$r"
in_sp "$sp" "echo w >>a.txt && git $G commit -qam w && echo u >u.txt" \
    >/dev/null 2>&1
roundtrip smclone

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
snap "$T/lw" "$T/lw-wt"
sc -j apply "$id" "$T/lw-wt" -b feature >"$T/lw-co.json" 2>&1
check "  apply -b to the branch the linked worktree has out: refused" \
    jqe '.error == "branch_checked_out"' "$T/lw-co.json"
sc -j apply "$id" "$T/lw-wt" -b main >"$T/lw-co2.json" 2>&1
check "  and to the main worktree's: refused" \
    jqe '.error == "branch_checked_out"' "$T/lw-co2.json"
check "  both worktrees unchanged" unchanged "$T/lw" "$T/lw-wt"
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

# 3. Shapes of the base and of the agent's work, each a repository of
# its own coded in: the work comes back exact (the branch's tree is the
# space's work tree, uncommitted work included), apply -w stages that
# tree with the files as the user's git would write them.

# A split index (core.splitIndex), which libgit2 cannot read: files,
# limits and code in merge it themselves, and the space's status is the
# user's; apply -w
# refuses it by name (libgit2 could not write it back split), the
# repository unchanged; code out to a branch needs no index.
fresh split
echo r >"$r/r.txt"
commit_base
git -C "$r" config core.splitIndex true
git -C "$r" update-index --split-index
echo staged >"$r/staged.txt" && git -C "$r" add staged.txt
echo edit >>"$r/a.txt" && git -C "$r" add a.txt
git -C "$r" rm -q --cached r.txt
check "control: the index is split" sh -c "ls '$r/.git/' |
    grep -q '^sharedindex\.' && grep -q link '$r/.git/index'"
echo u >"$r/untracked.txt"
sc -j files "$r" >"$T/split-files.json" 2>&1
check "  files lists what travels" jqe '[.files[] | .path] |
    index("untracked.txt") != null' "$T/split-files.json"
sc -j limits "$r" >"$T/split-limits.json" 2>&1
check "  limits answers" jqe '.error == null' "$T/split-limits.json"
git -C "$r" status --porcelain >"$T/split.host"
code split "$r"
in_sp "$sp" "git status --porcelain" >"$T/split.space" 2>/dev/null
check "  the space's status is the user's" cmp -s "$T/split.host" \
    "$T/split.space"
in_sp "$sp" "git $G commit -qm staged && echo w >>a.txt &&
    git $G commit -qam w && echo u >u.txt" >/dev/null 2>&1
review split "$r"
check "split index: review clean" jqe '.error == null and .flags == []' \
    "$T/split.json"
sc -j apply "$id" "$r" -b spaced/split >"$T/split-b.json" 2>&1
check "  apply -b" jqe '.created == true' "$T/split-b.json"
snap "$r"
sc -j apply "$id" "$r" -w >"$T/split-w.json" 2>&1
check "  apply -w: refused by name" jqe '.error ==
    "unsupported_index_format" and (.message | contains("core.splitIndex"))' \
    "$T/split-w.json"
check "  the repository unchanged" unchanged "$r"

# feature.manyFiles: an index of version 4 with an untracked cache.
fresh many
git -C "$r" config feature.manyFiles true
git -C "$r" config core.untrackedCache true
commit_base
echo s >"$r/staged.txt" && git -C "$r" add staged.txt
git -C "$r" status >/dev/null
check "control: the index is of version 4, with an untracked cache" sh -c \
    "od -An -tx1 -j4 -N4 '$r/.git/index' | tr -d ' ' | grep -qx 00000004 &&
    grep -q UNTR '$r/.git/index'"
code many "$r"
check "  the staged file came in" in_sp "$sp" "test -f staged.txt"
in_sp "$sp" "echo w >>a.txt && git $G commit -qam w && echo u >u.txt" \
    >/dev/null 2>&1
hg -C "$r" rm -q --cached staged.txt && rm "$r/staged.txt"
roundtrip many
check "  the index stays of version 4" sh -c "od -An -tx1 -j4 -N4 \
    '$r/.git/index' | tr -d ' ' | grep -qx 00000004"

# core.fileMode=false (a work tree on a file system without modes):
# a mode the work tree gained is no change, as the user's git sees it.
fresh filemode
commit_base
git -C "$r" config core.fileMode false
chmod +x "$r/a.txt"
check "control: the user's git sees no change" test -z \
    "$(git -C "$r" status --porcelain)"
code filemode "$r"
check "  the space has a.txt as the user's git has it (100644), clean" \
    in_sp "$sp" "git ls-files -s a.txt | grep -q '^100644 ' &&
    test -z \"\$(git status --porcelain)\""
in_sp "$sp" "echo w >>a.txt && git $G commit -qam w" >/dev/null 2>&1
roundtrip filemode

# autocrlf and eol attributes in the base.
fresh crlf
printf '* text=auto\n*.bat eol=crlf\n' >"$r/.gitattributes"
printf 'x\r\ny\r\n' >"$r/w.bat"
git -C "$r" config core.autocrlf true
commit_base
code crlf "$r"
in_sp "$sp" "printf 'z\\r\\n' >>w.bat && echo n >n.txt && git add -A &&
    git $G commit -qm crlf && printf 'q\\n' >>a.txt" >/dev/null 2>&1
roundtrip crlf
check "  w.bat written with CRLF" grep -q "$(printf 'z\r')" "$r/w.bat"
check "  a.txt too (autocrlf)" grep -q "$(printf 'q\r')" "$r/a.txt"

# Symlinks in the base, kept, changed and added inside the tree.
fresh links
ln -s a.txt "$r/la" && ln -s ../a.txt "$r/b/lb" && ln -s b "$r/lbdir"
commit_base
code links "$r"
in_sp "$sp" "rm la && ln -s b/c.txt la && ln -s c.txt b/lc &&
    git add -A && git $G commit -qm links" >/dev/null 2>&1
roundtrip links
check "  the links are links on the host" sh -c "test -L '$r/la' &&
    test \"\$(readlink '$r/la')\" = b/c.txt && test -L '$r/b/lc'"

# A case-only rename by the agent.
fresh case
echo R >"$r/README"
commit_base
code case "$r"
in_sp "$sp" "git mv README readme && git mv b B && git $G commit -qm case" \
    >/dev/null 2>&1
roundtrip case
check "  the renamed names on the host" sh -c "test -f '$r/readme' &&
    test ! -e '$r/README' && test -f '$r/B/c.txt'"

# A file made a folder and a folder made a file; names with a tab and
# a newline (shown escaped).
fresh df
commit_base
code df "$r"
in_sp "$sp" "rm a.txt && mkdir a.txt && echo x >a.txt/x && rm -r b &&
    echo f >b && printf t >\"\$(printf 'tab\\tname')\" &&
    printf n >\"\$(printf 'new\\nline')\" && git add -A &&
    git $G commit -qm df" >/dev/null 2>&1
roundtrip df
check "  the folder and the file on the host" sh -c "test -f '$r/a.txt/x' &&
    test -f '$r/b' && test -f \"$r/\$(printf 'new\nline')\""
check "  the names escaped in the review" jqe '[.paths[] | .path] |
    (index("tab\\x09name") != null) and (index("new\\x0aline") != null)' \
    "$T/df.json"

# A merge commit of the agent's (a branch of its own merged back).
fresh merge
commit_base
code merge "$r"
in_sp "$sp" "git checkout -qb side && echo s >s.txt && git add s.txt &&
    git $G commit -qm side && git checkout -q - && echo m >>a.txt &&
    git $G commit -qam main && git $G merge -q --no-edit side" \
    >/dev/null 2>&1
roundtrip merge
check "  the merge commit kept" sh -c "git -C '$r' rev-list --merges \
    spaced/merge | grep -q ."

# Commits with an encoding header and a signature header.
fresh headers
commit_base
code headers "$r"
in_sp "$sp" "echo e >>a.txt && git add a.txt &&
    T=\$(git write-tree) && P=\$(git rev-parse HEAD) &&
    C=\$(printf 'tree %s\\nparent %s\\nauthor A <a@a.invalid> 1 +0000\\ncommitter A <a@a.invalid> 1 +0000\\nencoding ISO-8859-1\\n\\nsubject \\374\\n' \$T \$P |
    git hash-object -t commit -w --stdin) &&
    echo g >>a.txt && git add a.txt && T=\$(git write-tree) &&
    S=\$(printf 'tree %s\\nparent %s\\nauthor A <a@a.invalid> 2 +0000\\ncommitter A <a@a.invalid> 2 +0000\\ngpgsig -----BEGIN PGP SIGNATURE-----\\n \\n iQEzBAAB\\n -----END PGP SIGNATURE-----\\n\\nsigned\\n' \$T \$C |
    git hash-object -t commit -w --stdin) && git update-ref HEAD \$S" \
    >/dev/null 2>&1
check "control: the space's HEAD is signed, its parent encoded" \
    in_sp "$sp" "git cat-file commit HEAD | grep -q '^gpgsig ' &&
    git cat-file commit HEAD^ | grep -q '^encoding ISO-8859-1'"
roundtrip headers
check "  the Latin-1 subject shown escaped, never raw" jqe \
    '[.commits[] | .subject] == ["signed", "subject \\xfc"]' "$T/headers.json"
check "  the commits' ids kept (headers whole)" sh -c "test \"\$(git -C \
    '$r' rev-parse spaced/headers)\" = \"\$(jq -r .tip '$T/headers.json')\""

# The agent on another branch than the project's, then detached.
fresh branch
commit_base
code branch "$r"
in_sp "$sp" "git checkout -qb agent && echo b >>a.txt &&
    git $G commit -qam other" >/dev/null 2>&1
roundtrip branch
fresh detached
commit_base
code detached "$r"
in_sp "$sp" "git checkout -q --detach && echo d >>a.txt &&
    git $G commit -qam detached && echo u >u.txt" >/dev/null 2>&1
roundtrip detached

# A stash the agent left, and empty commits.
fresh stash
commit_base
code stash "$r"
in_sp "$sp" "echo s >>a.txt && git $G stash -q && echo k >k.txt &&
    git $G commit -q --allow-empty -m empty1 && git add k.txt &&
    git $G commit -qm k && git $G commit -q --allow-empty -m empty2" \
    >/dev/null 2>&1
roundtrip stash
check "  the stash stays behind, the empty commits come" jqe \
    '[.commits[] | .subject] == ["empty2", "k", "empty1"]' "$T/stash.json"

# The user's HEAD detached; a repository whose .git is a file (the
# submodule's own checkout of shape 1, its git directory in the
# superproject's .git/modules).
fresh hostdetached
commit_base
git -C "$r" checkout -q --detach
code hostdetached "$r"
in_sp "$sp" "echo w >>a.txt && git $G commit -qam w && echo u >u.txt" \
    >/dev/null 2>&1
roundtrip hostdetached
r=$T/sm/sub
check "control: the submodule's .git is a file" test -f "$r/.git"
code gitfile "$r"
in_sp "$sp" "echo w >>s.txt && git $G commit -qam w && echo u >u.txt" \
    >/dev/null 2>&1
roundtrip gitfile
check "  its objects and branch in the superproject's .git/modules" \
    git --git-dir="$T/sm/.git/modules/sub" rev-parse -q --verify \
    refs/heads/spaced/gitfile

# 4. The project folder a subfolder of the repository: code out of the
# whole repository's work, reviewed and applied from that folder.
fresh subdir
mkdir -p "$r/pkg/app" && echo p >"$r/pkg/app/p.txt"
commit_base
code subdir "$r/pkg/app"
check "  the project path below the repository" jqe --arg s "$sp" \
    '.projectPath == $s + "/pkg/app"' "$T/subdir.ci.json"
in_sp "$sp/pkg/app" "echo w >>p.txt && git $G commit -qam w &&
    echo top >>../../a.txt && echo n >n.txt" >/dev/null 2>&1
r=$r/pkg/app
roundtrip subdir
r=$T/subdir
check "  the work in and outside the folder" jqe '[.paths[] | .status +
    " " + .path] == ["M a.txt", "A pkg/app/n.txt", "M pkg/app/p.txt"]' \
    "$T/subdir.json"

# 5. What an agent leaves in its repository, and names a user gives.
# A merge stopped on a conflict: its markers are no work (they came out
# as the uncommitted work, and apply -w staged them); refused, named.
fresh conflict
printf 'l1\nl2\nl3\n' >"$r/m.txt"
commit_base
code conflict "$r"
in_sp "$sp" "git checkout -qb side && printf 'l1\nS\nl3\n' >m.txt &&
    git $G commit -qam side && git checkout -q main &&
    printf 'l1\nM\nl3\n' >m.txt && git $G commit -qam main &&
    git $G merge -q side" >/dev/null 2>&1
check "control: the space's merge stopped on a conflict" \
    in_sp "$sp" "git ls-files -u | grep -q m.txt"
snap "$r"
review conflict "$r"
check "a conflict left in progress: refused, named" jqe '.error ==
    "code_out_refused" and (.message | test("unmerged paths.*resolve"))' \
    "$T/conflict.json"
sc -j apply "$id" "$r" -w >"$T/conflict-w.json" 2>&1
check "  apply -w refused too" jqe '.error == "code_out_refused"' \
    "$T/conflict-w.json"
check "  the user's repository unchanged" unchanged "$r"
in_sp "$sp" "printf 'l1\nMS\nl3\n' >m.txt && git add m.txt &&
    git $G commit -qm merged" >/dev/null 2>&1
review conflict-done "$r"
check "  control: resolved and committed, the merge comes out" jqe \
    '.error == null and .commits[0].subject == "merged"' \
    "$T/conflict-done.json"

# The agent deleted refs/spaced/start and pruned (git gc --prune=now
# alone keeps it: the ref holds it): the start is gone, which was
# "HEAD names no commit (an orphan branch?)".  Brought back as
# spacectl(8) says, the work comes out.
fresh gone
commit_base
code gone "$r"
in_sp "$sp" "echo g >g.txt && git add g.txt && git $G commit -qm kept &&
    git gc -q --prune=now" >/dev/null 2>&1
review gone-gc "$r"
check "gc --prune=now in the space: the work comes out" jqe \
    '.error == null and .commits[0].subject == "kept"' "$T/gone-gc.json"
in_sp "$sp" "git update-ref -d refs/spaced/start &&
    git update-ref -d refs/spaced/start-index &&
    git reflog expire --expire=now --all && git gc -q --prune=now" \
    >/dev/null 2>&1
check "control: the start is gone from the space" in_sp "$sp" \
    "! git cat-file -e $(jq -r .start "$T/gone.ci.json")"
review gone "$r"
check "the start gone from the space: refused, named" jqe '.error ==
    "code_out_refused" and (.message | test("start is gone"))' \
    "$T/gone.json"
git -C "$r" bundle create -q "$T/start.bundle" \
    "refs/spaced/spaces/$id/start" "^$(jq -r .base "$T/gone.ci.json")"
sc exec "$id" -- /bin/sh -c "cat >/tmp/start.bundle && cd '$sp' &&
    git fetch -q /tmp/start.bundle \
    refs/spaced/spaces/$id/start:refs/spaced/start" <"$T/start.bundle"
review gone-back "$r"
check "  control: brought back from the host's ref, the work comes out" \
    jqe '.error == null and .commits[0].subject == "kept"' \
    "$T/gone-back.json"

# Tags the agent made stay behind; an author and a subject with control
# characters are shown escaped, never raw; a file staged and then
# deleted is no work.
fresh marks
commit_base
code marks "$r"
in_sp "$sp" "echo t >t.txt && git add t.txt &&
    GIT_AUTHOR_NAME=\"\$(printf 'Ev\\033[31mil\\rX')\" git $G commit -qm \
    \"\$(printf 'subj \\033]0;title\\007')\" && git tag light &&
    git $G tag -a -m ann ann && echo s >s.txt && git add s.txt &&
    rm s.txt" >/dev/null 2>&1
review marks "$r"
check "tags stay behind; control characters escaped, never raw" jqe \
    '.error == null and ([.commits[] | .author] ==
    ["Ev\\x1b[31mil\\x0dX <agent@example.invalid>"]) and
    ([.paths[] | .path] == ["t.txt"])' "$T/marks.json"
sc review "$id" "$r" >"$T/marks.txt" 2>&1
check "  the text form holds no control character" sh -c \
    "grep -q 'Ev.x1b.31mil.x0dX' '$T/marks.txt' &&
    ! grep -q \"\$(printf '[\\033\\r\\007]')\" '$T/marks.txt'"

# A repository the agent made inside (git init in a folder): its
# gitlink is never allowed; the refusal said only "a reason the request
# does not allow is flagged", not that no --allow helps nor what to do.
fresh nest
commit_base
code nest "$r"
in_sp "$sp" "mkdir inner && git -C inner init -q && echo i >inner/i &&
    git -C inner add i && git -C inner $G commit -qm i && echo t >t.txt" \
    >/dev/null 2>&1
review nest "$r"
check "a repository the agent made inside: named (gitlink inner)" \
    flagged nest gitlink inner
snap "$r"
sc -j apply "$id" "$r" >"$T/nest-b.json" 2>&1
check "  apply refused: no --allow helps, and what to do" jqe '.error ==
    "code_out_refused" and (.message | test("[(]flagged: gitlink[)]: " +
    "no --allow lets gitlink through.*remove its [.]git"))' \
    "$T/nest-b.json"
check "  the user's repository unchanged" unchanged "$r"
in_sp "$sp" "rm -rf inner/.git" >/dev/null 2>&1
review nest-ok "$r"
sc -j apply "$id" "$r" >"$T/nest-ok.json" 2>&1
check "  control: its .git removed and reviewed as said, the work lands" sh -c \
    "git -C '$r' cat-file -e spaced/shapes:inner/i 2>/dev/null"

# Another git's index.lock (running, or crashed): apply -w wrote the
# work tree, then failed on the lock (git_command_failed), the work tree
# changed by a failed apply.
: >"$r/.git/index.lock"
snap "$r"
sc -j apply "$id" "$r" -w >"$T/lock-w.json" 2>&1
check "-w beside another git's index.lock: not_clean, the lock named" \
    jqe '.error == "not_clean" and (.message | test("index[.]lock exists"))' \
    "$T/lock-w.json"
check "  the user's repository unchanged" unchanged "$r"
rm -f "$r/.git/index.lock"
sc -j apply "$id" "$r" -w >"$T/lock-ok.json" 2>&1
check "  control: the lock gone, -w lands" sh -c \
    "test -f '$r/inner/i' && test -f '$r/t.txt'"

# A branch name git cannot make beside another (a name and a folder of
# names): named, which was libgit2's lock error (git_command_failed);
# -b with an empty name said bad_request alone.
r=$T/marks
sc -j apply "$id" "$r" -b spaced/marks >"$T/clash0.json" 2>&1
check "control: apply -b spaced/marks" jqe '.created == true' \
    "$T/clash0.json"
snap "$r"
sc -j apply "$id" "$r" -b spaced/marks/more >"$T/clash1.json" 2>&1
check "a branch below a branch: invalid_branch, the other named" jqe \
    '.error == "invalid_branch" and (.message |
    test("beside refs/heads/spaced/marks .*-b NAME"))' "$T/clash1.json"
sc -j apply "$id" "$r" -b spaced >"$T/clash2.json" 2>&1
check "  a branch above one: named too" jqe '.error == "invalid_branch"
    and (.message | test("beside refs/heads/spaced/marks"))' \
    "$T/clash2.json"
sc -j apply "$id" "$r" -b '' >"$T/clash3.json" 2>&1
check "  an empty name: invalid_branch" jqe '.error == "invalid_branch"' \
    "$T/clash3.json"
check "  the user's repository unchanged" unchanged "$r"
hg -C "$r" branch -q -D spaced/marks
# A branch's own lock (another git, or a crashed one): libgit2's text
# ended in an empty errno ("failed to lock file ... for writing: ").
mkdir -p "$r/.git/refs/heads/spaced" && : >"$r/.git/refs/heads/spaced/locked.lock"
snap "$r"
sc -j apply "$id" "$r" -b spaced/locked >"$T/reflock.json" 2>&1
check "a branch locked by another git: named, and what to do" jqe \
    '.message | test("refs/heads/spaced/locked is locked: .*remove it")' \
    "$T/reflock.json"
check "  the user's repository unchanged" unchanged "$r"
rm -f "$r/.git/refs/heads/spaced/locked.lock"
sc -j apply "$id" "$r" -b spaced/marks/more >"$T/clash4.json" 2>&1
check "  control: spaced/marks deleted by the user, the name below lands" \
    jqe '.created == true' "$T/clash4.json"

# A sparse index (index.sparse): libgit2 reads none, which was
# git_command_failed "unsupported mandatory extension: 'sdir'".
fresh spidx
mkdir -p "$r/out" && echo o >"$r/out/o.txt"
commit_base
git -C "$r" sparse-checkout init --cone --sparse-index
git -C "$r" sparse-checkout set b
check "control: the index is sparse (a folder as one entry)" sh -c \
    "git -C '$r' ls-files --sparse | grep -qx 'out/'"
snap "$r"
sc -j code-in "$id" "$r" >"$T/spidx.json" 2>&1
check "a sparse index: unsupported_index_format, and what to run" jqe \
    '.error == "unsupported_index_format" and (.message |
    test("sparse-checkout reapply --no-sparse-index"))' "$T/spidx.json"
check "  the user's repository unchanged" unchanged "$r"
git -C "$r" sparse-checkout reapply --no-sparse-index
code spidx "$r"
check "  control: after what it says, code in works" in_sp "$sp" \
    "test -f b/c.txt"
# Sparse again by the time of apply: -w said not_clean ("the status
# cannot be read"); a branch needs no index.
in_sp "$sp" "echo n >b/n.txt && git add b/n.txt && git $G commit -qm n" \
    >/dev/null 2>&1
git -C "$r" sparse-checkout reapply --sparse-index
snap "$r"
sc -j apply "$id" "$r" -w >"$T/spidx-w.json" 2>&1
check "  -w on a sparse index: not_a_git_work_tree, apply to a branch" \
    jqe '.error == "not_a_git_work_tree" and (.message |
    test("index is sparse.*apply to a branch"))' "$T/spidx-w.json"
check "  the user's repository unchanged" unchanged "$r"
sc -j apply "$id" "$r" -b spaced/spidx >"$T/spidx-b.json" 2>&1
check "  control: -b lands" jqe '.created == true' "$T/spidx-b.json"

# DIR in the git directory: its path below the top was nonsense (a
# git directory whose core.worktree is elsewhere failed in libgit2).
snap "$r"
sc -j code-in "$id" "$r/.git/refs" >"$T/indir.json" 2>&1
check "code in of a folder in .git: not_a_git_work_tree, the top named" \
    jqe --arg t "$r" '.error == "not_a_git_work_tree" and (.message |
    contains("bring in its work tree " + $t))' "$T/indir.json"
check "  the user's repository unchanged" unchanged "$r"
git init -q -b main --bare "$T/cw.git"
mkdir "$T/cwtree" && echo w >"$T/cwtree/w.txt"
git -C "$T/cw.git" config core.bare false
git -C "$T/cw.git" config core.worktree "$T/cwtree"
git --git-dir="$T/cw.git" add w.txt
git --git-dir="$T/cw.git" $U commit -qm base
snap "$T/cw.git"
sc -j code-in "$id" "$T/cw.git" >"$T/cw.json" 2>&1
check "a git directory whose core.worktree is elsewhere: named, and how" \
    jqe '.error == "not_a_git_work_tree" and (.message |
    test("core.worktree.*gitdir: "))' "$T/cw.json"
check "  the user's repository unchanged" unchanged "$T/cw.git"
echo "gitdir: $T/cw.git" >"$T/cwtree/.git"
code cwtree "$T/cwtree"
check "  control: with the .git it says, code in works" in_sp "$sp" \
    "test -f w.txt && test -z \"\$(git status --porcelain)\""

sc remove "$id" >/dev/null
finish
