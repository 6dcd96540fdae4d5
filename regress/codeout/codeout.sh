#!/bin/sh
# Code out through spaced, end to end, against the real engine, in a
# real space: spacectl review runs the fixed script inside, its pack
# and the owner's start stream into the space's quarantine (spaced-git
# as _spaced-quarantine, chrooted in its store), which checks them and
# computes the review.  The agent plants hooks, a filter and an
# fsmonitor for itself, the user's repository has hooks and an
# fsmonitor of its own: none runs (controls: plain git runs each).
# Each trick, in a commit or in uncommitted work, one at a time, is
# named; a plain git fetch from the space into a throwaway copy would
# have delivered it (the control).  Packs that lie are refused.
# Ordinary work comes back exact.  The quarantine cannot see the
# user's repository (control: its uid alone could read it).  The
# user's repository is unchanged throughout (regress/lib/repo_compare.c).
# Shapes a new user brings: a second apply after uncommitted work, a
# sparse checkout, a review at the top and an apply from a folder, a
# stopped space.
. "$(dirname "$0")/../contract/lib.sh"

RC=$build/regress/tools/repo-compare
same() { [ -n "$1" ] && [ "$1" = "$2" ]; }
jqe() { jq -e "$@" >/dev/null; }
# The test's own git on the user's repository: none of its hooks.
hg() { git -c core.hooksPath=/dev/null -c core.fsmonitor= "$@"; }
inside() { sc exec "$id" -- /bin/sh -c "cd '$sp' && $1"; }
G="-c user.name=Agent -c user.email=agent@example.invalid"

# The user's repository, with uncommitted work of the user's own: a
# new executable, which came in with the start and is not the agent's.
repo=$T/user
git init -q -b main "$repo"
(
cd "$repo" || exit 1
echo a >a.txt && printf '#!/bin/sh\n' >run.sh && chmod +x run.sh
mkdir lib && echo x >lib/x.c && echo gone >gone.txt
git add . && git -c user.name=u -c user.email=u@u.invalid commit -qm base
printf '#!/bin/sh\n' >usertool.sh && chmod +x usertool.sh
echo u >>a.txt
# The user's own hooks and fsmonitor: a host-side git command would
# run them and leave a marker.
for h in pre-commit post-commit post-checkout post-index-change \
    reference-transaction pre-auto-gc post-merge; do
	printf '#!/bin/sh\ntouch %s/HOST-RAN\n' "$T" >.git/hooks/$h
	chmod +x .git/hooks/$h
done
printf '#!/bin/sh\ntouch %s/HOST-RAN\n' "$T" >"$T/host-fsmon"
chmod +x "$T/host-fsmon"
git config core.fsmonitor "$T/host-fsmon"
)
cp -a "$repo" "$T/user-copy"
git -C "$T/user-copy" status >/dev/null 2>&1
check "control: git on a copy of the user's repository runs its fsmonitor" \
    test -e "$T/HOST-RAN"
rm -f "$T/HOST-RAN"
"$RC" snap "$repo" >"$T/rc.before"
id=$(sc create -n codeout 2>"$T/create.err")
check "a space" sh -c "printf %s '$id' | grep -Eqx '[0-9a-f]{12}'"
sc -j code-in "$id" "$repo" >"$T/ci.json" 2>"$T/ci.err"
sp=$(jq -r .spacePath "$T/ci.json")
base=$(jq -r .base "$T/ci.json")
start=$(jq -r .start "$T/ci.json")
check "code-in" test -n "$start" -a "$start" != null
CTR=spaced-space-$id-space
QS=$T/sd/state/quarantine/$id/store.git
SUID=$(sc exec "$id" -- id -u)

# out NAME: spacectl review, its JSON in $T/NAME.json (the error's on
# a refusal), its status in $T/NAME.rc.
out() {
	sc -j review "$id" "$repo" >"$T/$1.json" 2>"$T/$1.err"
	echo $? >"$T/$1.rc"
	jq -c '.error // .flags' "$T/$1.json" 2>/dev/null | cut -c1-300 |
	    sed "s/^/# $1: /"
}
# flagged NAME REASON PATH-ERE: the review names that entry.
flagged() {
	jq -e --arg r "$2" --arg p "^$3\$" \
	    '[.flags[] | select(.reason == $r and (.path | test($p)))] |
	    length > 0' "$T/$1.json" >/dev/null
}
# refused NAME CODE TEXT: the review failed with CODE, its message TEXT.
refused() {
	test "$(cat "$T/$1.rc")" != 0 &&
	jq -e --arg c "$2" --arg m "$3" '.error == $c and
	    (.message | contains($m))' "$T/$1.json" >/dev/null
}
# control_fetch NAME PATH: the unsafe way (git fetch over ext:: through
# docker exec into a throwaway bare copy) delivers PATH at the tip.
control_fetch() {
	rm -rf "$T/copy" && git init -q --bare "$T/copy" &&
	git -C "$T/copy" -c protocol.ext.allow=always fetch -q --update-shallow \
	    "ext::docker exec -i -u $SUID $CTR %S $sp" +HEAD:refs/heads/got \
	    2>"$T/fetch.err" &&
	git -C "$T/copy" ls-tree -r -z --name-only refs/heads/got |
	    tr '\0' '\n' | grep -qxF -- "$2"
}
# reset: the space's repository back to the base, clean, no config of
# the agent's but what the test plants.
reset() {
	inside "git reset -q --hard $base && git clean -qffdx &&
	    git config --unset core.hooksPath; git config --unset
	    core.fsmonitor; git config --remove-section filter.evil;
	    rm -f .git/info/attributes /tmp/HOOK-RAN /tmp/FILTER-RAN
	    /tmp/FSMON-RAN; true" >/dev/null 2>&1
}

