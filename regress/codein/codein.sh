#!/bin/sh
# Code in against the real engine, in real spaces: the repository's code
# arrives as git objects, with the same status line for line, modes kept,
# and nothing ignored in any file or object inside (with a positive
# control); the user's repository gains the one ref and loose objects
# only; a second code-in and a used path are refused and leave no ref
# behind, and a stopped space is refused before the snapshot (nothing
# written, the same code-in once started the control), a history into
# it before spaced-git is asked.
. "$(dirname "$0")/../contract/lib.sh"

SECRET=FAKE-SECRET-e1c0de
MARK=TRACKED-MARKER-5a1d
inside() { sc exec "$1" -- /bin/sh -c "$2"; }
hostgit() { git -C "$repo" "$@"; }
jqt() { jq -e "$@" >/dev/null; }
# same "what" a b: the two strings are equal and not empty
same() { [ -n "$1" ] && [ "$1" = "$2" ]; }
# The whole repository folder before an operation (rc_before DIR) and
# after it (untouched "what" DIR ID): only the two kinds of difference
# the spec allows, new loose objects and the start ref of space ID
# (regress/tools/repo_compare.h); each other difference is printed.
RC=$build/regress/tools/repo-compare
rc_before() { "$RC" snap "$1" >"$T/rc.before"; }
untouched() {
	"$RC" snap "$2" >"$T/rc.after" &&
	    "$RC" diff "$T/rc.before" "$T/rc.after" "$3" >"$T/rc.diff"
	rc_rc=$?
	sed 's/^/# /' "$T/rc.diff"
	check "$1: the repository keeps only loose objects and the ref" \
	    test "$rc_rc" -eq 0
}

# The bait: each kind of change code in must carry, and what it must not.
repo=$T/bait
mkdir -p "$repo"
git -C "$repo" init -q -b work
hostgit config user.name "Bait User"
hostgit config user.email bait@example.invalid
(
cd "$repo" || exit 1
echo "$MARK" >tracked.txt
printf '#!/bin/sh\necho run\n' >run.sh && chmod +x run.sh
echo gone >deleted.txt
mkdir -p "dir with space" && echo s >"dir with space/file one.txt"
echo u >"ünïcode.txt"
printf '.env\nnode_modules/\n' >.gitignore
printf 'local-ignored\n' >.git/extra-ignore
git config core.excludesFile "$repo/.git/extra-ignore"
git add . && git commit -qm base
echo staged >>tracked.txt && git add tracked.txt
echo unstaged >>tracked.txt
echo new >staged-new.txt && git add staged-new.txt
rm deleted.txt
echo "$SECRET" >.env
mkdir -p node_modules/pkg && echo "$SECRET" >node_modules/pkg/index.js
echo "$SECRET" >local-ignored
ln -s tracked.txt link
echo untracked >untracked.txt
mkdir nested && cd nested && git init -q && echo n >n && git add n &&
    git -c user.name=n -c user.email=n@n.invalid commit -qm n
)
hostgit status --porcelain=v1 --untracked-files=all >"$T/status.before"
sha256sum "$repo/.git/index" >"$T/index.before"

sc create -n codein >"$T/id" 2>"$T/create.err"
id=$(cat "$T/id")
check "a space to bring code into" sh -c "printf %s '$id' | grep -Eqx '[0-9a-f]{12}'"

rc_before "$repo"
sc -j code-in "$id" "$repo" >"$T/ci.json" 2>"$T/ci.err"
check "code-in succeeds" jqt '.spacePath' "$T/ci.json"
untouched "code-in" "$repo" "$id"
sp=$(jq -r .spacePath "$T/ci.json")
check "spacePath is /spaces/<id>/bait" test "$sp" = "/spaces/$id/bait"
check "projectPath is spacePath for the top" \
    test "$(jq -r .projectPath "$T/ci.json")" = "$sp"
check "base is the host's HEAD" \
    test "$(jq -r .base "$T/ci.json")" = "$(hostgit rev-parse HEAD)"
