#!/bin/sh
# exec -t under tmux (issue 23): a real terminal (tmux's pane) in front
# of spacectl, a real space behind it.  Keys go in with send-keys, the
# screen is read with capture-pane.  Checked: the command sees a terminal
# of the pane's size, a resize of the pane reaches it, Ctrl-C stops a
# sleep inside and leaves the shell, the exit status passes through, and
# the local terminal's settings are the same before and after (also
# after spacectl is killed by a signal), job control (SIGTSTP, SIGSTOP,
# SIGCONT, fg: the shell's terminal while stopped, raw again after; a
# read in the background stops it, never ends its input), a piped
# stdin's end ends cat, spaced's cap on a flood of resizes' engine
# connections.
dir=$(cd "$(dirname "$0")" && pwd)
# Docker: the engine behind a recorder (agent/engine_record.py, a file a
# connection), for the resize flood's count below; while $T/engine.close
# is there it closes each resize's connection after its answer.
contract_tree() {
	[ "$PLACE" = docker ] || return 0
	mkdir -p "$T/engine"
	python3 "$dir/../agent/engine_record.py" serve "$T/engine.sock" \
	    /var/run/docker.sock "$T/engine" "$T/engine.close" \
	    >"$T/engine.log" 2>&1 &
	rec_pid=$!
	wait_for 5 test -S "$T/engine.sock"
	SPACED_EXTRA_CONF="docker socket \"$T/engine.sock\""
}
. "$dir/../contract/lib.sh"

command -v tmux >/dev/null || { not_ok "tmux is installed (tools/deps.sh)"; finish; }
TS="spaced-tty-$$"
TM() { tmux -L "$TS" "$@"; }
tty_gone() {
	TM kill-server 2>/dev/null
	[ -z "${rec_pid:-}" ] || kill "$rec_pid" 2>/dev/null
}
at_finish tty_gone

id=$(sc create -n tty) || { not_ok "create"; finish; }
ok "create ($id)"

# A pane of a known size, a plain sh in it (no rc files to race).
TM -f /dev/null new-session -d -s t -x 100 -y 30 "env PS1='host\$ ' sh" ||
    { not_ok "tmux starts"; finish; }
TM set-option -g status off
screen() { TM capture-pane -p -t t; }
# seen TEXT: the pane shows a line holding TEXT (within 20 s)
seen() { wait_for 20 sh -c "tmux -L '$TS' capture-pane -p -t t | grep -qF -- \"\$1\"" _ "$1"; }
# seen_n TEXT N: TEXT on at least N lines
seen_n() { wait_for 20 sh -c "test \$(tmux -L '$TS' capture-pane -p -t t | grep -cF -- \"\$1\") -ge $2" _ "$1"; }
keys() { TM send-keys -t t "$@"; }
# at PROMPT: the pane's last line that is not empty is PROMPT, alone
at() { wait_for 20 sh -c "tmux -L '$TS' capture-pane -p -t t | grep -v '^ *\$' | tail -n 1 | grep -qx -- \"\$1 *\"" _ "$1"; }
SC="'$tree/bin/spacectl' -s '$sd/run/spaced.sock'"

check "the host shell is up" at 'host\$'
keys "stty -a > $T/stty.before; echo saved-before" Enter
check "stty -a of the pane saved" seen_n saved-before 2
keys "$SC exec $id -t -- env PS1='in''side\$ ' bash --norc -i" Enter
check "a shell inside, on the pane" at 'inside\$'
keys "tty; echo tty-done" Enter
check "tty: a terminal (/dev/pts/N)" seen '/dev/pts/'
keys "stty size" Enter
check "stty size inside equals the pane (30 100)" seen '30 100'
TM resize-window -t t -x 120 -y 40 2>/dev/null ||
    TM resize-pane -t t -x 120 -y 40
