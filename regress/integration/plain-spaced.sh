#!/bin/sh
# A plain user's spaced end to end, as on a laptop without root: a new
# uid of the suite's own runs spaced from its own folder with a
# spaced.conf of its own (a state folder it names; the defaults a plain
# user gets: socket under XDG_RUNTIME_DIR, journal under HOME); every
# request below is that user's.  The native place is root's (spaced-ns
# starts only as root): refused in words that say what to do.  Docker
# before the user is in the docker group: refused, saying what to do;
# then in it: create, exec, exec -i, code-in of the user's own
# repository, review, apply -b, journal, stop, start, remove, nothing
# left.  Root makes the user and removes it at the end.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "needs root (a user of its own)"
	finish
fi
if ! docker info >/dev/null 2>&1 || ! getent group docker >/dev/null; then
	skip "needs a Docker engine and its docker group"
	finish
fi
work=$(mktemp -d /tmp/spaced-plain.XXXXXX)
chmod 0755 "$work"
make_tree || { not_ok "make_tree"; finish; }
# A name of this run's: two runs never share a user.
pu=spl$(basename "$work" | tr -dc 'a-zA-Z0-9' | tr 'A-Z' 'a-z' |
    tail -c 8)
IID=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
id=
plain_end() {
	[ -n "$id" ] && lap_ctl remove "$id" >/dev/null 2>&1
	stop_spaced
	plain_users_kill
	plain_users_del
	rm -rf "$work" "$tree"
}
at_finish plain_end
plain_users "$pu"
gid=$(id -g "$pu")

# The user's own credentials, the docker group among them.
as_user() {
	setpriv --reuid="$pu" --regid="$gid" --init-groups env HOME="$sd" "$@"
}
lap_ctl() { as_user "$tree/bin/spacectl" -s "$sd/run/spaced.sock" "$@"; }

# lap_start: the user's spaced, HOME its folder; up once it says so.
sd=$work/home
lap_start() {
	: >"$sd/log"
	setpriv --reuid="$pu" --regid="$gid" --init-groups \
	    env HOME="$sd" XDG_RUNTIME_DIR="$sd/run" \
	    "$tree/sbin/spaced" -d -f "$sd/spaced.conf" >"$sd/log" 2>&1 &
	spaced_pid=$!
	wait_for 10 grep -q "workers confined" "$sd/log" &&
	    test -S "$sd/run/spaced.sock"
}
mkdir -p "$sd/run" && chown -R "$pu:$gid" "$sd" && chmod 0700 "$sd"
# lap_conf [SETTING]: the user's spaced.conf, with one setting more.
lap_conf() {
	as_user sh -c "cat >'$sd/spaced.conf'" <<EOC
install id $IID
state directory "$sd/state"
default agent none
trust images
${1:-}
EOC
}
# The first start: the native place as the default, which a plain
# user's spaced cannot have.  It starts (the setting picks only the
# default: -p docker works) and says so in its log and in check.
lap_conf "default place native"
check "the user's spaced starts, default place native" lap_start
[ -S "$sd/run/spaced.sock" ] || finish
check "its log warns: default place native needs root, naming the uid" \
    grep -Eq "spaced.conf: default place native: the native place needs spaced run as root, and this spaced runs as uid $(id -u "$pu"): every create that names no place is refused \\(sandbox_unavailable\\)" \
    "$sd/log"
check_refusal "a create that names no place is refused, as the log said" 1 \
    'sandbox_unavailable: the native place needs spaced run as root' \
    lap_ctl create -n lapd
# check: the native place absent and why, the default named (-j too);
# Docker absent too (not in its group yet), in create's words.
lap_ctl check >"$work/check.out" 2>&1
echo $? >"$work/check.rc"
lap_ctl -j check >"$work/check.json" 2>/dev/null
check "check: native unavailable (sandbox_unavailable)" \
    grep -qx 'native: unavailable (sandbox_unavailable)' "$work/check.out"
check "check: its reason, root's place and the default named" grep -Eqx \
    "reason: the native place needs spaced run as root; this spaced is a plain user's: use the Docker place \\(-p docker\\); spaced.conf's default place native sends every create that names no place here" \
    "$work/check.out"
check "check -j: native's code and message" jq -e \
    '.native.available == false and .native.code == "sandbox_unavailable" and (.native.message | test("needs spaced run as root.*default place native"))' \
    "$work/check.json"
check "check: docker unavailable (docker_unreachable), exit 1 as before" \
    sh -c "grep -qx 'docker: unavailable (docker_unreachable)' '$work/check.out' && [ \"\$(cat '$work/check.rc')\" = 1 ]"
check "check: why, in create's words: permission denied, the socket's group" \
    grep -qx "reason: spaced cannot connect to the Docker socket: permission denied; the user spaced runs as needs the socket's group (docker): add it, then start spaced again from a new login" \
    "$work/check.out"