check "branch and objectFormat" jqt \
    '.branch == "work" and .objectFormat == "sha1"' "$T/ci.json"
check "identityCopied: both" jqt \
    '.identityCopied == {"name": true, "email": true}' "$T/ci.json"
start=$(jq -r .start "$T/ci.json")
check "the host ref refs/spaced/spaces/<id>/start holds start" \
    test "$(hostgit rev-parse "refs/spaced/spaces/$id/start")" = "$start"

inside "$id" "cd '$sp' && git status --porcelain=v1 --untracked-files=all" \
    >"$T/status.inside"
# The untracked repository stays behind by design (spec "The snapshot").
grep -vx '?? nested/' "$T/status.before" >"$T/status.travels"
check "control: the host's status names the untracked repository" \
    grep -qx '?? nested/' "$T/status.before"
diff "$T/status.travels" "$T/status.inside" | sed "s/^/# /"
check "git status inside equals the host's, line for line" \
    cmp -s "$T/status.travels" "$T/status.inside"
check "and is not empty (control)" test -s "$T/status.inside"
check "the executable bit travels" \
    same "$(sc exec "$id" -- stat -c %a "$sp/run.sh")" 755
check "a file that was not executable stays so" \
    same "$(sc exec "$id" -- stat -c %a "$sp/tracked.txt")" 644
check "the symlink travels as a symlink" \
    same "$(sc exec "$id" -- readlink "$sp/link")" tracked.txt
check "HEAD inside is the base" \
    same "$(sc exec "$id" -- git -C "$sp" rev-parse HEAD)" \
    "$(hostgit rev-parse HEAD)"
check "on the host's branch" \
    same "$(sc exec "$id" -- git -C "$sp" symbolic-ref --short HEAD)" work
check "the space's repository is shallow at the base" \
    same "$(sc exec "$id" -- cat "$sp/.git/shallow")" \
    "$(hostgit rev-parse HEAD)"
check "the untracked repository stays out" \
    inside "$id" "[ ! -e '$sp/nested' ]"
check "the user's identity is the space repository's own" \
    same "$(sc exec "$id" -- git -C "$sp" config user.name)" "Bait User"

# Nothing ignored in any file or object inside; the tracked marker is
# found the same ways (the positive control).
inside "$id" "cd /spaces && tar -cf - . 2>/dev/null" >"$T/work.tar"
inside "$id" "cd '$sp' && git cat-file --batch-all-objects --batch" \
    >"$T/objects"
check "control: the tracked marker is in the work tar" \
    grep -q "$MARK" "$T/work.tar"
check "control: and in the objects" grep -q "$MARK" "$T/objects"
check "the ignored secret is in no file inside" \
    sh -c "! grep -q '$SECRET' '$T/work.tar'"
check "nor in any object inside" sh -c "! grep -q '$SECRET' '$T/objects'"

# The user's repository: the same status, the same index file.
hostgit status --porcelain=v1 --untracked-files=all >"$T/status.after"
check "the host's status is unchanged" cmp -s "$T/status.before" \
    "$T/status.after"
sha256sum "$repo/.git/index" >"$T/index.after"
check "the host's index file is unchanged" cmp -s "$T/index.before" \
    "$T/index.after"

# The history: into the same space (another folder), then complete.
hist=$T/hist
git init -q -b trunk "$hist"
for i in 1 2 3 4 5; do
	echo "$i" >"$hist/f$i"
	git -C "$hist" add "f$i"
	git -C "$hist" -c user.name=h -c user.email=h@h.invalid commit -qm "c$i"
done
echo dirty >>"$hist/f5"
rc_before "$hist"
sc -j code-in "$id" "$hist" >"$T/hist.json" 2>"$T/hist.err"
hp=$(jq -r .spacePath "$T/hist.json")
check "code-in of a repository with history" same "$hp" "/spaces/$id/hist"
check "inside, it is shallow first" same \
    "$(sc exec "$id" -- git -C "$hp" rev-parse --is-shallow-repository)" true