# The agent's own config: a hook for every event, an fsmonitor, a
# clean filter on every file.  None may run in code out.
reset
inside "mkdir -p /tmp/hooks && for h in pre-commit post-commit \
    post-index-change reference-transaction post-checkout pre-auto-gc; do
    printf '#!/bin/sh\ntouch /tmp/HOOK-RAN\n' >/tmp/hooks/\$h;
    chmod +x /tmp/hooks/\$h; done &&
    git config core.hooksPath /tmp/hooks &&
    printf '#!/bin/sh\ntouch /tmp/FSMON-RAN\n' >/tmp/fsmon &&
    chmod +x /tmp/fsmon && git config core.fsmonitor /tmp/fsmon &&
    git config filter.evil.clean 'touch /tmp/FILTER-RAN; cat' &&
    echo '* filter=evil' >.git/info/attributes &&
    echo work >>a.txt && git $G commit -qam 'agent work' &&
    echo more >>a.txt" >/dev/null 2>&1
check "control: the planted config is in place" \
    inside "test \"\$(git config core.hooksPath)\" = /tmp/hooks"
check "control: the agent's own commit ran its hook" \
    inside "test -e /tmp/HOOK-RAN"
inside "rm -f /tmp/HOOK-RAN /tmp/FILTER-RAN /tmp/FSMON-RAN"
out planted
check "review with the agent's hooks, filter and fsmonitor: clean" \
    jqe '.flags == []' "$T/planted.json"
check "no hook ran inside" inside "test ! -e /tmp/HOOK-RAN"
check "no filter ran inside" inside "test ! -e /tmp/FILTER-RAN"
check "no fsmonitor ran inside" inside "test ! -e /tmp/FSMON-RAN"
inside "git add -A && git $G commit -qm control" >/dev/null 2>&1
check "control: plain git inside runs the hook" inside "test -e /tmp/HOOK-RAN"
check "control: and the filter" inside "test -e /tmp/FILTER-RAN"
check "control: and the fsmonitor" inside "test -e /tmp/FSMON-RAN"
check "two commits came out: the agent's and the uncommitted work" \
    jqe '(.commits | length) == 2' "$T/planted.json"

# committed NAME REASON PATH ENTRY: a commit on the base whose tree adds
# ENTRY (ls-tree format, %s the blob) made with the agent's plumbing.
committed() {
	reset
	inside "B=\$(printf '$5' | git hash-object -w --stdin) &&
	    T=\$( (git ls-tree HEAD; printf '$4\n' \$B) | git mktree --missing) &&
	    C=\$(git $G commit-tree -p HEAD -m trick \$T) &&
	    git update-ref HEAD \$C" >/dev/null 2>&1
	lit=$(printf "$4x" 0 | cut -f2)
	check "control: a fetch from the space delivers $1" \
	    control_fetch "$1" "${lit%x}"
	out "$1"
	check "$1: named ($2 $3)" flagged "$1" "$2" "$3"
}
committed dotgit-upper dotgit '\.GIT' '100644 blob %s\t.GIT' 'x'
committed dotgit-short dotgit 'GIT~1' '100644 blob %s\tGIT~1' 'x'
committed dotgit-ntfs dotgit '\.git\. ' '100644 blob %s\t.git. ' 'x'
committed dotgit-hfs dotgit '\.g\\u\{200c\}it' \
    '100644 blob %s\t.g\342\200\214it' 'x'
committed dotdot dotdot '\.\.' '100644 blob %s\t..' 'x'
committed link-out symlink_escape 'out' '120000 blob %s\tout' '../../../etc'
committed link-git symlink_git 'hooks' '120000 blob %s\thooks' '.git/hooks'
committed gitlink gitlink 'sub' "160000 commit $base\tsub" 'x'
committed gitmodules gitmodules '\.gitmodules' '100644 blob %s\t.gitmodules' 'x'
committed attributes attributes_driver '\.gitattributes' \
    '100644 blob %s\t.gitattributes' '* filter=x'
committed exec new_executable 'tool' '100755 blob %s\ttool' 'x'

# uncommitted NAME REASON PATH SETUP: the same in the work tree only.
uncommitted() {
	reset
	inside "$4" >/dev/null 2>&1
	check "control: the work tree holds $1 (a copy of it would too)" \
	    docker exec "$CTR" sh -c "cd '$sp' && ls -d -- $3 >/dev/null"
	out "$1"
	check "$1 (uncommitted): named ($2)" flagged "$1" "$2" "$3"
}
uncommitted u-link-out symlink_escape 'out' 'ln -s ../../../etc out'
uncommitted u-link-git symlink_git 'hooks' 'ln -s .git/hooks hooks'
uncommitted u-exec new_executable 'tool' 'echo x >tool && chmod +x tool'
uncommitted u-attributes attributes_driver '.gitattributes' \
    "echo '* diff=x' >.gitattributes"
uncommitted u-gitlink gitlink 'sub' \
    "git init -q sub && cd sub && git $G commit -q --allow-empty -m s"
# git itself will not add a path it reads as .git: nothing comes out.
reset
inside "mkdir .GIT && echo x >.GIT/config" >/dev/null 2>&1
check "control: the work tree holds .GIT/config (a copy would take it)" \
    docker exec "$CTR" test -f "$sp/.GIT/config"
out u-dotgit
check ".GIT in the work tree: refused, nothing came out" \
    refused u-dotgit code_out_refused "a path git reads as .git"

# Packs that lie: a commit that does not descend from the start.
reset
inside "C=\$(git $G commit-tree -m root \$(git rev-parse HEAD^{tree})) &&
    git update-ref HEAD \$C" >/dev/null 2>&1
out root
check "a commit of another history: refused" \
    refused root code_out_refused "a commit that does not descend from the start"
