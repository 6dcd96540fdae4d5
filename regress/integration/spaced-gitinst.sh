#!/bin/sh
# The spaced-git of a repository: started by spaced-launch as the
# repository's owner, confined to that repository, ended when idle, and
# never trusted by spaced.  files and limits against git's own answer,
# the ownership rule (a plain caller, their own repositories only; root,
# anyone's, run as its owner), and Landlock tried by a repository whose
# exclude file points outside it, with git itself as the control.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "needs root (repositories of other uids)"
	finish
fi
sh "$top/tools/users.sh" >/dev/null
make_tree
work=$(mktemp -d /tmp/spaced-gitinst.XXXXXX)
chmod 0755 "$work"
trap 'stop_spaced; [ -n "${KEEP:-}" ] || rm -rf "$tree" "$work"' EXIT
sd=$tree/s1
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
ctl_nobody() { as_nobody "$tree/bin/spacectl" -s "$sd/run/spaced.sock" "$@"; }
inst_pids() { pgrep -f "^spaced-git -g $1\$"; }
field() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }
# jqt file expr: the JSON in file (which must hold some) makes expr true
jqt() { [ -s "$1" ] && jq -e "$2" "$1" >/dev/null; }
# answer name spacectl-args...: the JSON answer into $work/name.json
answer() { n=$1; shift; ctl -j "$@" >"$work/$n.json" 2>"$work/$n.err"; }
answer_nobody() {
	n=$1; shift; ctl_nobody -j "$@" >"$work/$n.json" 2>"$work/$n.err"
}
# fails_with name code spacectl-args...: refused with that code
fails_with() {
	n=$1; c=$2; shift 2
	! ctl "$@" >"$work/$n.out" 2>&1 && grep -q "^spacectl: $c:" "$work/$n.out"
}

# A repository: tracked, untracked, ignored, an untracked repository
# with a commit, a submodule entry and an LFS attribute.
mkrepo() {
	rm -rf "$1"; mkdir -p "$1"
	(
	cd "$1" && git init -q && git config user.name t &&
	    git config user.email t@t.invalid &&
	    echo tracked >tracked && echo '*.bin filter=lfs' >.gitattributes &&
	    echo '.env' >.gitignore && git add . && git commit -qm one &&
	    echo secret >.env && echo new >new.txt && mkdir -p dir &&
	    printf 'x%.0s' $(seq 1 100) >"dir/space name.txt" &&
	    mkdir nested && cd nested && git init -q && echo n >n &&
	    git add n && git -c user.name=t -c user.email=t@t.invalid \
	    commit -qm n
	)
}

check "spaced starts" start_spaced "$sd"
repo=$work/repo
mkrepo "$repo"

# --- files: what travels, as git itself says -----------------------------
ctl -j files "$repo" >"$work/files.json"
check "files answers" test -s "$work/files.json"
jq -r '.files[].path' "$work/files.json" | sort >"$work/ours"
(cd "$repo" && git ls-files --others --exclude-standard) |
    grep -v '/$' | sort >"$work/git"
check "files lists exactly git's untracked files" cmp -s "$work/ours" \
    "$work/git"
check "the ignored .env does not travel" sh -c \
    "! grep -qx .env '$work/ours'"
check "the untracked repository stays, named as such" jqt "$work/files.json" \
    '.notTravelling == [{"path": "nested", "kind": "repository"}]'
check "sizes are the files' own (100 bytes)" jqt "$work/files.json" \
    '[.files[] | select(.path == "dir/space name.txt") | .size] == [100]'
check "totalBytes is their sum" jqt "$work/files.json" \
    '.totalBytes == ([.files[].size] | add) and .totalBytes > 100'
answer sub files "$repo/dir"
check "files from a subfolder answers for the whole repository" \
    jqt "$work/sub.json" '.files | length == 2' 

# --- limits ----------------------------------------------------------
(cd "$repo" && git update-index --add --cacheinfo \
    160000,$(git rev-parse HEAD),vendor/lib)
answer limits limits "$repo"
check "limits names the submodule" jqt "$work/limits.json" \
    '.submodules == ["vendor/lib"]'
check "limits sees Git LFS in .gitattributes" jqt "$work/limits.json" \
    '.lfs == true'
mkrepo "$work/plain"
(cd "$work/plain" && git rm -q --cached .gitattributes)
answer plain limits "$work/plain"
check "and no LFS nor submodule where there is none (control)" \
    jqt "$work/plain.json" '.lfs == false and .submodules == []' 