inside "$id" "cd '$hp' && git status --porcelain=v1" >"$T/hist.status1"
check "history: complete" same "$(sc history "$id" "$hist" 2>"$T/h.err")" \
    complete
untouched "code-in and history" "$hist" "$id"
check "inside, no longer shallow" same \
    "$(sc exec "$id" -- git -C "$hp" rev-parse --is-shallow-repository)" \
    false
check "the whole history, the same commit ids" same \
    "$(sc exec "$id" -- git -C "$hp" rev-list HEAD | tr '\n' ' ')" \
    "$(git -C "$hist" rev-list HEAD | tr '\n' ' ')"
inside "$id" "cd '$hp' && git status --porcelain=v1" >"$T/hist.status2"
check "and the working tree and index as they were" sh -c \
    "cmp -s '$T/hist.status1' '$T/hist.status2' && grep -q f5 '$T/hist.status2'"
check "a second history: already_complete" \
    same "$(sc history "$id" "$hist" 2>>"$T/h.err")" already_complete
git clone -q --depth 1 "file://$hist" "$T/shallow"
sc code-in "$id" "$T/shallow" >"$T/sh.out" 2>&1
check "code-in of a shallow repository" grep -q '^space path:' "$T/sh.out"
check "its history: host_shallow" \
    same "$(sc history "$id" "$T/shallow" 2>>"$T/h.err")" host_shallow
git init -q "$T/never"
git -C "$T/never" -c user.name=n -c user.email=n@n.invalid commit -q \
    --allow-empty -m never
rc_before "$T/never"
sc history "$id" "$T/never" >"$T/nohist.out" 2>&1
check "history without a code in of that space: history_transfer_failed" \
    grep -q '^spacectl: history_transfer_failed' "$T/nohist.out"
untouched "a failed history" "$T/never" "$id"

# Refusals leave no ref of theirs.
rc_before "$repo"
sc code-in "$id" "$repo" >"$T/again.out" 2>&1
check "a second code-in: space_ref_exists" \
    grep -q '^spacectl: space_ref_exists' "$T/again.out"
untouched "the space_ref_exists refusal" "$repo" "$id"
check "and the ref still holds start" \
    test "$(hostgit rev-parse "refs/spaced/spaces/$id/start")" = "$start"
hostgit update-ref -d "refs/spaced/spaces/$id/start"
rc_before "$repo"
sc code-in "$id" "$repo" >"$T/inuse.out" 2>&1
check "into a path in use: space_path_in_use" \
    grep -q '^spacectl: space_path_in_use' "$T/inuse.out"
untouched "the space_path_in_use failure" "$repo" "$id"
check "and its ref is gone again" \
    test -z "$(hostgit for-each-ref "refs/spaced/spaces/$id")"

# Names with no ASCII: the folder inside keeps what ASCII a name has and
# ends with 8 hex of its hash when it lost any, so two such repositories
# land in one space side by side (both were "project", and the second
# was refused space_path_in_use).  The control: "bait" stayed "bait".
for n in проект 項目; do
	mkdir -p "$T/wide/$n" && git -C "$T/wide/$n" init -q -b main &&
	    echo "$n" >"$T/wide/$n/f" && git -C "$T/wide/$n" add f &&
	    git -C "$T/wide/$n" -c user.name=w -c user.email=w@w.invalid \
	    commit -qm "$n"
done
sc -j code-in "$id" "$T/wide/проект" >"$T/w1.json" 2>"$T/w1.err"
sc -j code-in "$id" "$T/wide/項目" >"$T/w2.json" 2>"$T/w2.err"
w1=$(jq -r .spacePath "$T/w1.json" 2>/dev/null)
w2=$(jq -r .spacePath "$T/w2.json" 2>/dev/null)
sed 's/^/# /' "$T/w1.err" "$T/w2.err"
check "two repositories named in no ASCII both land in one space, apart ($w1, $w2)" \
    sh -c "printf '%s\n%s\n' '$w1' '$w2' | grep -Ecx '/spaces/$id/project-[0-9a-f]{8}' |
    grep -qx 2 && test '$w1' != '$w2'"