# The size goes its own way (a call of the engine's), the keys theirs:
# ask again until it arrived.  Short waits on purpose: an answer that
# came before the size is not drawn again, so each round asks anew
# (60 s in all).
# resized ROWS COLS: stty size inside says so
resized() {
	for _r in $(seq 30); do
		keys "stty size" Enter
		wait_short 2 sh -c "tmux -L '$TS' capture-pane -p -t t | grep -qx '$1 $2'" &&
		    return 0
	done
	return 1
}
check "the resize is seen inside (40 120)" resized 40 120
# Ctrl-C once the sleep runs inside (at the prompt it would give 130
# too); the waits guard against a hang.
# sleeps: "yes" or "no", as the space's /proc says (empty: exec failed)
sleeps() {
	sc exec "$id" -- /bin/sh -c 'for f in /proc/[0-9]*/cmdline; do
	    [ "$(tr "\0" " " <$f 2>/dev/null)" = "sleep 600 " ] &&
	    { echo yes; exit 0; }; done; echo no'
}
sleep_is() { [ "$(sleeps)" = "$1" ]; }
keys "sleep 600" Enter
check "the sleep runs inside (control)" wait_for 60 sleep_is yes
keys C-c
keys "echo after-sleep-\$?" Enter
check "Ctrl-C stops the sleep inside (status 130)" seen 'after-sleep-130'
# A Ctrl-C that killed spacectl says 130 too (the host shell's $?), and
# the sleep ends with it: the prompt tells whose Ctrl-C it was.
check "  the shell inside's, spacectl goes on (its prompt)" at 'inside\$'
check "... and it is gone" sleep_is no
keys "echo still-here" Enter
check "and the shell inside goes on" seen_n 'still-here' 2
keys "exit 7" Enter
check "back on the host" at 'host\$'
keys "echo status-\$?" Enter
check "the exit status passed through (7)" seen 'status-7'
keys "stty -a > $T/stty.after; echo saved-after" Enter
check "stty -a saved after" seen_n saved-after 2
# The pane's size changed on purpose: the rest must be as it was.
check "the local terminal is as it was (stty -a, but its size)" \
    sh -c "test \"\$(sed 's/rows [0-9]*; columns [0-9]*;//' $T/stty.before)\" = \"\$(sed 's/rows [0-9]*; columns [0-9]*;//' $T/stty.after)\""

# Job control, (a): a SIGTSTP (someone's kill: in raw mode Ctrl-Z is a
# byte for the space) gives the pane's shell its terminal as it was
# while spacectl is stopped; fg makes it raw again, with the size the
# pane got meanwhile (no SIGWINCH reached spacectl: the shell had the
# terminal).  The pane's sh (dash) sets no mode of its own.
pts=$(TM display -p -t t '#{pane_tty}')
# raw: the pane's terminal is raw (Ctrl-C no signal); cooked: it is not
raw() { stty -F "$pts" -a | grep -qE '(^| )-isig( |;|$)'; }
cooked() { ! raw; }
# stopped PID: that process is stopped (T)
stopped() { [ "$(ps -o stat= -p "$1" | cut -c1)" = T ]; }
keys "$SC exec $id -t -- env PS1='st''op\$ ' bash --norc -i" Enter
check "a shell inside, to stop" at 'stop\$'
pid=$(pgrep -f "exec $id -t -- env PS1=stop" | head -n 1)
check "spacectl runs (pid ${pid:-none})" test -n "$pid"
check "the pane's terminal is raw (control)" raw
[ -n "$pid" ] && kill -TSTP "$pid"
check "SIGTSTP: spacectl stops, the host's prompt" at 'host\$'
keys "stty -a > $T/stty.tstp; echo saved-tstp" Enter
check "stty -a saved while spacectl is stopped" seen_n saved-tstp 2
check "SIGTSTP: the shell's terminal is as it was (stty -a, but its size)" \
    sh -c "test \"\$(sed 's/rows [0-9]*; columns [0-9]*;//' $T/stty.before)\" = \"\$(sed 's/rows [0-9]*; columns [0-9]*;//' $T/stty.tstp 2>/dev/null)\""