# --- refusals ----------------------------------------------------------
mkdir -p "$work/norepo"
check "a folder in no repository: not_a_git_work_tree" \
    fails_with norepo not_a_git_work_tree files "$work/norepo"
check "a missing folder: project_folder_missing" \
    fails_with missing project_folder_missing files "$work/missing"
git init -q --bare "$work/bare.git"
check "a bare repository: not_a_git_work_tree" \
    fails_with bare not_a_git_work_tree files "$work/bare.git"

# --- ownership -----------------------------------------------------------
mine=$work/nobody-repo
mkrepo "$mine"
chown -R nobody:nogroup "$mine"
answer_nobody own files "$mine"
check "a plain user lists their own repository (control)" \
    jqt "$work/own.json" '.files | length == 2'
answer_nobody theirs files "$repo"
check "a plain user is refused root's: repository_not_owned" \
    jqt "$work/theirs.json" '.error == "repository_not_owned"'
answer rootmine files "$mine"
check "root may list nobody's repository" \
    jqt "$work/rootmine.json" '.files | length == 2'
p=$(inst_pids "$mine" | tail -n 1)
uid_is() { [ -n "$1" ] && [ "$(field "$1" Uid | awk '{ print $1 }')" = "$2" ]; }
check "its spaced-git runs as nobody, not root" uid_is "$p" "$(id -u nobody)"
p=$(inst_pids "$repo" | head -n 1)
no_caps() {
	[ -n "$1" ] && [ "$(field "$1" CapEff)" = 0000000000000000 ] &&
	    [ "$(field "$1" CapPrm)" = 0000000000000000 ] &&
	    [ "$(field "$1" CapBnd)" = 0000000000000000 ]
}
check "a root repository's spaced-git: uid 0" uid_is "$p" 0
check "but CapEff, CapPrm and CapBnd empty" no_caps "$p"
confined() { [ "$(field "$1" Seccomp)" = 2 ] && [ "$(field "$1" NoNewPrivs)" = 1 ]; }
check "and Seccomp 2, NoNewPrivs 1" confined "$p"

# --- Landlock: the repository and the owner's git files, nothing else ---
# info/exclude points outside the repository at a file that ignores
# new.txt: git reads it (the control); spaced-git may not.
ll=$work/ll
mkrepo "$ll"
echo new.txt >"$work/outside-rules"
ln -sf "$work/outside-rules" "$ll/.git/info/exclude"
(cd "$ll" && git ls-files --others --exclude-standard) >"$work/ll.git"
check "control: git follows the exclude file outside and ignores new.txt" \
    sh -c "grep -qx tracked '$ll/tracked' && ! grep -qx new.txt '$work/ll.git' && [ -s '$work/ll.git' ]"
answer ll files "$ll"
check "spaced-git cannot read outside its repository: new.txt listed" \
    jqt "$work/ll.json" '[.files[].path] | index("new.txt") != null'
(cd "$ll" && git config core.excludesFile "$work/outside-rules" && rm .git/info/exclude)
answer ll2 files "$ll"
check "but it reads a core.excludesFile the owner's config names" \
    jqt "$work/ll2.json" '[.files[].path] | index("new.txt") == null and length > 0' 

# --- a spaced-git that dies: spaced stays, the next request starts one --
p=$(inst_pids "$repo" | head -n 1)
kill -9 "$p" 2>/dev/null
check "spaced outlives a killed spaced-git" wait_for 5 sh -c \
    "! kill -0 $p && kill -0 $spaced_pid"