check "  each at the path it printed, its HEAD the host's" sh -c \
    "test \"\$(git -C '$T/wide/проект' rev-parse HEAD)\" = '$(inside "$id" "git -C '$w1' rev-parse HEAD" 2>/dev/null)' &&
    test \"\$(git -C '$T/wide/項目' rev-parse HEAD)\" = '$(inside "$id" "git -C '$w2' rev-parse HEAD" 2>/dev/null)'"

# A project in a subfolder, into a second space; then a stopped space.
sc create -n codein-sub >"$T/id2" 2>>"$T/create.err"
id2=$(cat "$T/id2")
rc_before "$repo"
sc -j code-in "$id2" "$repo/dir with space" >"$T/sub.json" 2>"$T/sub.err"
untouched "code-in of a subfolder" "$repo" "$id2"
check "a subfolder brings the whole repository, projectPath below" jqt \
    --arg p "/spaces/$id2/bait/dir with space" '.projectPath == $p' \
    "$T/sub.json"
# A file that needs a clean filter libgit2 cannot run is refused.
lfs=$T/lfs
cp -a "$repo" "$lfs"
git -C "$lfs" for-each-ref --format='%(refname)' refs/spaced |
    xargs -r -n1 git -C "$lfs" update-ref -d
git -C "$lfs" config filter.lfs.clean 'git-lfs clean -- %f'
echo '*.bin filter=lfs' >"$lfs/.gitattributes"
echo BIG >"$lfs/big.bin"
rc_before "$lfs"
sc code-in "$id2" "$lfs" >"$T/lfs.out" 2>&1
check "a file that needs a clean filter: clean_filter_unsupported" \
    grep -q '^spacectl: clean_filter_unsupported' "$T/lfs.out"
untouched "the clean_filter_unsupported refusal" "$lfs" "$id2"
sc stop "$id2" >/dev/null
# A history into the stopped space, from the folder its code came from
# and from the one spaced recorded: refused as code-in is, before
# spaced-git is asked (red before: spaced-git packed the history, then
# the transfer failed, history_transfer_failed).
stopped_says() {
	sc "$@" >"$T/hstop.out" 2>&1
	h_rc=$?
	sed 's/^/# /' "$T/hstop.out"
	test "$h_rc" = 1 && grep -qx 'spacectl: space_not_running: the space is stopped (spacectl start starts it)' "$T/hstop.out"
}
check "history into a stopped space: space_not_running, exit 1" \
    stopped_says history "$id2" "$repo"
check "  without DIR too (before the recorded origin is looked up)" \
    stopped_says history "$id2"
hostgit update-ref -d "refs/spaced/spaces/$id2/start"
# A copy of the repository without refs of ours, for a code-in into the
# stopped space and then, started, the same one (the control).
stopped=$T/tostopped
cp -a "$repo" "$stopped"
git -C "$stopped" for-each-ref --format='%(refname)' refs/spaced |
    xargs -r -n1 git -C "$stopped" update-ref -d
# written DIR: each object file and ref of the repository, one a line
written() {
	(cd "$1/.git" && find objects -type f | sort) &&
	    git -C "$1" for-each-ref
}
written "$stopped" >"$T/written.before"
rc_before "$stopped"
t0=$(date +%s)
sc code-in "$id2" "$stopped" >"$T/stopped.out" 2>&1
rc=$?
echo "# into a stopped space: $(($(date +%s) - t0)) s"
untouched "a code-in into a stopped space" "$stopped" "$id2"
check "into a stopped space: space_not_running and what to do, exit 1 (rc $rc)" \
    sh -c "test $rc = 1 && grep -qx 'spacectl: space_not_running: the space is stopped (spacectl start starts it)' '$T/stopped.out'"
sed 's/^/# /' "$T/stopped.out"
written "$stopped" >"$T/written.after"
diff "$T/written.before" "$T/written.after" | sed 's/^/# written: /' | head -20
check "  refused before the snapshot: no object and no ref written" \
    cmp -s "$T/written.before" "$T/written.after"