check "check -j: the same fields, and the message" jq -e \
    '.available == false and .code == "docker_unreachable" and (.message | test("permission denied; the user spaced runs as needs the socket.s group \\(docker\\)"))' \
    "$work/check.json"
lap_conf
# spaced-git is not dumpable: a plain user's spaced may not read its
# root, and said so at each start as if something were wrong.
check "control: the log read says the workers are confined" \
    grep -q "workers confined" "$sd/log"
lacks "no warning of a worker's root it may not read" "$sd/log" \
    -E '/proc/[0-9]+/root: Permission denied'
check "it runs as the user" sh -c \
    "[ \"\$(stat -c %u /proc/$spaced_pid)\" = \"\$(id -u $pu)\" ]"
# The state folder named apart from the journal's (which stays the
# default, under HOME): spaced made it only with the install id, kept
# there, and review's quarantine had no folder to go in.
check "its state folder is made, the user's" sh -c \
    "[ \"\$(stat -c %U '$sd/state')\" = '$pu' ]"
check "its journal is the default, under HOME" \
    test -d "$sd/.local/state/spaced/journal"

# --- the native place: root's alone, said so ------------------------
check_refusal "native create is refused: root's place, use -p docker" 1 \
    'sandbox_unavailable: the native place needs spaced run as root.*-p docker' \
    lap_ctl create -p native -n lapn
# No space of the user's: list's head line alone once it reaches the
# engine; before, the engine's containers of this install's owner.
lap_none() { [ "$(lap_ctl list | wc -l)" = 1 ]; }
owner=$IID:$(id -u "$pu")
lap_engine_none() {
	[ -z "$(docker ps -aq --filter "label=spaced.space.owner=$owner")" ]
}
check "and makes no space" lap_engine_none

# --- Docker, the user not yet in its group --------------------------
# The first refusal a user new to Docker meets: it said "cannot
# connect", not why nor what to do.
check_refusal "create before the docker group: permission denied, what to do" 1 \
    "docker_unreachable: spaced cannot connect to the Docker socket: permission denied; the user spaced runs as needs the socket's group \\(docker\\)" \
    lap_ctl create -p docker -n lap0
check "and makes no space (the engine's containers)" lap_engine_none

# --- the Docker place, the user in the docker group ------------------
stop_spaced
usermod -aG docker "$pu" || { not_ok "usermod -aG docker $pu"; finish; }
check "the user's spaced starts again, in the docker group" lap_start
[ -S "$sd/run/spaced.sock" ] || finish
# Controls: the default place its own again, no warning; the engine's
# socket reached, check names no reason for Docker; the native place
# still absent, its reason without the default.
lacks "no warning of the default place (auto)" "$sd/log" -e 'default place'
lap_ctl check >"$work/check2.out" 2>&1
lap_ctl -j check >"$work/check2.json" 2>/dev/null
check "control: check says docker: available, its first line" \
    sh -c "head -1 '$work/check2.out' | grep -qx 'docker: available'"
check "control: check -j: available, no message" jq -e \
    '.available == true and (has("message") | not) and .native.code == "sandbox_unavailable" and (.native.message | test("default place") | not)' \
    "$work/check2.json"
id=$(lap_ctl create -p docker -n lap) || id=
check "create on the Docker place ($id)" test -n "$id"
[ -n "$id" ] || finish
check_fails "control: the engine's containers of the owner show it" \
    lap_engine_none
lap_exec() { lap_ctl exec "$id" id -u | grep -Eq '^[0-9]+$'; }
check "exec runs in the space" lap_exec
lap_exec_i() { echo laptop | lap_ctl exec -i "$id" cat | grep -qx laptop; }
check "exec -i passes stdin" lap_exec_i

plain_repo "$work/repo" "$pu:$gid"
check "code-in of the user's own repository" lap_ctl code-in "$id" "$work/repo"
lap_log() { lap_ctl exec "$id" sh -c 'cd repo && git log --oneline' |
    grep -q one; }
check "the commit is there in the space" lap_log
# Root may ask a plain user's spaced; a spaced-git for root's own
# folder is refused (files starts one as code-in does): that spaced's
# spaced-git is its user's alone, and would read root's folder as that
# user.  The control: the user's files of its own repository.
mkdir -p "$work/rootrepo" && git init -q "$work/rootrepo"
lap_files() { lap_ctl files "$work/repo" >/dev/null; }
check "control: files of the user's own repository" lap_files
check_refusal "root's repository, through the user's spaced: refused, saying why" 1 \
    "repository_not_owned: .*belongs to uid 0: spaced runs as uid $(id -u "$pu"), and a plain user's spaced brings in only that user's repositories" \
    ctl files "$work/rootrepo"

lap_commit() {
	lap_ctl exec "$id" sh -c 'cd repo && echo two >two &&
	    git add two && git -c user.name=a -c user.email=a@x.invalid \
	    commit -qm two && git rev-parse HEAD'
}
tip=$(lap_commit) || tip=
check "the agent commits in the space" test -n "$tip"
lap_review() { lap_ctl review "$id" "$work/repo" >"$work/review" 2>&1; }
check "review shows the work" lap_review
check "... one commit, the space's tip" sh -c \
    "grep -qx '1 commit' '$work/review' && grep -qx 'tip $tip' '$work/review'"