# A terminal left raw (what this checks) holds the line typed above
# unread by sh: made sane from outside and that line dropped (Ctrl-C),
# the rest can go on.
cooked || { stty -F "$pts" sane; keys C-c; }
TM resize-window -t t -x 90 -y 25 2>/dev/null ||
    TM resize-pane -t t -x 90 -y 25
keys "fg" Enter
check "fg after SIGTSTP: the terminal is raw again" wait_for 20 raw
keys "echo typed-after-fg" Enter
check "  a keystroke reaches the shell inside, its echo comes back" \
    seen_n typed-after-fg 2
check "  the size set while it was stopped is seen inside (25 90)" \
    resized 25 90
keys "exit 0" Enter
check "  and the shell inside ends as ever" at 'host\$'

# Job control, (b): SIGSTOP is not caught.  A job-control shell (bash)
# takes the terminal back in its own mode meanwhile; kill -CONT from
# outside continues spacectl in the background, where it leaves the
# shell's terminal alone and stops again (as SIGTTOU stops a program
# that sets the terminal from there); fg makes it raw again: Ctrl-C is
# a byte for the sleep inside, and spacectl goes on.
keys "env PS1='job\$ ' bash --norc --noprofile" Enter
check "a job-control shell on the host (bash)" at 'job\$'
keys "$SC exec $id -t -- env PS1='cont''inued\$ ' bash --norc -i" Enter
check "a shell inside, to stop and continue" at 'continued\$'
pid=$(pgrep -f "exec $id -t -- env PS1=continued" | head -n 1)
check "spacectl runs (pid ${pid:-none})" test -n "$pid"
keys "sleep 600" Enter
check "the sleep runs inside (control)" wait_for 60 sleep_is yes
[ -n "$pid" ] && kill -STOP "$pid"
check "SIGSTOP: bash has the terminal again" at 'job\$'
[ -n "$pid" ] && kill -CONT "$pid"
check "kill -CONT, in the background: spacectl stops again" \
    wait_for 20 stopped "$pid"
check "  and leaves the shell's terminal in its mode (isig)" cooked
keys "fg" Enter
check "fg after SIGSTOP: the terminal is raw again" wait_for 20 raw
keys C-c
check "Ctrl-C after SIGSTOP and fg stops the sleep inside" \
    wait_for 60 sleep_is no
check "  and spacectl goes on: the shell inside" at 'continued\$'
# (a spacectl that Ctrl-C ended left bash at its prompt: no exit for it)
! kill -0 "$pid" 2>/dev/null || keys "exit 0" Enter
check "  which ends as ever, back in bash" at 'job\$'
keys "exit" Enter
check "back on the host" at 'host\$'

# Job control, (c): started in the background (&), spacectl leaves the
# shell's terminal alone and stops (SIGTTOU, as the kernel stops a
# program that sets the terminal from there); fg gives it the terminal.
keys "$SC exec $id -t -- env PS1='back''ground\$ ' bash --norc -i &" Enter
# bgpid: the pid of that spacectl
bgpid() { pgrep -f "exec $id -t -- env PS1=background" | head -n 1; }
wait_for 20 sh -c "pgrep -f 'exec $id -t -- env PS1=background' >/dev/null"
pid=$(bgpid)
check "started with &: spacectl runs (pid ${pid:-none})" test -n "$pid"
check "  and stops" wait_for 20 stopped "$pid"
check "  leaving the shell's terminal as it was (isig)" cooked
# (a terminal made raw from the background: sane again for the rest)
cooked || stty -F "$pts" sane
keys "fg" Enter
check "fg: the shell inside" at 'background\$'
check "  on a raw terminal" raw
keys "exit 0" Enter
check "  and back on the host" at 'host\$'

# Job control, (d): a read of the terminal in the background (a stop
# between spacectl's poll and its read, then a continue once the shell
# took the terminal) meets EIO, which is not the input's end: spacectl
# stops as SIGTTIN stops a program, and fg brings the line typed
# meanwhile in.  Under a pty of ttin.py's own, which moves the
# foreground away (tcsetpgrp) while a line waits to be read.
python3 "$dir/ttin.py" "$tree/bin/spacectl" "$sd/run/spaced.sock" "$id" \
    >"$T/ttin" 2>&1