check "the pack is cancelled, not left to stall (no command_timeout)" \
    sh -c "! grep -q command_timeout '$T/stopped.out'"
check "and no ref of that space is left" \
    test -z "$(git -C "$stopped" for-each-ref "refs/spaced/spaces/$id2")"
sc start "$id2" >/dev/null
sc code-in "$id2" "$stopped" >"$T/started.out" 2>&1
check "  control: the same code-in once the space is started again" \
    grep -q '^space path:' "$T/started.out"
written "$stopped" >"$T/written.control"
check "  control: its snapshot's objects and ref are seen written" sh -c \
    "! cmp -s '$T/written.before' '$T/written.control' &&
    git -C '$stopped' for-each-ref 'refs/spaced/spaces/$id2' | grep -q ."

# The user's hooks, fsmonitor and auto gc never run: each control shows
# it running on an ordinary git command in a copy of the repository.
hooked=$T/hooked
cp -a "$repo" "$hooked"
git -C "$hooked" update-ref -d "refs/spaced/spaces/$id/start" 2>/dev/null
git -C "$hooked" update-ref -d "refs/spaced/spaces/$id2/start" 2>/dev/null
mkdir -p "$T/hooks"
for h in pre-commit post-commit post-checkout post-index-change \
    reference-transaction pre-auto-gc post-rewrite; do
	printf '#!/bin/sh\ntouch "%s/ran-%s"\n' "$T/hooks" "$h" >"$T/hooks/$h"
	chmod +x "$T/hooks/$h"
done
printf '#!/bin/sh\ntouch "%s/ran-fsmonitor"\n' "$T/hooks" >"$T/fsmon"
chmod +x "$T/fsmon"
git -C "$hooked" config core.hooksPath "$T/hooks"
git -C "$hooked" config core.fsmonitor "$T/fsmon"
git -C "$hooked" config gc.auto 1
git -C "$hooked" config gc.autoPackLimit 1
git -C "$hooked" config maintenance.auto true
# gc in the foreground, so the control sees what it did at once
git -C "$hooked" config gc.autoDetach false
git -C "$hooked" repack -q && echo more >>"$hooked/run.sh" &&
    git -C "$hooked" -c core.hooksPath=/dev/null commit -qam more &&
    git -C "$hooked" repack -q
ls "$hooked/.git/objects/pack/"*.pack >"$T/packs.before"
git -C "$hooked" reset -q --soft HEAD~1
# The setup's own git commands ran hooks; only code in's count.
rm -f "$T/hooks"/ran-*
sc create -n codein-hooks >"$T/id3" 2>>"$T/create.err"
id3=$(cat "$T/id3")
rc_before "$hooked"
sc code-in "$id3" "$hooked" >"$T/hooked.out" 2>&1
check "code-in of a repository with hooks, fsmonitor and auto gc" \
    grep -q '^space path:' "$T/hooked.out"
untouched "code-in with hooks, fsmonitor and auto gc" "$hooked" "$id3"
check "no hook of the user's ran" sh -c "! ls '$T/hooks'/ran-* 2>/dev/null"
ls "$hooked/.git/objects/pack/"*.pack >"$T/packs.after"
check "two packs, both untouched (no auto gc)" sh -c \
    "cmp -s '$T/packs.before' '$T/packs.after' && [ \$(wc -l <'$T/packs.after') -eq 2 ]"
cp -a "$hooked" "$T/control"
git -C "$T/control" commit -qm control
check "control: an ordinary commit runs the user's hooks" \
    test -e "$T/hooks/ran-pre-commit"
check "control: and fsmonitor" test -e "$T/hooks/ran-fsmonitor"
check "control: and auto gc packs the two into one" \
    test "$(ls "$T/control/.git/objects/pack/"*.pack | wc -l)" -eq 1

# A repository of another uid, brought in by root: its spaced-git runs
# as that uid, so what it writes (loose objects, the ref) is that uid's.
theirs=$T/theirs
cp -a "$repo" "$theirs"
git -C "$theirs" for-each-ref --format='%(refname)' refs/spaced |
    xargs -r -n1 git -C "$theirs" update-ref -d