check "  and says what to do" \
    refused root code_out_refused "rebase the work onto refs/spaced/base"

U=$(printf '\303\274')	# a u with two dots, in UTF-8
# Ordinary work comes back exact (an executable bit taken away and a
# link inside the tree are no reason to flag).
reset
inside "echo edit >>a.txt && git rm -q gone.txt && git mv lib/x.c lib/y.c &&
    chmod -x run.sh && ln -s a.txt link &&
    mkdir -p 'dir with space' && echo u >'dir with space/$U n.txt' &&
    head -c 100000 /dev/urandom >blob.bin && git add -A &&
    git -c user.name=First -c user.email=first@example.invalid commit -qm one &&
    echo two >>a.txt && git -c user.name=Second \
    -c user.email=second@example.invalid commit -qam two &&
    echo three >>a.txt && echo new >new.txt" >/dev/null 2>&1
out ordinary
check "ordinary work: clean" jqe '.flags == []' "$T/ordinary.json"
tip=$(jq -r .tip "$T/ordinary.json")
inside "git add -A && git $G commit -qm all && git ls-tree -r HEAD" 2>/dev/null \
    >"$T/inside.tree"
git -c safe.directory="*" -C "$QS" ls-tree -r "$tip" >"$T/out.tree"
check "the tree that came out is the work tree, entry for entry" \
    cmp -s "$T/inside.tree" "$T/out.tree"
check "the authors and messages came with it" jqe '[.commits[] |
    .author + " " + .subject] == ["spaced <code-out@spaced.invalid> spaced: uncommitted work",
    "Second <second@example.invalid> two", "First <first@example.invalid> one"]' \
    "$T/ordinary.json"
jq -c '[.paths[] | .status + " " + .path]' "$T/ordinary.json" | sed 's/^/# /'
check "the paths with their status and size" jqe '[.paths[] |
    .status + " " + .path] | (index("D gone.txt") != null) and
    (index("R lib/y.c") != null) and (index("A blob.bin") != null) and
    (index("A link") != null) and (index("M run.sh") != null) and
    (index("A dir with space/\u00fc n.txt") != null)' "$T/ordinary.json"
check "a new file's size" jqe '.paths[] | select(.path == "blob.bin") |
    .size == 100000' "$T/ordinary.json"
check "the rename names where it came from" jqe '.paths[] |
    select(.path == "lib/y.c") | .from == "lib/x.c"' "$T/ordinary.json"
sc -j review -p "$id" >"$T/patch.json" 2>"$T/patch.err"
check "review without DIR (from where code in came) and -p: the patch" \
    jqe '(.patch | contains("+three")) and (.patch | contains("+two"))' \
    "$T/patch.json"
sc review -p "$id" "$repo" >"$T/patch.txt" 2>&1
check "the text form names the commits, paths and the patch" sh -c \
    "grep -q '^commit [0-9a-f]\{40\} Second <second@example.invalid>' '$T/patch.txt' &&
    grep -q '^R .* lib/y.c (from lib/x.c)' '$T/patch.txt' &&
    grep -q '^+three' '$T/patch.txt'"

# The quarantine's process: its own uid, its root its store; the
# user's repository is not in its world (control: that uid alone,
# outside the chroot, could read it).  It idles for a while after.
# It lives while a review runs: the script inside hashes 200 MB of
# zeros first, and a watcher looks at every quarantine process.
QDIR=$T/sd/state/quarantine/$id
inside "head -c 200000000 /dev/zero >zeros" >/dev/null 2>&1
(
	# Until the review is over (at most a minute: a hang guard).
	end=$(($(date +%s) + 60))
	while [ "$(date +%s)" -lt "$end" ] && [ ! -e "$T/watched.done" ]; do
		for p in $(pgrep -u _spaced-quarantine -x spaced-git); do
			[ "$(readlink "/proc/$p/root")" = "$QDIR" ] || continue
			grep '^CapEff:' "/proc/$p/status" >"$T/qcap"
			test -e "/proc/$p/root$repo/.git/HEAD" &&
			    echo seen >"$T/qseen"
			ls "/proc/$p/root/" >"$T/qls"
			echo "$p" >"$T/qpid"
			exit 0
		done
		sleep 0.01
	done
) &
watcher=$!
out watched
touch "$T/watched.done"
wait $watcher
inside "rm -f zeros" >/dev/null 2>&1
# The apply below lands what a review showed: the work without zeros.
out rereviewed
check "the quarantine runs as _spaced-quarantine, its root the space's quarantine folder" \
    test -s "$T/qpid"
check "and holds no capability" grep -qx 'CapEff:	0000000000000000' "$T/qcap"
check "its world is its store alone" test "$(cat "$T/qls")" = store.git
check "control: the quarantine's uid could read the repository unconfined" \
    setpriv --reuid=_spaced-quarantine --regid=_spaced-quarantine \
    --clear-groups cat "$repo/.git/HEAD"
check "through its root the repository is not there" \
    test -s "$T/qpid" -a ! -e "$T/qseen"
check "control: the repository is there on the host" test -e "$repo/.git/HEAD"
check "no host-side hook or fsmonitor of the user's ran" test ! -e "$T/HOST-RAN"

"$RC" snap "$repo" >"$T/rc.after"
check "the user's repository is unchanged" \
    "$RC" diff "$T/rc.before" "$T/rc.after" "$id"
# apply -b (the default: spaced/<name>): the checked work becomes a
# branch; HEAD, the index, the work tree and the config stay.
hg -C "$repo" status --porcelain >"$T/status.before"
head_before=$(git -C "$repo" rev-parse HEAD)
sc -j apply "$id" "$repo" >"$T/apply1.json" 2>&1
check "apply: the branch spaced/codeout is created" \
    jqe '.created == true and .branch == "refs/heads/spaced/codeout"' \
    "$T/apply1.json"
