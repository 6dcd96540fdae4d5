#!/bin/sh
# The spaced-git instances against a hostile local user (issue 27):
# a user who stops (SIGSTOP) the spaced-git started as them must not
# fill spaced-launch's slots nor starve root or another user, and the
# freed ones must end; spaced-launch must not tell a user what lies
# under a folder they cannot search (the same answer as a missing one).
# Makes a local user of its own, removed at the end.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "needs root (a second local user)"
	finish
fi
make_tree
work=$(mktemp -d /tmp/spaced-gitusers.XXXXXX)
chmod 0755 "$work"
u=sgu$$
cleanup() {
	for p in $plain_holders; do kill "$p" 2>/dev/null; done
	plain_users_kill
	stop_spaced
	plain_users_del
	[ -n "${KEEP:-}" ] || rm -rf "$tree" "$work"
}
trap cleanup EXIT
plain_users "$u"
sd=$tree/s1
sock=$sd/run/spaced.sock

# A files request made by hand (spacectl resolves the path itself, as
# the caller, so it never names a folder the caller cannot reach):
# prints the refusal's code and message (the path as PATH), or "end".
cat >"$work/files.py" <<'PY'
import os, socket, struct, sys
HDR = struct.Struct("=IHHII")
FILES, DATA, END, FAIL, DONE_SIZE = 118, 200, 201, 202, 328
path = sys.argv[2]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
body = path.encode().ljust(4096, b"\0") + b"\0" * 20
s.sendall(HDR.pack(FILES, HDR.size + len(body), 0, 1 << 8 | int(os.environ["CTL_VERSION"]), 0) + body)
s.settimeout(30)
buf, done = b"", ""
while True:
    d = s.recv(65536)
    if not d:
        sys.exit("closed")
    buf += d
    while len(buf) >= HDR.size:
        t, l, _, _, _ = HDR.unpack(buf[:HDR.size])
        if len(buf) < l:
            break
        b, buf = buf[HDR.size:l], buf[l:]
        if t == DATA and len(b) == DONE_SIZE:
            code = b[:64].split(b"\0")[0].decode()
            msg = b[68:68 + 256].split(b"\0")[0].decode()
            done = "%s: %s" % (code, msg.replace(path, "PATH"))
        elif t == END:
            print("end"); sys.exit(0)
        elif t == FAIL:
            print(done or b.split(b"\0")[0].decode()); sys.exit(0)
PY
chmod 0644 "$work/files.py"
raw_as() { plain_as "$1" /usr/bin/python3 "$work/files.py" "$sock" "$2"; }

check "spaced starts" start_spaced "$sd"

mkdir -p "$work/u" "$work/n"
chown "$u" "$work/u"; chown nobody "$work/n"
plain_repo "$work/root-repo" root

# --- the directory oracle (first: a full spaced-launch answers busy) ------
mkdir -p "$work/closed/dir" "$work/open/dir" "$work/grp/dir" "$work/u/home/r"
chown -R nobody "$work/closed" "$work/open" "$work/grp"
chmod 0700 "$work/closed"; chmod 0755 "$work/open"
chgrp "$(id -g "$u")" "$work/grp"; chmod 0710 "$work/grp"
plain_repo "$work/u/home/r" "$u"; chown "$u" "$work/u/home"; chmod 0700 "$work/u/home"
raw_as "$u" "$work/closed/missing" >"$work/o-missing"
raw_as "$u" "$work/closed/dir" >"$work/o-closed"
raw_as "$u" "$work/open/dir" >"$work/o-open"
raw_as "$u" "$work/grp/dir" >"$work/o-grp"
raw_as "$u" "$work/u/home/r" >"$work/o-own"
check "a missing folder under another's 0700 folder: project_folder_missing" \
    grep -q '^project_folder_missing: ' "$work/o-missing"
check "an existing one there: the same answer, word for word" \
    cmp -s "$work/o-missing" "$work/o-closed"
check "one under a folder the user may search: its owner (control)" \
    grep -q "^repository_not_owned: .*uid $(id -u nobody)" "$work/o-open"
check "searchable through the user's group (0710): its owner too" \
    grep -q "^repository_not_owned: " "$work/o-grp"
check "the user's own repository under its own 0700 folder: answered" \
    grep -qx end "$work/o-own"
check "root is told the owner of a folder under a 0700 folder" \
    sh -c "/usr/bin/python3 '$work/files.py' '$sock' '$work/closed/dir' |
    grep -q '^not_a_git_work_tree\|^repository_not_owned\|^end'"