chown -R nobody:nogroup "$theirs"
chmod 0755 "$T"
sc create -n codein-theirs >"$T/id4" 2>>"$T/create.err"
id4=$(cat "$T/id4")
sc code-in "$id4" "$theirs" >"$T/theirs.out" 2>&1
check "root brings in nobody's repository" grep -q '^space path:' \
    "$T/theirs.out"
check "everything in it is still nobody's (written as its owner)" \
    test -z "$(find "$theirs" ! -user nobody | head -n 1)"

check "before the remove, the hooked repository holds its space's ref" \
    test -n "$(git -C "$hooked" for-each-ref "refs/spaced/spaces/$id3")"
rc_before "$hooked"
for s in "$id" "$id2" "$id3" "$id4"; do sc remove "$s" >/dev/null; done
untouched "remove" "$hooked" "$id3"
check "remove takes the space's ref out of the repository it came from" \
    test -z "$(git -C "$hooked" for-each-ref refs/spaced)"
check "from each repository it brought code from" sh -c \
    "[ -z \"\$(git -C '$hist' for-each-ref refs/spaced)\" ] &&
    [ -z \"\$(git -C '$T/shallow' for-each-ref refs/spaced)\" ]"
check "and from one of another uid, as that uid" \
    test -z "$(git -c safe.directory='*' -C "$theirs" for-each-ref refs/spaced)"
check "the store keeps no origin of a removed space" \
    test -z "$(ls -A "$T/sd/store" | grep '^\.origin-')"

# A client killed mid-way: the code in goes on alone to its end (its
# origin kept, so remove takes the ref) or takes the ref away again;
# never a ref that nothing knows of (before: one, and the next code in
# refused space_ref_exists).  The kill lands at several moments, from
# the lookup to the transfer; the snapshot has 8 MB more to write.
left=$T/left
cp -a "$repo" "$left"
head -c 8000000 /dev/urandom >"$left/big.bin"
for delay in 0.05 0.1 0.15 0.2 0.3 0.5 0.8; do
	l_id=$(sc create -n "codein-left" 2>>"$T/create.err")
	timeout -s KILL "$delay" "$tree/bin/spacectl" \
	    -s "$sd/run/spaced.sock" code-in "$l_id" "$left" >/dev/null 2>&1
	sc remove "$l_id" >/dev/null
	ref_gone() { [ -z "$(git -C "$left" for-each-ref "refs/spaced/spaces/$l_id")" ]; }
	if ! wait_for 30 ref_gone; then
		echo "# killed at $delay s: refs/spaced/spaces/$l_id stays"
		break
	fi
done
check "a code in whose client is killed leaves no ref once its space is removed" ref_gone
check "control: a code in left alone makes the ref" sh -c "
    id=\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' create -n codein-left) &&
    '$tree/bin/spacectl' -s '$sd/run/spaced.sock' code-in \$id '$left' >/dev/null 2>'$T/left.err' &&
    git -C '$left' for-each-ref refs/spaced/spaces/\$id | grep -q . &&
    '$tree/bin/spacectl' -s '$sd/run/spaced.sock' remove \$id >/dev/null"
sed 's/^/# /' "$T/left.err"

# A space that does not cooperate (spec "A space that does not
# cooperate").  Its root is read-only and the script names only the
# image's own programs, so no agent can swap the receiver's git: an
# image of this run can, one layer over the space image whose
# /usr/local/bin/git (first on the script's PATH) does what the file
# ~/receiver says, written into the space by spacectl exec: hang in
# its first update-ref, flood its stderr or refuse in index-pack;
# anything else is git.
hostile=spaced-space-hostile:$(printf %s "$INSTALL" | cut -c1-12)
mkdir -p "$T/img"
cat >"$T/img/git" <<'EOS'
#!/bin/sh
mode=$(cat /home/space/receiver 2>/dev/null)
# A hang after the pack is read, where no step of the script has a
# timeout of its own: only the inner limit of the whole script ends it.
[ "$1" = update-ref ] && [ "$mode" = hang ] && sh -c 'sleep 86399'
if [ "$1" = index-pack ]; then
	case $mode in
	flood) i=0; while [ $i -lt 40000 ]; do
		echo "FLOOD-$i: the space prints without end, line after line"
		i=$((i + 1)); done >&2; exit 1 ;;
	refuse) echo "REFUSED-BY-THE-SPACE: no" >&2; exit 1 ;;
	esac