tip1=$(jq -r .new "$T/apply1.json")
check "at the tip the review named" test "$(git -C "$repo" rev-parse \
    refs/heads/spaced/codeout)" = "$tip1"
inside "git ls-tree -r HEAD" >"$T/inside1.tree" 2>/dev/null
git -C "$repo" ls-tree -r spaced/codeout >"$T/branch1.tree"
check "the branch's tree is the space's, entry for entry" \
    cmp -s "$T/inside1.tree" "$T/branch1.tree"
check "its commits keep their authors" sh -c "git -C '$repo' log \
    --format=%an spaced/codeout | grep -qx Second"
check "HEAD did not move" test "$(git -C "$repo" rev-parse HEAD)" = \
    "$head_before"
hg -C "$repo" status --porcelain >"$T/status.after"
check "the index and work tree are as they were" \
    cmp -s "$T/status.before" "$T/status.after"
check "no host-side hook or fsmonitor ran in apply" test ! -e "$T/HOST-RAN"
# A second apply brings only what is new.
inside "echo later >>a.txt && git $G commit -qam later" >/dev/null 2>&1
sc -j apply "$id" "$repo" >"$T/apply2.json" 2>&1
check "a second apply fast-forwards the branch" jqe \
    '.created == false and .old != null' "$T/apply2.json"
check "with only the new work" jqe '.objects < 10' "$T/apply2.json"
check "the branch is at the space's HEAD" test "$(git -C "$repo" \
    rev-parse spaced/codeout)" = "$(inside 'git rev-parse HEAD' 2>/dev/null)"
# A branch that moved elsewhere is refused, never forced.
git -C "$repo" -c user.name=u -c user.email=u@u.invalid commit-tree \
    -p spaced/codeout -m elsewhere "$(git -C "$repo" rev-parse \
    spaced/codeout^{tree})" >"$T/elsewhere"
hg -C "$repo" update-ref refs/heads/spaced/codeout "$(cat "$T/elsewhere")"
inside "echo again >>a.txt && git $G commit -qam again" >/dev/null 2>&1
"$RC" snap "$repo" >"$T/rc.moved.before"
sc -j apply "$id" "$repo" >"$T/moved.json" 2>&1
check "a branch moved elsewhere: refused (branch_moved)" \
    jqe '.error == "branch_moved"' "$T/moved.json"
"$RC" snap "$repo" >"$T/rc.moved.after"
check "and the repository is unchanged" \
    "$RC" diff "$T/rc.moved.before" "$T/rc.moved.after" "$id"
# -w where the work tree is not clean: refused, nothing changes.
sc -j apply "$id" "$repo" -w >"$T/dirty.json" 2>&1
check "-w on a work tree that is not clean: refused (not_clean)" \
    jqe '.error == "not_clean"' "$T/dirty.json"
"$RC" snap "$repo" >"$T/rc.dirty.after"
check "and the repository is unchanged" \
    "$RC" diff "$T/rc.moved.before" "$T/rc.dirty.after" "$id"
# A flag not allowed refuses the apply; allowed by name, it goes.
inside "echo x >tool2 && chmod +x tool2 && git add tool2 &&
    git $G commit -qm tool" >/dev/null 2>&1
sc -j apply "$id" "$repo" -b spaced/exec >"$T/flag.json" 2>&1
check "apply of a flagged entry not allowed: refused" \
    jqe '.error == "code_out_refused"' "$T/flag.json"
check "  its message names the flag" \
    jqe '.message | test("flagged: new_executable")' "$T/flag.json"
check "  and how to allow it after a look" jqe '.message |
    test("review -p, then apply with --allow new_executable$")' "$T/flag.json"
check "and no branch was made" test -z "$(git -C "$repo" for-each-ref \
    refs/heads/spaced/exec)"
sc -j apply "$id" "$repo" -b spaced/exec --allow new_executable \
    >"$T/allowed.json" 2>&1
check "--allow new_executable: applied" jqe '.created == true' \
    "$T/allowed.json"
sc -j apply "$id" "$repo" -b spaced/x --allow dotgit >"$T/never.json" 2>&1
check "--allow of a never-allowed reason: refused" \
    jqe '.error != null' "$T/never.json"

# -w on a second repository, clean, with HEAD at the base: the change
# lands staged and uncommitted.
repo2=$T/user2
git init -q -b main "$repo2"
echo one >"$repo2/one.txt"
git -C "$repo2" add one.txt
git -C "$repo2" -c user.name=u -c user.email=u@u.invalid commit -qm base
sc -j code-in "$id" "$repo2" >"$T/ci2.json" 2>"$T/ci2.err"
sp2=$(jq -r .spacePath "$T/ci2.json")
sc exec "$id" -- /bin/sh -c "cd '$sp2' && echo two >>one.txt &&
    echo new >'new file.txt' && git $G commit -qam w && echo more >more.txt" \
    >/dev/null 2>&1
base2=$(git -C "$repo2" rev-parse HEAD)
sc -j apply "$id" "$repo2" -w >"$T/w.json" 2>&1
check "-w on a clean repository: applied" jqe '.mode == "worktree"' \
    "$T/w.json"
check "HEAD stays the base" test "$(git -C "$repo2" rev-parse HEAD)" = \
    "$base2"
check "the change is staged and uncommitted" sh -c "git -C '$repo2' \
    diff --cached --name-status | tr '\t' ' ' | sort | tr '\n' '|' |
    grep -qx 'A more.txt|A new file.txt|M one.txt|'"
check "the work tree holds it" sh -c "grep -qx two '$repo2/one.txt' &&
    test -f '$repo2/more.txt'"