sed 's/^/# /' "$T/ttin"
check "a read in the background meets EIO, SIGTTIN blocked (control)" \
    grep -qx 'control: a background read with SIGTTIN blocked gets EIO' "$T/ttin"
check "  a line typed in the foreground reaches the command (control)" \
    grep -qx 'foreground: a line reaches the command' "$T/ttin"
check "spacectl's read in the background stops it (SIGTTIN)" \
    grep -qx 'background read: stopped by SIGTTIN' "$T/ttin"
check "  fg: the line typed while it was stopped reaches the command" \
    grep -qx 'fg: the line typed in the background reaches the command' "$T/ttin"
check "  and the next one, its input never ended" \
    grep -qx 'fg: a line typed after it reaches the command' "$T/ttin"
check "  Ctrl-D ends the command, spacectl exits 0" \
    grep -qx 'Ctrl-D: spacectl exits 0' "$T/ttin"
# The same in an orphaned process group (its parent gone), where the
# kernel drops SIGTTIN and stops no one: the input waits, unread, until
# the terminal is spacectl's again.  A window of 2 s, not a measure:
# held, spacectl reads the terminal not once in it; reading it again
# and again on each EIO, thousands of times.
python3 "$dir/ttin.py" "$tree/bin/spacectl" "$sd/run/spaced.sock" "$id" \
    orphan >"$T/ttin.o" 2>&1
sed 's/^/# /' "$T/ttin.o"
check "orphaned: its read in the background met EIO (control)" \
    grep -qx 'orphaned: the background read met EIO' "$T/ttin.o"
check "  no read of the terminal while it is in the background" \
    grep -qx 'orphaned: no read of the terminal while in the background (0 in 2 s)' "$T/ttin.o"
check "  fg: the line typed meanwhile reaches the command" \
    grep -qx 'orphaned fg: the line typed in the background reaches the command' "$T/ttin.o"
check "  Ctrl-D ends the command" \
    grep -qx 'orphaned: Ctrl-D ends the command' "$T/ttin.o"

# Ctrl-D ends the shell inside like exit 0.
keys "$SC exec $id -t -- env PS1='ag''ain\$ ' bash --norc -i" Enter
check "a second shell inside" at 'again\$'
keys C-d
check "Ctrl-D ends it: the host's prompt again" at 'host\$'
keys "echo d-status-\$?" Enter
check "with status 0" seen 'd-status-0'

# A signal that ends spacectl leaves the terminal as it was.
keys "$SC exec $id -t -- sleep 600" Enter
# Once its command runs inside, spacectl's handlers are in place.
# running ARG: a "sleep ARG" runs inside (an earlier one may too)
running() {
	"$tree/bin/spacectl" -s "$sd/run/spaced.sock" exec "$id" -n -- sh -c \
	    "cat /proc/[0-9]*/cmdline | tr '\\0' ' ' | grep -q 'sleep $1 '"
}
# gone PID: spacectl has ended (the keys after it are the shell's)
gone() { ! kill -0 "$1" 2>/dev/null; }
wait_for 30 running 600 >/dev/null
pid=$(pgrep -f "exec $id -t -- sleep 600" | head -n 1)
check "spacectl runs (pid ${pid:-none})" test -n "$pid"
[ -n "$pid" ] || screen | sed 's/^/# /'
[ -n "$pid" ] && kill -TERM "$pid" && wait_for 20 gone "$pid"
keys "stty -a > $T/stty.term; echo saved-term" Enter
check "stty -a saved after SIGTERM" seen_n saved-term 2
check "SIGTERM: the local terminal is as it was" \
    sh -c "test \"\$(sed 's/rows [0-9]*; columns [0-9]*;//' $T/stty.before)\" = \"\$(sed 's/rows [0-9]*; columns [0-9]*;//' $T/stty.term)\""