fi
exec /usr/bin/git "$@"
EOS
printf 'FROM spaced-space:latest\nUSER root\nCOPY git /usr/local/bin/git\nRUN chmod 0755 /usr/local/bin/git\nUSER 10000:10000\n' \
    >"$T/img/Dockerfile"
docker build -q -t "$hostile" "$T/img" >"$T/img.out" 2>&1
check "an image whose git the test controls" \
    sh -c "docker image inspect '$hostile' >/dev/null 2>&1"
# A host timeout of 20 s (the inner limit is 25 s): spaced.conf(5).
# Before the host's timeout the hang must be seen inside, by execs that
# take seconds each under load (6 s could run out first there).
stop_spaced
SPACED_EXTRA_CONF="$SPACED_EXTRA_CONF
space image $hostile
code in timeout 20"
start_spaced "$T/sd" || { sed 's/^/# /' "$T/sd/log"; not_ok "spaced restarts"; }

# descendants PID: every process below it, one pid a line.
descendants() {
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		echo "$c"; descendants "$c"
	done
}
# running ID GREP-ARGS: a process inside whose command line matches.
running() {
	r_id=$1; shift
	sc exec "$r_id" -- /bin/sh -c "for p in /proc/[0-9]*; do
	    tr '\\0' ' ' <\$p/cmdline 2>/dev/null; echo; done" | grep -q "$@"
}
sc create -n codein-hang >"$T/id5" 2>>"$T/create.err"
id5=$(cat "$T/id5")
sc exec "$id5" -- /bin/sh -c 'echo hang >/home/space/receiver'
hang=$T/hang
cp -a "$hist" "$hang"
git -C "$hang" for-each-ref --format='%(refname)' refs/spaced |
    xargs -r -n1 git -C "$hang" update-ref -d