# A code-in is shallow at HEAD: with a HEAD that has a parent (the
# space lacks it), uncommitted work still comes out.  The script's
# first form read HEAD's date through git log, which walks to the
# missing parent: every review failed with the script's exit 128.
repo4=$T/user4
git init -q -b main "$repo4"
echo one >"$repo4/one.txt"
git -C "$repo4" add one.txt
git -C "$repo4" -c user.name=u -c user.email=u@u.invalid commit -qm first
echo two >>"$repo4/one.txt"
git -C "$repo4" -c user.name=u -c user.email=u@u.invalid commit -qam second
sc -j code-in "$id" "$repo4" >"$T/ci4.json" 2>"$T/ci4.err"
sp4=$(jq -r .spacePath "$T/ci4.json")
check "a shallow code-in: the space lacks HEAD's parent (control)" \
    sc exec "$id" -- /bin/sh -c "cd '$sp4' && test -s .git/shallow &&
    ! git cat-file -e HEAD~1 2>/dev/null"
sc -j review "$id" "$repo4" >"$T/shallow0.json" 2>&1
check "a shallow code-in with no work: none (the script exited 128)" \
    jqe '.commits == [] and .paths == [] and .error == null' \
    "$T/shallow0.json"
sc exec "$id" -- /bin/sh -c "cd '$sp4' && echo left >left.txt" >/dev/null
sc -j review "$id" "$repo4" >"$T/shallow.json" 2>&1
check "a shallow code-in: its uncommitted work comes out" \
    jqe '[.paths[]? | .path] == ["left.txt"]' "$T/shallow.json"
# A reset past the start (history brought in first): said so, not "no
# work" (it was 0 commits, and apply made a branch of the start).
sc history "$id" "$repo4" >/dev/null 2>&1
sc exec "$id" -- /bin/sh -c "cd '$sp4' && rm left.txt &&
    git reset -q --hard HEAD~1" >/dev/null 2>&1
sc -j review "$id" "$repo4" >"$T/behind.json" 2>&1
check "the space's HEAD reset behind the start: refused, named" \
    jqe '.error == "code_out_refused" and
    (.message | test("behind the start"))' "$T/behind.json"
sc exec "$id" -- /bin/sh -c "cd '$sp4' && git checkout -q --orphan none" \
    >/dev/null 2>&1
sc -j review "$id" "$repo4" >"$T/orphan.json" 2>&1
check "an orphan branch checked out: refused, named (it was exit 128)" \
    jqe '.error == "code_out_refused" and
    (.message | test("HEAD names no commit"))' "$T/orphan.json"

# The user's own uncommitted change in a folder, brought in as the
# start's snapshot, and the agent's work beside it: the user's objects
# do not go out again (they did: the quarantine refused the review, an
# object the new commits do not reach).
repo5=$T/user5
git init -q -b main "$repo5"
mkdir -p "$repo5/sub/deep"
echo a >"$repo5/sub/deep/a"
git -C "$repo5" add -A
git -C "$repo5" -c user.name=u -c user.email=u@u.invalid commit -qm one
echo mine >>"$repo5/sub/deep/a"
sc -j code-in "$id" "$repo5" >"$T/ci5.json" 2>"$T/ci5.err"
sp5=$(jq -r .spacePath "$T/ci5.json")
check "a code-in with the user's change in a folder: start is a snapshot (control)" \
    test "$(jq -r .start "$T/ci5.json")" != "$(jq -r .base "$T/ci5.json")"
sc exec "$id" -- /bin/sh -c "cd '$sp5' && echo new >new.txt" >/dev/null
sc -j review "$id" "$repo5" >"$T/snapdir.json" 2>&1
check "  the agent's work beside it comes out, the user's change not again" \
    jqe '[.paths[]? | .path] == ["new.txt"]' "$T/snapdir.json"

# A second apply after the first took uncommitted work: the agent then
# committed that work its own way, which cannot descend from spaced's
# commit of it.  The branch moves off spaced's commit (it was refused,
# branch_moved, on every second apply after uncommitted work); the
# user's own commit there is never moved.
repo6=$T/user6
git init -q -b main "$repo6"
mkdir -p "$repo6/pkg/src"
echo one >"$repo6/pkg/src/one.txt"
git -C "$repo6" add -A
git -C "$repo6" -c user.name=u -c user.email=u@u.invalid commit -qm base
sc -j code-in "$id" "$repo6" >"$T/ci6.json" 2>"$T/ci6.err"
sp6=$(jq -r .spacePath "$T/ci6.json")
in6() { sc exec "$id" -- /bin/sh -c "cd '$sp6' && $1" >/dev/null 2>&1; }
in6 "echo a >>pkg/src/one.txt && git $G commit -qam first && echo u >u.txt"
sc -j apply "$id" "$repo6" -b spaced/twice >"$T/twice1.json" 2>&1
check "control: a first apply takes the uncommitted work as spaced's commit" \
    sh -c "git -C '$repo6' log -1 --format=%an%s spaced/twice |
    grep -qx 'spacedspaced: uncommitted work'"
in6 "git add u.txt && git $G commit -qm 'u, committed'"
sc -j apply "$id" "$repo6" -b spaced/twice >"$T/twice2.json" 2>&1
check "a second apply after uncommitted work: the branch moves off spaced's commit" \
    jqe '.replaced == true and .error == null' "$T/twice2.json"
check "  to the agent's commit of it" sh -c "test \"\$(git -C '$repo6' \
    log -1 --format=%s spaced/twice)\" = 'u, committed' &&
    git -C '$repo6' show spaced/twice:u.txt | grep -qx u"
sc apply "$id" "$repo6" -b spaced/twice >"$T/twice2.txt" 2>&1
check "  the text names it (the next apply: already there)" \
    grep -q 'already at' "$T/twice2.txt"