# --- the finding: stopped instances that spaced freed fill spaced-launch --
# Each files starts a spaced-git as the user; the user stops it.  spaced
# frees idle ones (at its per-caller cap, and after 30 s); a freed one it
# did not kill stayed, stopped, in one of spaced-launch's 32 slots.
for i in $(seq 1 40); do
	plain_repo "$work/u/r$i" "$u"
	plain_ctl "$u" files "$work/u/r$i" >/dev/null 2>&1
	p=$(plain_inst "$u" "$work/u/r$i")
	[ -n "$p" ] && kill -STOP $p
done
check "the freed ones are killed: at most 8 left as the user" \
    wait_for 20 sh -c "[ \$(pgrep -u $u -f '^spaced-git -g ' | wc -l) -le 8 ]"
check "root's files still works after the user's flood" \
    sh -c "ctl() { \"$tree/bin/spacectl\" -s \"$sock\" \"\$@\"; }; ctl -j files '$work/root-repo' >/dev/null"

# --- the caps: a user holds as many busy instances as it may ------------
held=0
for i in $(seq 1 8); do
	plain_repo "$work/u/h$i" "$u"
	plain_hold "$u" "$work/u/h$i" && held=$((held + 1))
done
check "the user holds 8 busy instances (control)" test "$held" -eq 8
plain_repo "$work/u/h9" "$u"
check "its ninth is refused: busy (8 a caller)" sh -c \
    "setpriv --reuid=$u --regid=\$(id -g $u) --clear-groups \
    '$tree/bin/spacectl' -s '$sock' files '$work/u/h9' 2>&1 |
    grep -q '^spacectl: busy'"
plain_repo "$work/n/own" nobody
check "another plain user still lists its own repository" \
    sh -c "ctl_n() { setpriv --reuid=nobody --regid=nogroup --clear-groups \
    '$tree/bin/spacectl' -s '$sock' \"\$@\"; }; ctl_n -j files '$work/n/own' |
    jq -e '.files | length == 0' >/dev/null"
nheld=0
for i in $(seq 1 4); do
	plain_repo "$work/n/h$i" nobody
	plain_hold nobody "$work/n/h$i" && nheld=$((nheld + 1))
done
check "a second user holds 4 more (control)" test "$nheld" -eq 4
# spaced-launch's row of status: the instances, live and waiting.
instances_say() { ctl status | grep -q "^spaced-launch .* $1"; }
check "12 for plain users in all" instances_say "12 plain, 0 waiting"
# Its fifth, under its share (6 of 12 for two): it waits, not busy
# (spaced-gitfair.sh follows one to its end); its client leaves.
plain_repo "$work/n/h5" nobody
setpriv --reuid=nobody --regid=nogroup --clear-groups \
    "$tree/bin/spacectl" -s "$sock" files "$work/n/h5" >/dev/null 2>&1 &
fifth=$!
check "the second user's fifth waits: no 13th plain instance" \
    wait_for 20 instances_say "12 plain, 1 waiting"
kill "$fifth"
check "a wait whose client left is dropped" \
    wait_for 20 instances_say "12 plain, 0 waiting"
# A repository root has no instance for yet: a new one must start.
plain_repo "$work/root-repo2" root
check "root lists its repository while plain users hold all they may" \
    sh -c "'$tree/bin/spacectl' -s '$sock' -j files '$work/root-repo2' |
    jq -e '.files | length == 0' >/dev/null"

# --- freed instances end: killed and reaped ------------------------------
for p in $plain_holders; do kill "$p" 2>/dev/null; done
plain_holders=""
check "the clients that held them are gone (control)" \
    wait_for 10 sh -c "! pgrep -f '^$tree/bin/spacectl' >/dev/null"
check "once freed (their requests gone, 30 s idle), none is left as the user" \
    wait_for ${IDLE_WAIT:-90} sh -c "[ \$(pgrep -u $u -f '^spaced-git -g ' | wc -l) -eq 0 ]"
# What is left, and what spaced said of it, when something is.
for p in $(pgrep -u "$u" -f '^spaced-git -g '); do
	echo "    left: $(ps -o pid=,stat=,args= -p "$p")"
	grep "spaced-git $p\b" "$sd/log" | sed 's/^/    log: /'
done
check "nor as the second user" \
    wait_for 20 sh -c "! pgrep -u nobody -f '^spaced-git -g $work' >/dev/null"
check "and spaced still serves" ctl status

stop_spaced
finish