sc files "$hang" >/dev/null 2>&1	# its spaced-git, started before
descendants "$spaced_pid" | sort >"$T/procs.before"
rc_before "$hang"
# inner_limit SIG: the inner limit's timeout inside the space, signalled
# (STOP holds the limit, CONT lets it go; its pending alarm then fires);
# prints the pids it signalled.
inner_limit() {
	sc exec "$id5" -- /bin/sh -c "for p in /proc/[0-9]*; do
	    case \"\$(tr '\\0' ' ' <\$p/cmdline 2>/dev/null)\" in
	    '/usr/bin/timeout -s KILL '*) kill -$1 \${p#/proc/} &&
		echo \${p#/proc/} ;;
	    esac; done"
}
t0=$(date +%s)
sc code-in "$id5" "$hang" >"$T/hang.out" 2>&1 &
cin=$!
# Ordered by events, not by the 5 s between the two limits: the inner
# limit is held from its start until the host side has been seen.
wait_for 60 running "$id5" "/usr/bin/timeout -s KILL"
inner_limit STOP >"$T/held"
check "the inner limit is held (its timeout stopped: $(cat "$T/held"))" \
    test -s "$T/held"
check "the receiver hangs inside" wait_for 60 running "$id5" "sleep 86399"
wait $cin
echo "# a hanging receiver: $(($(date +%s) - t0)) s (host timeout 20 s)"
check "a hanging receiver: code_transfer_failed" \
    grep -q '^spacectl: code_transfer_failed' "$T/hang.out"
check "at the host's timeout (command_timeout)" \
    grep -q command_timeout "$T/hang.out"
# The host's timeout also ends the command inside (spaced-docker's kill
# of the exec's session), though the inner limit is still held.
receiver_gone() {
	sc exec "$id5" -- /bin/sh -c "for p in /proc/[0-9]*; do
	    tr '\\0' ' ' <\$p/cmdline 2>/dev/null; echo; done" >"$T/procs.k" &&
	    [ -s "$T/procs.k" ] && ! grep -q "sleep 86399" "$T/procs.k"
}
check "the receiver is ended inside at the host's timeout, the inner limit held" \
    wait_for 30 receiver_gone
descendants "$spaced_pid" | sort >"$T/procs.after"
comm -13 "$T/procs.before" "$T/procs.after" >"$T/procs.new"
for p in $(cat "$T/procs.new"); do
	echo "# new: $p $(tr '\0' ' ' </proc/"$p"/cmdline 2>/dev/null)"
done
# On the host, not inside: the space's own processes show in ps too.
hostns=$(readlink /proc/self/ns/pid)
for p in $(pgrep -f "$id5"); do
	[ "$(readlink /proc/"$p"/ns/pid 2>/dev/null)" = "$hostns" ] &&
	    echo "$p $(tr '\0' ' ' </proc/"$p"/cmdline 2>/dev/null)"
done >"$T/procs.named"
sed 's/^/# names the space: /' "$T/procs.named"
check "no process of ours is left on the host" sh -c \
    "[ ! -s '$T/procs.new' ] && [ ! -s '$T/procs.named' ]"
# A spaced-git still bound to the transfer would never answer (timeout
# is a hang guard).
check "and the repository's spaced-git answers after the hang" \
    timeout 120 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" files "$hang"
untouched "a hanging receiver" "$hang" "$id5"
check "its host ref is gone" \
    test -z "$(git -C "$hang" for-each-ref refs/spaced)"
# The inner limit let go (25 s after the start): nothing of the script
# once its timeout is gone.
inner_limit CONT >/dev/null
limit_gone() { ! running "$id5" "/usr/bin/timeout -s KILL"; }
check "the inner limit fires once let go" wait_for 30 limit_gone
# The list is read (lacks fails on an empty one: an exec that failed).
sc exec "$id5" -- /bin/sh -c "for p in /proc/[0-9]*; do
    tr '\\0' ' ' <\$p/cmdline 2>/dev/null; echo; done" >"$T/procs5"
lacks "nothing of the transfer runs inside after the inner limit" \
    "$T/procs5" -e "sleep 86399" -e spaced-code-in

# flooding and refusing receivers: code_transfer_failed, and of the
# space's text at most 2,000 characters (spacectl keeps the last ones).
for mode in flood refuse; do
	sc create -n "codein-$mode" >"$T/id.$mode" 2>>"$T/create.err"
	m_id=$(cat "$T/id.$mode")
	sc exec "$m_id" -- /bin/sh -c "echo $mode >/home/space/receiver"
	git -C "$hang" for-each-ref --format='%(refname)' refs/spaced |
	    xargs -r -n1 git -C "$hang" update-ref -d
	rc_before "$hang"
	sc code-in "$m_id" "$hang" >/dev/null 2>"$T/$mode.err"
	check "a $mode receiver: code_transfer_failed" \
	    grep -q '^spacectl: code_transfer_failed' "$T/$mode.err"
	sed '0,/^spacectl: what the space printed:$/d;/^spacectl: /,$d' \
	    "$T/$mode.err" >"$T/$mode.text"
	check "control: its text is the receiver's own" \
	    grep -q -e FLOOD- -e REFUSED-BY-THE-SPACE "$T/$mode.text"
	check "at most 2,000 characters of it" \
	    test "$(tr -d '\n' <"$T/$mode.text" | wc -m)" -le 2000
	untouched "a $mode receiver" "$hang" "$m_id"
	sc remove "$m_id" >/dev/null
done
check "a flood is cut: its first lines are not shown" \
    sh -c "! grep -q 'FLOOD-0:' '$T/flood.text'"
sc remove "$id5" >/dev/null
docker image rm -f "$hostile" >/dev/null 2>&1
finish