in6 "echo v >v.txt"
sc -j apply "$id" "$repo6" -b spaced/twice >/dev/null 2>&1
hg -C "$repo6" update-ref refs/heads/spaced/twice "$(git -C "$repo6" \
    -c user.name=u -c user.email=u@u.invalid commit-tree -p spaced/twice \
    -m mine spaced/twice^{tree})"
in6 "git add v.txt && git $G commit -qm 'v, committed'"
"$RC" snap "$repo6" >"$T/rc6.before"
sc apply "$id" "$repo6" -b spaced/twice >"$T/twice-mine.txt" 2>&1
check "the user's commit on spaced's: refused, and says what to do" \
    grep -q '^spacectl: branch_moved: .*apply to another branch (-b NAME)' \
    "$T/twice-mine.txt"
"$RC" snap "$repo6" >"$T/rc6.after"
check "  and the repository is unchanged" \
    "$RC" diff "$T/rc6.before" "$T/rc6.after" "$id"
# A review at the repository's top serves an apply from a folder of it
# (the DIR was the key: the apply took the space's later work).
in6 "echo reviewed >w.txt"
sc -j review "$id" "$repo6" >"$T/top.json" 2>&1
in6 "echo later >w.txt"
sc -j apply "$id" "$repo6/pkg/src" -b spaced/sub >"$T/sub.json" 2>&1
check "review at the top, apply from a folder: the reviewed tip" \
    jqe --arg t "$(jq -r .tip "$T/top.json")" '.from == "review" and
    .new == $t' "$T/sub.json"
check "  holds the reviewed work" sh -c "git -C '$repo6' show \
    spaced/sub:w.txt | grep -qx reviewed"
# The user committed on the host branch since code in: -b still works,
# -w says HEAD moved and offers a branch; the repository as it was.
echo host >"$repo6/host.txt"
git -C "$repo6" add host.txt
git -C "$repo6" -c user.name=u -c user.email=u@u.invalid commit -qm host
sc -j apply "$id" "$repo6" -b spaced/after-host >"$T/after-host.json" 2>&1
check "the user committed on the host since: apply -b still lands" \
    jqe '.created == true' "$T/after-host.json"
"$RC" snap "$repo6" >"$T/rc6w.before"
sc apply "$id" "$repo6" -w >"$T/after-host-w.txt" 2>&1
check "  -w refused: HEAD moved, apply to a branch" grep -q \
    '^spacectl: head_moved: .*apply to a branch' "$T/after-host-w.txt"
"$RC" snap "$repo6" >"$T/rc6w.after"
check "  and the repository is unchanged" \
    "$RC" diff "$T/rc6w.before" "$T/rc6w.after" "$id"
# A space that is stopped: review says so and what to do.
sc stop "$id" >/dev/null 2>&1
sc -j review "$id" "$repo6" >"$T/stopped.json" 2>&1
check "review of a stopped space: space_not_running, start it" jqe \
    '.error == "space_not_running" and (.message | test("spacectl start"))' \
    "$T/stopped.json"
sc start "$id" >/dev/null 2>&1
check "control: started again, the review works" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' review '$id' '$repo6' \
    >/dev/null 2>&1"

# A repository another user owns, applied by root: as its owner.
chown -R 65534:65534 "$repo6"
sc -j apply "$id" "$repo6" -b spaced/owned >"$T/owned.json" 2>&1
check "a repository of uid 65534 applied by root: the branch is its owner's" \
    sh -c "jq -e '.created == true' '$T/owned.json' >/dev/null &&
    test -z \"\$(find '$repo6/.git' ! -user 65534 | head -n 1)\""

# A sparse checkout: the files outside it are not the user's deletions.
# The start lacked them (libgit2 recorded them deleted), the agent's
# commit -a deleted them inside, the review against the start did not
# show it, and apply -b made a branch without them.
repo7=$T/user7
git init -q -b main "$repo7"
mkdir -p "$repo7/in" "$repo7/out"
echo a >"$repo7/in/a" && echo b >"$repo7/out/b"
git -C "$repo7" add -A
git -C "$repo7" -c user.name=u -c user.email=u@u.invalid commit -qm base
git -C "$repo7" sparse-checkout set in
check "control: a sparse checkout, out/b not in the work tree" \
    test ! -e "$repo7/out/b"
sc -j code-in "$id" "$repo7" >"$T/ci7.json" 2>"$T/ci7.err"
sp7=$(jq -r .spacePath "$T/ci7.json")
sc exec "$id" -- /bin/sh -c "cd '$sp7' && echo x >>in/a &&
    git $G commit -qam agent && echo n >in/new" >/dev/null 2>&1
sc -j apply "$id" "$repo7" -b spaced/sparse >"$T/sparse.json" 2>&1
check "a sparse checkout's apply -b keeps what is outside it" sh -c \
    "git -C '$repo7' ls-tree -r --name-only spaced/sparse | tr '\n' ' ' |
    grep -qx 'in/a in/new out/b '"
"$RC" snap "$repo7" >"$T/rc7.before"
sc apply "$id" "$repo7" -w >"$T/sparse-w.txt" 2>&1
check "-w on a sparse checkout: refused by name, -b offered" grep -q \
    '^spacectl: not_a_git_work_tree: out/b is marked skip-worktree (a sparse checkout.*apply to a branch' \
    "$T/sparse-w.txt"
"$RC" snap "$repo7" >"$T/rc7.after"
check "  and the repository is unchanged" \
    "$RC" diff "$T/rc7.before" "$T/rc7.after" "$id"

