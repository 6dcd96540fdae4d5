#!/bin/sh
# Code out against the real engine, in a real space, up to the
# quarantine's checks (spaced's operation is not wired yet: the script
# spaced will run inside is run here through spacectl exec, and the
# checks through regress/tools/qr-check, the same code spaced-git will
# run).  The agent plants hooks, a filter and an fsmonitor for itself:
# none runs (controls: plain git inside runs each).  Each trick, in a
# commit or in uncommitted work, one at a time, is named; a plain git
# fetch from the space into a throwaway copy would have delivered it
# (the control).  Packs that lie are refused.  Ordinary work comes back
# exact.  The user's repository is unchanged throughout.
. "$(dirname "$0")/../contract/lib.sh"

QR=$build/regress/tools/qr-check
RC=$build/regress/tools/repo-compare
same() { [ -n "$1" ] && [ "$1" = "$2" ]; }
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
)
"$RC" snap "$repo" >"$T/rc.before"
id=$(sc create -n codeout 2>"$T/create.err")
check "a space" sh -c "printf %s '$id' | grep -Eqx '[0-9a-f]{12}'"
sc -j code-in "$id" "$repo" >"$T/ci.json" 2>"$T/ci.err"
sp=$(jq -r .spacePath "$T/ci.json")
base=$(jq -r .base "$T/ci.json")
start=$(jq -r .start "$T/ci.json")
check "code-in" test -n "$start" -a "$start" != null
"$QR" script >"$T/script"
git -C "$repo" pack-objects -q --revs --stdout --delta-base-offset \
    >"$T/base.pack" <<EOP
$start
EOP
CTR=spaced-space-$id-space
SUID=$(sc exec "$id" -- id -u)

# out NAME: the script inside, its pack into a new quarantine; the
# checks' words in $T/NAME.out, their status in $T/NAME.rc.
out() {
	sc exec "$id" -- /bin/sh -c "$(cat "$T/script")" spaced-code-out \
	    "$sp" "$start" 300 >"$T/$1.pack" 2>"$T/$1.err"
	echo $? >"$T/$1.xrc"
	"$QR" "$T/q-$1" "$base" "$start" "$T/base.pack" <"$T/$1.pack" \
	    >"$T/$1.out" 2>&1
	echo $? >"$T/$1.rc"
	sed "s/^/# $1: /" "$T/$1.out" | head -n 5
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
check "code out with the agent's hooks, filter and fsmonitor: clean" \
    test "$(cat "$T/planted.rc")" = 0
check "no hook ran inside" inside "test ! -e /tmp/HOOK-RAN"
check "no filter ran inside" inside "test ! -e /tmp/FILTER-RAN"
check "no fsmonitor ran inside" inside "test ! -e /tmp/FSMON-RAN"
inside "git add -A && git $G commit -qm control" >/dev/null 2>&1
check "control: plain git inside runs the hook" inside "test -e /tmp/HOOK-RAN"
check "control: and the filter" inside "test -e /tmp/FILTER-RAN"
check "control: and the fsmonitor" inside "test -e /tmp/FSMON-RAN"
check "two commits came out: the agent's and the uncommitted work" \
    grep -qx 'commits 2' "$T/planted.out"

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
	check "$1: named ($2 $3)" grep -qE "^flag $2 [0-9a-f]{40} $3\$" \
	    "$T/$1.out"
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
	check "$1 (uncommitted): named ($2)" \
	    grep -qE "^flag $2 [0-9a-f]{40} $3\$" "$T/$1.out"
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
check ".GIT in the work tree: the script refuses (65)" \
    test "$(cat "$T/u-dotgit.xrc")" = 65
check "and says which path" grep -q "invalid path '.GIT/config'" \
    "$T/u-dotgit.err"
check "and the quarantine takes nothing" grep -q '^refused: ' \
    "$T/u-dotgit.out"

# Packs that lie: a commit that does not descend from the start.
reset
inside "C=\$(git $G commit-tree -m root \$(git rev-parse HEAD^{tree})) &&
    git update-ref HEAD \$C" >/dev/null 2>&1
out root
check "a commit of another history: refused" \
    grep -q '^refused: a commit that does not descend from the start' \
    "$T/root.out"

# Ordinary work comes back exact (an executable bit taken away and a
# link inside the tree are no reason to flag).
reset
inside "echo edit >>a.txt && git rm -q gone.txt && git mv lib/x.c lib/y.c &&
    chmod -x run.sh && ln -s a.txt link &&
    mkdir -p 'dir with space' && echo u >'dir with space/\303\274 n.txt' &&
    head -c 100000 /dev/urandom >blob.bin && git add -A &&
    git -c user.name=First -c user.email=first@example.invalid commit -qm one &&
    echo two >>a.txt && git -c user.name=Second \
    -c user.email=second@example.invalid commit -qam two &&
    echo three >>a.txt && echo new >new.txt" >/dev/null 2>&1
out ordinary
check "ordinary work: clean" test "$(cat "$T/ordinary.rc")" = 0
tip=$(sed -n 's/^tip //p' "$T/ordinary.out")
inside "git add -A && git $G commit -qm all && git ls-tree -r HEAD" 2>/dev/null \
    >"$T/inside.tree"
git -C "$T/q-ordinary" ls-tree -r "$tip" >"$T/out.tree"
check "the tree that came out is the work tree, entry for entry" \
    cmp -s "$T/inside.tree" "$T/out.tree"
check "the authors and messages came with it" sh -c \
    "git -C '$T/q-ordinary' log --format='%an %s' '$tip' | head -3 |
    tr '\n' '|' | grep -qx 'spaced spaced: uncommitted work|Second two|First one|'"

"$RC" snap "$repo" >"$T/rc.after"
check "the user's repository is unchanged" \
    "$RC" diff "$T/rc.before" "$T/rc.after" "$id"
sc remove "$id" >/dev/null
finish