# A failure spacectl reports (here -T's) is printed once the terminal is
# back as it was: in raw mode its newline had no carriage return, and the
# host's prompt came after it at the message's last column.
keys clear Enter
keys "$SC exec $id -t -T 1 -- sleep 602" Enter
check "exec -t -T 1: its failure is said (command_timeout)" seen 'command_timeout'
check "and the host's prompt is at the start of the next line" at 'host\$'

# The control: SIGKILL leaves no way to restore it, and the check sees it.
keys "$SC exec $id -t -- sleep 601" Enter
wait_for 30 running 601 >/dev/null
pid=$(pgrep -f "exec $id -t -- sleep 601" | head -n 1)
[ -n "$pid" ] && kill -KILL "$pid" && wait_for 20 gone "$pid"
keys "stty -a > $T/stty.kill; echo saved-kill" Enter
keys "stty sane" Enter
# Short on purpose (not wait_for's floor): the raw terminal runs no
# line, so this file never comes in a green run; the wait only gives a
# terminal that was restored the time to write it.
wait_short 20 test -s "$T/stty.kill"
check_fails "SIGKILL: the terminal stays raw, and the check sees it (control)" \
    sh -c "test \"\$(sed 's/rows [0-9]*; columns [0-9]*;//' $T/stty.before)\" = \"\$(sed 's/rows [0-9]*; columns [0-9]*;//' $T/stty.kill)\""

# Without a terminal on our side: still one inside, the status too.
check "exec -t without a local terminal: tty inside" sh -c \
    "$SC exec $id -t -- tty </dev/null | grep -q '^/dev/pts/'"
sc exec "$id" -t -- sh -c 'exit 3' </dev/null >/dev/null
check "exec -t: the exit status (3)" test $? -eq 3
# A piped stdin's end reaches the terminal inside as its EOF (Ctrl-D;
# twice after a partial line): cat ends, echoed and copied.  timeout
# only keeps a regression from hanging the suite.
printf 'hi\n' | timeout 60 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" \
    exec "$id" -t -- cat >"$T/pipe.out"
check "exec -t, stdin a pipe: its end ends cat (status 0)" test $? -eq 0
check "exec -t, stdin a pipe: the line echoed and copied" sh -c \
    "tr -d '\\r' <'$T/pipe.out' | grep -c '^hi\$' | grep -qx 2"
check "exec -t, stdin a pipe, a partial line: its end ends cat" sh -c \
    "printf 'part' | timeout 60 $SC exec $id -t -- cat | grep -q '^partpart'"
printf 'x\n' | timeout 60 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" \
    exec "$id" -t -- sh -c 'cat >/dev/null; exit 5' >/dev/null
check "exec -t, stdin a pipe: the command's status after its end (5)" \
    test $? -eq 5
check "exec without -t: no terminal inside" sh -c \
    "! $SC exec $id -n -- tty >/dev/null"
# A resize is its exec's client's alone: another client naming that
# exec's stream is cut off; the client's own resize (the control) works.
python3 "$dir/resize_owner.py" "$sd/run/spaced.sock" "$id" >"$T/owner" 2>&1
sed 's/^/# /' "$T/owner"
check "a resize of another client's exec: that client is cut off" \
    grep -qx 'B: closed' "$T/owner"
check "the exec's own client resizes it (control)" grep -qx 'A: resized' "$T/owner"
check "the other client's size never reached the terminal" \
    grep -qx 'A: never saw 33 77' "$T/owner"

# A flood of resizes on one exec (review F7).  Each size used to cost
# the engine a connection of its own (spaced raised the exec's cap by
# one a resize): 3000 sizes, a few hundred connections.  Now the exec's
# resizes share the one spaced-docker keeps, and spaced adds at most 4
# to the cap.  The recorder counts the connections that carried a
# resize of the flood; the last size reaches the terminal inside.
n0=$(ls "$T/engine" 2>/dev/null | wc -l)
python3 "$dir/resize_flood.py" "$sd/run/spaced.sock" "$id" 3000 >"$T/flood" 2>&1
sed 's/^/# /' "$T/flood"
check "a flood of 3000 resizes: the last size is seen inside" \
    grep -qx 'final: seen' "$T/flood"