# apply after a review lands exactly the reviewed tip, from the store
# the review left, without asking the space again: the agent's work
# after the review is not taken.  A refused apply leaves the review
# kept; the one that lands uses it, and the next apply takes the
# space's work as it is now (the positive control: that way brings
# the later change).
inside "echo kept >kept.txt" >/dev/null 2>&1
sc -j review "$id" "$repo" >"$T/kept.json" 2>&1
kept_tip=$(jq -r .tip "$T/kept.json")
ino1=$(stat -c '%i %y' "$QDIR/store.git/spaced-kept" 2>/dev/null)
sc -j apply "$id" "$repo" -b spaced/kept >"$T/kept-flag.json" 2>&1
check "apply after a review, a flag not allowed: refused, named" \
    jqe '.error == "code_out_refused" and
    (.message | test("flagged: new_executable"))' "$T/kept-flag.json"
inside "echo later >kept.txt" >/dev/null 2>&1
sc -j apply "$id" "$repo" -b spaced/kept --allow new_executable \
    >"$T/kept-apply.json" 2>&1
ino2=$(stat -c '%i %y' "$QDIR/store.git/spaced-kept" 2>/dev/null)
check "apply after a review: at the reviewed tip, said so" \
    jqe --arg t "$kept_tip" '.new == $t and .from == "review"' \
    "$T/kept-apply.json"
check "  the reviewed work, not the agent's later change" sh -c \
    "git -C '$repo' show spaced/kept:kept.txt | grep -qx kept"
check "  from the store the review left (its record not made again)" \
    test -n "$ino1" -a "$ino1" = "$ino2"
sc apply "$id" "$repo" -b spaced/moved --allow new_executable \
    >"$T/moved-apply.txt" 2>&1
ino3=$(stat -c '%i %y' "$QDIR/store.git/spaced-kept" 2>/dev/null)
check "control: the review used, the next apply takes the later change" \
    sh -c "git -C '$repo' show spaced/moved:kept.txt | grep -qx later"
check "  and says so" grep -q "the space's work as it is now" \
    "$T/moved-apply.txt"
check "  by the whole way (the record made again)" \
    test -n "$ino3" -a "$ino3" != "$ino2"
check "  which names the new tip" sh -c "cut -d' ' -f3 \
    '$QDIR/store.git/spaced-kept' | grep -qx \"\$(git -C '$repo' \
    rev-parse spaced/moved)\""
# The text form names the reviewed tip.
inside "echo third >kept.txt" >/dev/null 2>&1
sc -j review "$id" "$repo" >"$T/third.json" 2>&1
inside "echo fourth >kept.txt" >/dev/null 2>&1
sc apply "$id" "$repo" -b spaced/third --allow new_executable \
    >"$T/third-apply.txt" 2>&1
check "the text form names the reviewed tip" grep -qx "tip $(jq -r .tip \
    "$T/third.json"): the one the review showed (later work in the space was not taken)" \
    "$T/third-apply.txt"
# spaced's kept review and the quarantine's record apart (as a review
# cancelled after the quarantine's check leaves them): the record here
# names the start as its tip, written in place.  The apply fails and
# asks for a review; nothing lands.
inside "echo fifth >kept.txt" >/dev/null 2>&1
sc -j review "$id" "$repo" >"$T/fifth.json" 2>&1
rec=$(cat "$QDIR/store.git/spaced-kept" 2>/dev/null)
printf '%s\n' "$rec" | awk -v s="$start" '{ print $1, $2, s, $4 }' \
    >"$QDIR/store.git/spaced-kept"
check "control: the record now names another tip" sh -c "test \
    \"\$(cut -d' ' -f3 '$QDIR/store.git/spaced-kept')\" = '$start' -a \
    \"\$(jq -r .tip '$T/fifth.json')\" != '$start'"
"$RC" snap "$repo" >"$T/rc.apart.before"
sc -j apply "$id" "$repo" -b spaced/apart --allow new_executable \
    >"$T/apart.json" 2>&1
check "a record apart from spaced's: refused, review again" \
    jqe '.error == "code_out_failed" and
    (.message | test("not the tip the review named.*review again"))' \
    "$T/apart.json"
"$RC" snap "$repo" >"$T/rc.apart.after"
check "  and the repository is unchanged" \
    "$RC" diff "$T/rc.apart.before" "$T/rc.apart.after" "$id"
sc -j apply "$id" "$repo" -b spaced/apart --allow new_executable \
    >"$T/apart2.json" 2>&1
check "  the next apply takes the whole way" jqe '.from == "space"' \
    "$T/apart2.json"
# A failed review between: the review before it is not used; the apply
# takes the space's work as it is now.
inside "echo sixth >kept.txt" >/dev/null 2>&1
sc -j review "$id" "$repo" >"$T/sixth.json" 2>&1
inside "mkdir -p .GIT && echo x >.GIT/config" >/dev/null 2>&1
sc -j review "$id" "$repo" >"$T/failed-between.json" 2>&1
check "control: the review between fails" jqe \
    '.error == "code_out_refused"' "$T/failed-between.json"
inside "rm -rf .GIT && echo seventh >kept.txt" >/dev/null 2>&1
sc -j apply "$id" "$repo" -b spaced/after-failed --allow new_executable \
    >"$T/after-failed.json" 2>&1
check "after a failed review the one before is not used" \
    jqe '.from == "space"' "$T/after-failed.json"
check "  the space's work as it is now" sh -c "git -C '$repo' show \
    spaced/after-failed:kept.txt | grep -qx seventh"

# A space's name is free text: the default branch takes it made safe
# (each byte but a letter, digit, '-' or '_' as '-').
repo3=$T/user3
git init -q "$repo3"
echo one >"$repo3/one.txt"
git -C "$repo3" add one.txt
git -C "$repo3" -c user.name=u -c user.email=u@u.invalid commit -qm base
idn=$(sc create -n "its work, 2" 2>"$T/createn.err") || idn=
check "a space named 'its work, 2' ($(cat "$T/createn.err"))" test -n "$idn"
sc -j code-in "$idn" "$repo3" >"$T/ci3.json" 2>"$T/ci3.err"
sp3=$(jq -r .spacePath "$T/ci3.json")
sc exec "$idn" -- /bin/sh -c "cd '$sp3' && echo three >>one.txt" \
    >/dev/null 2>&1
