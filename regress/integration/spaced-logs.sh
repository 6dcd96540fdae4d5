#!/bin/sh
# spaced's log is root's: a repository's owner may not write, truncate or
# forge lines in it.  A spaced-git, which runs as that owner, holds no fd
# of the log (fds 0-2 are /dev/null) and cannot be traced by its owner; a
# folder name with a newline is logged escaped; at the operator's
# terminal spacectl escapes a name's control characters.  Each with a
# control: spaced's fd 2 is the log, the owner traces a process of their
# own, the escaped name reaches the log, piped and -j output stay exact.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "needs root (a repository of another uid)"
	finish
fi
make_tree
work=$(mktemp -d /tmp/spaced-logs.XXXXXX)
chmod 0755 "$work"
trap 'stop_spaced; [ -n "${KEEP:-}" ] || rm -rf "$tree" "$work"' EXIT
sd=$tree/s1
nobody_uid=$(id -u nobody)
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
ctl_nobody() { as_nobody "$tree/bin/spacectl" -s "$sd/run/spaced.sock" "$@"; }

# attach pid: PTRACE_ATTACH as nobody, then detach; 0 when it worked
cat >"$work/attach.py" <<'EOP'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
pid = int(sys.argv[1])
if libc.ptrace(16, pid, None, None) != 0:	# PTRACE_ATTACH
	print("# attach %d: %s" % (pid, os.strerror(ctypes.get_errno())))
	sys.exit(1)
os.waitpid(pid, 0)
libc.ptrace(17, pid, None, None)		# PTRACE_DETACH
EOP
attach() { as_nobody /usr/bin/python3 "$work/attach.py" "$1"; }
# fd_is pid n file: the process's fd n is that file
fd_is() { [ "$(readlink "/proc/$1/fd/$2")" = "$3" ]; }
fd_not() { [ -e "/proc/$1/fd/$2" ] && ! fd_is "$@"; }

SPACED_V=-v
check "spaced starts (-d -v, its log in a file)" start_spaced "$sd"
log=$(readlink -f "$sd/log")
check "control: spaced's own fd 2 is the log file" fd_is "$spaced_pid" 2 "$log"

# A repository of nobody's whose folder name carries a log line.
forged="FORGED spaced-git[1]: root logged in"
repo="$work/repo
$forged"
mkdir -p "$repo"
(cd "$repo" && git init -q && echo a >a)
chown -R nobody:nogroup "$work/repo"*
ctl_nobody -j files "$repo" >"$work/files.json" 2>"$work/files.err"
jqt() { jq -e "$2" "$1" >/dev/null; }
check "nobody lists their repository" jqt "$work/files.json" \
    '.files | length == 1'
# Ours: the child of our spaced's spaced-launch (other spaceds may run).
launch=$(pgrep -P "$spaced_pid" -x spaced-launch)
p=$(pgrep -P "${launch:-0}" -u "$nobody_uid" -x spaced-git | head -n 1)
check "its spaced-git runs as nobody" test -n "$p"

# --- the log is no fd of the owner's process --------------------------
for n in 0 1 2; do
	check "spaced-git's fd $n is not the log" fd_not "${p:-0}" $n "$log"
	check "spaced-git's fd $n is /dev/null" fd_is "${p:-0}" $n /dev/null
done
for w in $(worker_pids); do
	check "worker $w: fd 2 is not the log" fd_not "$w" 2 "$log"
done

# --- its owner cannot trace it -----------------------------------------
setpriv --reuid=nobody --regid=nogroup --clear-groups sleep 60 &
sleeper=$!
check "control: nobody traces a process of their own" attach "$sleeper"
# Not dumpable: the kernel gives the files of its /proc/PID to root.
check "control: that process's /proc/PID/status is nobody's" test \
    "$(stat -c %u "/proc/$sleeper/status")" = "$nobody_uid"
kill "$sleeper" 2>/dev/null; wait "$sleeper" 2>/dev/null
check "spaced-git is not dumpable: its /proc/PID/status is root's" test \
    "$(stat -c %u "/proc/${p:-0}/status" 2>/dev/null)" = 0
if attach "${p:-0}"; then
	not_ok "PTRACE_ATTACH as nobody on their spaced-git fails"
else
	ok "PTRACE_ATTACH as nobody on their spaced-git fails"
fi

# --- a newline in a folder name forges no line --------------------------
check "the name reaches the log escaped (control)" \
    grep -qF 'repo\nFORGED spaced-git' "$log"
check "a worker's line reaches it under the worker's name, escaped" \
    grep -qE '^parent\[[0-9]+\]: launch: launch\[[0-9]+\]: spaced-git [0-9]+ for .*/repo\\nFORGED' "$log"
check "and starts no line of its own" sh -c "! grep -q '^FORGED' '$log'"

# --- the operator's terminal: control characters escaped there only ---
# A file whose name retitles the window and fakes a line of the listing.
term=$work/term
mkdir -p "$term"
(cd "$term" && git init -q)
evil=$(printf 'evil\033]0;pwned\007\nFAKE')
: >"$term/$evil"
ctl files "$term" >"$work/piped" 2>/dev/null
check "control: piped, the name is exact (the raw ESC is there)" \
    grep -q "$(printf '\033')" "$work/piped"
ctl -j files "$term" >"$work/term.json" 2>/dev/null
check "control: -j keeps the name exact" jqt "$work/term.json" \
    ".files[0].path == \"evil\\u001b]0;pwned\\u0007\\nFAKE\""
# script(1) gives spacectl a terminal; what it printed lands in the file.
script -qec "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' files '$term'" \
    "$work/tty" >/dev/null 2>&1 </dev/null
check "at a terminal, no ESC or BEL reaches it" sh -c \
    "[ -s '$work/tty' ] && ! grep -q '[$(printf '\033\007')]' '$work/tty'"
check "and the name shows escaped, on one line" \
    grep -qF 'evil\033]0;pwned\007\012FAKE' "$work/tty"

stop_spaced
finish