answer again files "$repo"
check "the next request gets a new spaced-git" sh -c \
    "jq -e '.files | length == 2' '$work/again.json' >/dev/null &&
    [ -n \"\$(pgrep -f '^spaced-git -g $repo\$')\" ] &&
    [ \"\$(pgrep -f '^spaced-git -g $repo\$')\" != '$p' ]"

# --- killed during a files request: an error, an event, and on ---------
# The instance is stopped, so the request waits unread in its channel
# (ss: its socket's receive queue), then killed in the middle of it.
ctl -j events -f >"$work/events.json" 2>"$work/events.err" &
follower=$!
answer warm files "$repo"
p=$(inst_pids "$repo" | head -n 1)
queued() {
	ss -xpH 2>/dev/null | awk -v p="pid=$1," \
	    'index($0, p) && $3 > 0 { f = 1 } END { exit !f }'
}
kill -STOP "${p:-0}"
ctl -j files "$repo" >"$work/killed.json" 2>"$work/killed.err" &
inflight=$!
check "a files request waits in a stopped spaced-git's channel" \
    wait_for 10 queued "$p"
kill -9 "${p:-0}"
wait "$inflight"
check "the request answers git_worker_failed ($(head -c 200 "$work/killed.json"))" \
    jqt "$work/killed.json" '.error == "git_worker_failed"'
# It said "it went away": the signal by name, and that it was serving.
check "... saying how it died: signal 9 by name, while it served" \
    jqt "$work/killed.json" '.message | test("^spaced-git pid [0-9]+ killed by signal 9 \\(SIGKILL: Killed\\) while it served$")'
# (jq -s: jq -e on an empty file is true)
died() {
	jq -s -e --arg p "pid $p " 'any(.[]; .kind == "worker-died" and
	    .uid == 0 and (.detail | startswith("spaced-git " + $p)) and
	    (.detail | contains("killed by signal 9")))' \
	    "$work/events.json" >/dev/null
}
check "events -f: worker-died, the program, its pid and how it died" \
    wait_for 10 died
sed -n '/worker-died/s/^/# /p' "$work/events.json"
check "spaced's log says so too" grep -q \
    "spaced-git $p (uid 0, $repo) killed by signal 9" "$sd/log"
answer after files "$repo"
check "the next request works, on a new spaced-git" \
    jqt "$work/after.json" '.files | length == 2'
# Ended by spaced (an idle one, below) is no death: only this one.
kill "$follower" 2>/dev/null
wait "$follower" 2>/dev/null

# --- idle: ended after 30 s without a request --------------------------
# The bound tells "ended by the idle timeout" from "never"; room for a
# loaded machine, no measure of the timeout.
check "an idle spaced-git is ended (the 30 s idle timeout)" wait_for ${IDLE_WAIT:-90} sh -c \
    "! pgrep -f '^spaced-git -g $work' >/dev/null"
ctl -j events >"$work/events-all.json"
check "instances spaced ended are no worker-died: the one killed alone" \
    test "$(jq -s '[.[] | select(.kind == "worker-died")] | length' \
    "$work/events-all.json")" = 2
check "and spaced still serves" ctl status

# --- a spaced-git's own fatal line -------------------------------------
# spaced-launch starts it with stderr on /dev/null: a fatal() of its own
# said "exited with status 1" alone.  A real one, caused from outside:
# spaced-launch traced (strace -f), so the spaced-git it starts is too,
# and refuses to run traced (git_untraceable).  Its line must reach the
# caller, escaped, after how it died.
launch=$(pgrep -P "$spaced_pid" -f '^spaced-launch' | head -n 1)
tracer=
traced() { [ "$(field "${launch:-0}" TracerPid)" != 0 ]; }
untraced() { [ "$(field "${launch:-0}" TracerPid)" = 0 ]; }
if command -v strace >/dev/null; then
	strace -f -qq -e trace=none -o /dev/null -p "${launch:-0}" &
	tracer=$!
	check "spaced-launch traced" wait_for 10 traced
	mkrepo "$work/traced"
	answer traced files "$work/traced"
	check "a traced spaced-git: git_worker_failed ($(head -c 300 "$work/traced.json"))" \
	    jqt "$work/traced.json" '.error == "git_worker_failed"'
	check "... how it died, then its own fatal line" \
	    jqt "$work/traced.json" '.message | test("^spaced-git pid [0-9]+ exited with status 1 before it was ready \\(its start and confinement\\); it said: traced, or no TracerPid in /proc/self/status$")'
	check "... and spaced's log has the line" grep -Eq \
	    "spaced-git [0-9]+ said as it died: traced, or no TracerPid in /proc/self/status" \
	    "$sd/log"
	kill "$tracer"
	wait "$tracer" 2>/dev/null
	check "spaced-launch no longer traced" wait_for 10 untraced
	answer untraced files "$work/traced"
	check "control: untraced, files of that repository works" \
	    jqt "$work/untraced.json" '.files | length == 2'
else
	skip "no strace: a traced spaced-git's fatal line"
fi

stop_spaced
check "nothing of ours is left once spaced stopped" wait_for 5 sh -c \
    "! pgrep -f '^spaced-git -g $work' >/dev/null"
finish