sc -j apply "$idn" "$repo3" >"$T/named.json" 2>&1
check "its default branch is spaced/its-work--2 ($(head -c 200 "$T/named.json"))" \
    jqe '.branch == "refs/heads/spaced/its-work--2"' "$T/named.json"
check "  and holds the work" sh -c "git -C '$repo3' show \
    spaced/its-work--2:one.txt | grep -qx three"
sc remove "$idn" >/dev/null 2>&1
check "no host-side hook or fsmonitor ran in any apply" test ! -e "$T/HOST-RAN"
# Each review and apply is in the space's journal, its chain whole.
sc -j journal "$id" >"$T/journal.json" 2>&1
check "the journal keeps the reviews" jqe '[.records[] |
    select(.listener == "code-out" and .decision == "reviewed")] |
    length > 5' "$T/journal.json"
check "with base, tip, commits, paths and flags" jqe '[.records[] |
    select(.listener == "code-out" and (.host | test("^review base [0-9a-f]{12} tip [0-9a-f]{12} commits [0-9]+ paths [0-9]+ flags gitlink")))] |
    length > 0' "$T/journal.json"
check "the refusals" jqe '[.records[] | select(.listener == "code-out" and
    .decision == "refused code_out_refused")] | length > 0' "$T/journal.json"
# Two applies to spaced/codeout, -w on the second repository, a branch
# moved elsewhere here and the user's commit on spaced/twice.
check "and where each apply went" jqe '[.records[] |
    select(.listener == "code-out" and
    (.decision == "applied refs/heads/spaced/codeout" or
    .decision == "refused branch_moved" or
    .decision == "applied to the work tree"))] | length == 5' \
    "$T/journal.json"
sc -j journal "$id" --verify >"$T/verify.json" 2>&1
check "the journal's chain verifies with them" jqe '.verified == true' \
    "$T/verify.json"
check "control: the space's quarantine folder is there" test -d "$QDIR"
# Another local user naming this id in review or apply is refused as
# for any id not theirs, before the space's quarantine is held or
# started; the owner's kept review stays usable.  Their repository
# holds the owner's start ref (a copy), as such an attempt would.
dgid=$(getent group docker | cut -d: -f3)
other() {
	setpriv --reuid=65534 --regid=65534 --groups="${dgid:-0}" \
	    "$tree/bin/spacectl" -s "$sd/run/spaced.sock" "$@"
}
inside "echo eighth >kept.txt" >/dev/null 2>&1
sc -j review "$id" "$repo" >"$T/own.json" 2>&1
own_tip=$(jq -r .tip "$T/own.json")
check "control: the owner's own review works" test -n "$own_tip" -a \
    "$own_tip" != null
inside "echo ninth >kept.txt" >/dev/null 2>&1
BD=$(mktemp -d /tmp/codeout-other.XXXXXX)
cp -a "$repo" "$BD/repo" && chown -R 65534:65534 "$BD"
NOT_YOURS='spacectl: space_not_found: no such space of yours'
other review "$id" "$BD/repo" >/dev/null 2>"$T/o-review.err"
check "another user's review of the id: space_not_found" \
    grep -qx "$NOT_YOURS" "$T/o-review.err"
other -j review "$id" "$BD/repo" >"$T/o-review.json" 2>&1
check "  and with -j" jqe '.error == "space_not_found"' "$T/o-review.json"
other apply "$id" "$BD/repo" -b spaced/other >/dev/null 2>"$T/o-apply.err"
check "another user's apply of the id: space_not_found" \
    grep -qx "$NOT_YOURS" "$T/o-apply.err"
other -j apply "$id" "$BD/repo" -w >"$T/o-apply.json" 2>&1
check "  and with -j" jqe '.error == "space_not_found"' "$T/o-apply.json"
nid=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
other -j review "$nid" "$BD/repo" >"$T/o-none.json" 2>&1
check "a review of an id with no space: space_not_found" \
    jqe '.error == "space_not_found"' "$T/o-none.json"
check "  and no quarantine folder for it" \
    test ! -e "$T/sd/state/quarantine/$nid"
rm -rf "$BD"
sc -j apply "$id" "$repo" -b spaced/owner-after --allow new_executable \
    >"$T/own-apply.json" 2>&1
check "the owner's next apply still takes the kept review" \
    jqe --arg t "$own_tip" '.from == "review" and .new == $t' \
    "$T/own-apply.json"
# Another local user naming this id is answered as done with nothing
# removed, and takes nothing of this owner's code out with it (before,
# spaced asked spaced-launch to remove the quarantine all the same).
# spaced-launch removes within moments (below): 3 s of watching.
setpriv --reuid=65534 --regid=65534 --groups="${dgid:-0}" \
    "$tree/bin/spacectl" -s "$sd/run/spaced.sock" remove "$id" >/dev/null 2>&1
i=0
while [ -e "$QDIR" ] && [ $i -lt 30 ]; do i=$((i + 1)); sleep 0.1; done
check "another user's remove of the id leaves its quarantine" test -d "$QDIR"
sc remove "$id" >/dev/null
# spaced-launch removes it after the answer (remove does not wait for
# it): a bounded wait, 60 s at most (a hang guard: a loaded machine).
i=0
while [ -e "$QDIR" ] && [ $i -lt 600 ]; do i=$((i + 1)); sleep 0.1; done
check "remove takes the space's quarantine away" test ! -e "$QDIR"
check "control: and the quarantines' folder stays" \
    test -d "$T/sd/state/quarantine"
finish