check "apply -b lands the reviewed tip on a new branch" \
    lap_ctl apply -b laptop "$id" "$work/repo"
lap_branch() {
	[ "$(as_user git -C "$work/repo" rev-parse refs/heads/laptop)" = "$tip" ]
}
check "... the user's branch is the space's tip" lap_branch
lap_journal() {
	lap_ctl journal "$id" | grep -q 'code-out apply .* applied refs/heads/laptop'
}
check "journal names the apply" lap_journal
check "journal --verify holds" lap_ctl journal "$id" --verify
# The quarantine of code out is a spaced-git too: without its binary
# (a copied build), review names the exec that failed and why.  The
# review above is the control.
git_bin=$tree/libexec/spaced/spaced-git
mv "$git_bin" "$git_bin.away"
check_refusal "review, spaced-git missing: the quarantine's exec, and why" 1 \
    "git_worker_failed: spaced-git pid [0-9]+ did not start: spaced-launch's child failed at the exec of spaced-git: No such file or directory" \
    lap_ctl review "$id" "$work/repo"
mv "$git_bin.away" "$git_bin"
check "stop" lap_ctl stop "$id"
check "start" lap_ctl start "$id"
check "exec after the start" lap_ctl exec "$id" true
# What the engine holds of the space, by its names.
lap_gone() {
	[ -z "$(docker ps -aq --filter "name=spaced-space-$rid"
	    docker volume ls -q --filter "name=spaced-space-$rid"
	    docker network ls -q --filter "name=spaced-space-$rid")" ]
}
rid=$id
check_fails "control: the engine holds the space by those names" lap_gone
check "control: its quarantine is there before remove" \
    test -d "$sd/state/quarantine/$rid"
check "remove" lap_ctl remove "$id"
id=
check "no container, volume or network of the space is left" lap_gone
check "nor its quarantine" test ! -e "$sd/state/quarantine/$rid"
check "list is empty" lap_none

# --- a spaced-git that dies before it reads its channel ---------------
# It said "git_worker_failed: it went away", and the log "exited with
# status 127": the person needs the step that failed and why.  A copied
# build without spaced-git: spaced-launch's exec of it fails (a real
# early death).  Repositories no instance has served yet.
plain_repo "$work/repo2" "$pu:$gid"
plain_repo "$work/repo3" "$pu:$gid"
mv "$git_bin" "$git_bin.away"
check_refusal "files, spaced-git missing: the exec that failed, and why" 1 \
    "git_worker_failed: spaced-git pid [0-9]+ did not start: spaced-launch's child failed at the exec of spaced-git: No such file or directory" \
    lap_ctl files "$work/repo2"
check "... and spaced's log, with the uid and the folder" grep -Eq \
    "spaced-git [0-9]+ \\(uid $(id -u "$pu"), $work/repo2\\) did not start: spaced-launch's child failed at the exec of spaced-git: No such file or directory" \
    "$sd/log"
# One that runs and ends before it is ready (its start and confinement):
# a program that exits 1 in its place.
cp /bin/false "$git_bin"
check_refusal "one that exits before it is ready: its status, and when" 1 \
    'git_worker_failed: spaced-git pid [0-9]+ exited with status 1 before it was ready' \
    lap_ctl files "$work/repo2"
# A real seccomp kill: a stand-in that makes a socket before READY,
# which spaced-launch's filter (inherited across the exec) forbids.
# Run outside the filter it makes it and exits 3: the control.
hw=$build/regress/tools/hostile-worker
plain_repo "$work/sigsys" "$pu:$gid"
hw_free() { "$hw" -g "$work/sigsys" 3>/dev/null; [ $? = 3 ]; }
check "control: the stand-in, outside the filter, makes its socket" hw_free
cp "$hw" "$git_bin"
check_refusal "one its filter kills before it is ready: SIGSYS by name" 1 \
    'git_worker_failed: spaced-git pid [0-9]+ killed by signal 31 \(SIGSYS: Bad system call, a system call its filter forbids\) before it was ready' \
    lap_ctl files "$work/sigsys"
mv -f "$git_bin.away" "$git_bin"
lap_files3() { lap_ctl files "$work/repo3" >/dev/null; }
check "control: spaced-git back, files of a new repository works" lap_files3

# default place is a live setting: a reload that makes it native warns
# as a start does (this start's log had no warning: the lacks above).
lap_conf "default place native"
kill -HUP "$spaced_pid"
check "a reload to default place native: taken" \
    wait_for 10 grep -q "reload: $sd/spaced.conf: taken" "$sd/log"
check "... and warned of, as at start" grep -q \
    "spaced.conf: default place native: the native place needs spaced run as root" \
    "$sd/log"

finish