if [ "$PLACE" = docker ]; then
	rz_conns=0 rz_calls=0
	for f in "$T"/engine/*.up; do
		k=${f##*/} && k=${k%.up}
		[ "$k" -gt "$n0" ] || continue
		c=$(grep -ac '/resize?' "$f")
		[ "$c" -gt 0 ] || continue
		rz_conns=$((rz_conns + 1)) rz_calls=$((rz_calls + c))
	done
	check "  the engine saw the flood's resizes (control: $rz_calls calls)" \
	    test "$rz_calls" -ge 1
	check "  on at most 4 engine connections ($rz_conns)" \
	    test "$rz_conns" -le 4
fi
# spaced's own cap on them: an engine that closes each resize's
# connection after its answer makes spaced-docker ask spaced for a new
# one a size; spaced gives an exec its 8 and at most 4 more for its
# resizes (EXEC_RESIZE_CONNS_MAX), then answers without one and says so.
if [ "$PLACE" = docker ]; then
	rz_count() {
		rz_conns=0
		for f in "$T"/engine/*.up; do
			k=${f##*/} && k=${k%.up}
			[ "$k" -gt "$n0" ] && grep -aq '/resize?' "$f" &&
			    rz_conns=$((rz_conns + 1))
		done
	}
	n0=$(ls "$T/engine" 2>/dev/null | wc -l)
	w0=$(grep -c 'engine connections: answered without' "$sd/log")
	: >"$T/engine.close"
	python3 "$dir/resize_flood.py" "$sd/run/spaced.sock" "$id" 3000 \
	    >"$T/flood.close" 2>&1 &
	fl_pid=$!
	check "an engine that closes each resize's connection: spaced refuses the exec's next past its cap" \
	    wait_for 60 sh -c "test \$(grep -c 'engine connections: answered without' '$sd/log') -gt $w0"
	rz_count
	check "  each resize on a connection of its own (control: $rz_conns)" \
	    test "$rz_conns" -ge 2
	check "  at most 12 connections carried them (8 an exec's, 4 more; $rz_conns)" \
	    test "$rz_conns" -le 12
	kill "$fl_pid" 2>/dev/null
	wait "$fl_pid" 2>/dev/null
	rm -f "$T/engine.close"
fi

# create --code DIR: the folder's code goes in as part of create.
repo=$T/repo
git init -q "$repo" && printf 'code-%s\n' "$$" >"$repo/marker.txt" &&
    git -C "$repo" add marker.txt &&
    git -C "$repo" -c user.name=t -c user.email=t@example.org commit -qm one
cid=$(sc create -n code --code "$repo")
check "create --code: prints the id alone ($cid)" \
    sh -c "printf %s '$cid' | grep -Eqx '[0-9a-f]{12}'"
check "create --code: the folder's code is in the space" \
    sh -c "$SC exec $cid -n -- grep -rqx 'code-$$' /spaces/$cid"
[ -n "$cid" ] && sc remove "$cid" >/dev/null
n0=$(sc -j list | jq length)
mkdir -p "$T/norepo"
sc create -n nocode --code "$T/norepo" >"$T/nocode.out" 2>"$T/nocode.err"
rc=$?
check "create --code of a folder without a repository fails ($rc)" test "$rc" -ne 0
check "and makes no space" test "$(sc -j list | jq length)" = "$n0"
# A folder that is not there: named (it said only "No such file or
# directory").
sc create -n nodir --code "$T/no-such-dir" >/dev/null 2>"$T/nodir.err"
check "create --code of a missing folder names it" \
    grep -qx "spacectl: project_folder_missing: $T/no-such-dir: No such file or directory" "$T/nodir.err"
check "  and makes no space" test "$(sc -j list | jq length)" = "$n0"

# The pane, for a look when something failed.
[ "$fail" -eq 0 ] || screen | sed 's/^/# /'
check "remove" sc remove "$id"
finish
