#!/bin/sh
# spaced under many requests at once and under hostile peers: a client that
# never reads, a request longer than the idle timeout, a client that leaves
# mid-request, several requests and streams in flight, and a compromised
# worker that answers what it was not asked.  Each hostile case has its
# positive control beside it.  Needs root (a second uid, the workers' users).
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "needs root (a second uid for the hostile client)"
	finish
fi
sh "$top/tools/users.sh" >/dev/null
make_tree
trap 'stop_spaced; rm -rf "$tree"' EXIT
sd=$tree/s1
raw() { python3 "$top/regress/integration/ctl_raw.py" "$sd/run/spaced.sock" "$@"; }
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$spaced_pid/status"; }
nfds() { ls "/proc/$spaced_pid/fd" | wc -l; }
# field of spaced's own row in status -j: clients, requests, streams
count() { ctl -j status | jq ".processes[0].$1"; }
git_pid() { ctl -j status | jq '.processes[] | select(.name == "spaced-git") | .pid'; }
utime() { awk '{ print $14 }' "/proc/$1/stat"; }

check "spaced starts" start_spaced "$sd"
base_rss=$(rss)
base_fds=$(nfds)

# --- a request longer than the idle timeout (30 s) ---------------------
# 64 GiB, the documented maximum, takes longer than the idle timeout:
# started first, checked last, so the rest runs meanwhile.
ctl -j stream-test 65536 >"$tree/long.json" 2>"$tree/long.err" &
long_pid=$!

# --- a client that never reads (uid nobody) --------------------------
cp "$top/regress/integration/ctl_raw.py" "$tree/"
chmod a+r "$tree/ctl_raw.py"
setpriv --reuid=nobody --regid=nogroup --clear-groups \
    /usr/bin/python3 "$tree/ctl_raw.py" "$sd/run/spaced.sock" \
    flood 6 >"$tree/flood.out" 2>&1 &
flood_pid=$!
peak=0; failed=0; during=0; i=0
while kill -0 "$flood_pid" 2>/dev/null; do
	r=$(rss); [ "$r" -gt "$peak" ] && peak=$r
	# everyone else is served meanwhile: by the order of events, not a
	# time (the 30 s is a hang guard; speed is bench/ctl_rtt.sh's)
	timeout 30 "$tree/bin/spacectl" -s "$sd/run/spaced.sock" ping git ||
	    failed=$((failed + 1))
	kill -0 "$flood_pid" 2>/dev/null && during=$((during + 1))
	i=$((i + 1))
	sleep 0.2
done
wait "$flood_pid"
echo "# flood: $(cat "$tree/flood.out"); spaced RSS $base_rss -> peak $peak KiB; $i pings, $failed failed, $during answered while it ran"
check "the flood really sent requests (positive control)" \
    grep -q "sent [0-9][0-9]* requests" "$tree/flood.out"
# Paused once 64 KiB of answers wait (CTL_OUT_SOFT), it never reaches
# the bound at which spaced closes a client that reads nothing.
check "a client that sends and never reads is paused, not closed" sh -c \
    "! grep -q 'closed by spaced' '$tree/flood.out' &&
    ! grep -q 'reads nothing: .* closed' '$sd/log'"
check "spaced stays within 8 MiB of its start under the flood" \
    [ "$peak" -lt $((base_rss + 8192)) ]
check "every ping during the flood answered" [ "$failed" -eq 0 ]
check "... and one answered while the flood still ran (the order, not a time)" \
    [ "$during" -gt 0 ]

# --- status asks the workers (GIT_VERSION and JOURNAL_STAT) -------------
check "status shows the libgit2 spaced-git links" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j status | jq -e '.processes[2].detail | test(\"^libgit2 [0-9]\")' >/dev/null"
check "status shows the journal store's size" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j status | jq -e '.processes[3].detail | test(\"records, [0-9]+ bytes\")' >/dev/null"
check "a user who is not admin sees no store size and no counts" sh -c \
    "setpriv --reuid=nobody --regid=nogroup --clear-groups '$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j status | jq -e '(.processes[3].detail == null) and (.processes[0].requests == null)' >/dev/null"

# --- several requests on one connection, each with its tag -------------
check "three tagged pings on one connection, each answered with its tag" \
    sh -c "[ \"\$(python3 '$top/regress/integration/ctl_raw.py' '$sd/run/spaced.sock' tags 3)\" = 'end:1 end:2 end:3' ]"
check "the 17th request in flight on one connection is refused busy" \
    sh -c "python3 '$top/regress/integration/ctl_raw.py' '$sd/run/spaced.sock' tags 17 | grep -q 'busy:'"
check "data for no stream is refused" \
    sh -c "[ \"\$(python3 '$top/regress/integration/ctl_raw.py' '$sd/run/spaced.sock' data-nostream)\" = 'bad_request' ]"

# --- a stream to a client that does not read ---------------------------
before_rss=$(rss)
raw noread-stream 4 >/dev/null &
nr_pid=$!
streams_are() { [ "$(count streams)" = "$1" ]; }
check "status counts the stream to the non-reading client (and the long one)" \
    wait_for 60 streams_are 2
r=$(rss)
echo "# non-reading stream sink: spaced RSS $before_rss -> $r KiB"
check "spaced holds at most a window (+2 MiB) for a client that does not read" \
    [ "$r" -lt $((before_rss + 3072)) ]
wait "$nr_pid"
check "once it left, its request and stream are gone" \
    wait_for 5 sh -c "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j status | jq '.processes[0].streams')\" -eq 1 ]"

# --- four streams of 1 GiB at once --------------------------------------
for i in 1 2 3 4; do
	ctl -j stream-test 1024 >"$tree/four$i.json" 2>&1 &
	eval "four_$i=\$!"
done
wait "$four_1" "$four_2" "$four_3" "$four_4"
check "four 1 GiB streams at once all arrive intact" sh -c \
    "cat '$tree'/four?.json | jq -s -e 'length == 4 and all(.intact)' >/dev/null"
four_peak=$(cat "$tree"/four?.json | jq -s 'map(.spacedPeakRssKiB) | max')
echo "# four streams: spaced peak RSS $four_peak KiB"
check "spaced's peak RSS stays under 16 MiB with four streams (and the long one)" \
    [ "$four_peak" -lt 16384 ]

# --- a client that leaves mid-request ----------------------------------
# The stream of the long request above is the other one still counted.
gp=$(git_pid)
"$tree/bin/spacectl" -s "$sd/run/spaced.sock" stream-test 65536 journal \
    >/dev/null 2>&1 &
leave_pid=$!
check "a second long stream runs (positive control: two streams)" \
    wait_for 60 streams_are 2
kill "$leave_pid"; wait "$leave_pid" 2>/dev/null
check "the leaver's request and stream are freed" \
    wait_for 5 sh -c "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j status | jq '.processes[0].streams')\" -eq 1 ]"
check "spaced has the fds it had before (the long stream's client aside)" \
    wait_for 5 sh -c "[ \$(ls /proc/$spaced_pid/fd | wc -l) -le $((base_fds + 1)) ]"

# --- the long request ends well ------------------------------------------
wait "$long_pid"; long_rc=$?
echo "# long: $(jq -c . "$tree/long.json" 2>/dev/null) $(cat "$tree/long.err")"
check "stream-test 65536 outlives the idle timeout and arrives intact" \
    sh -c "[ $long_rc -eq 0 ] && jq -e '.intact and .bytes == 68719476736' '$tree/long.json' >/dev/null"
check "nothing is left in the tables" \
    wait_for 5 sh -c "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j status | jq '.processes[0].requests + .processes[0].streams')\" -eq 1 ]"
gp_now=$(git_pid)
u1=$(utime "$gp_now"); sleep 1; u2=$(utime "$gp_now")
check "spaced-git is idle once every stream ended (cancel reached it)" \
    [ $((u2 - u1)) -lt 10 ]
check "spaced-git is the same process all along" [ "$gp" = "$gp_now" ]

# --- the control socket's caps, and root's reserve ---------------------
# 32 connections a uid; plain users together 112 of the 128, the rest
# is root's (and spaced's own user's).  A local user of the test's own,
# then three more uids, try to hold every slot.
capuser=spdcap$$
useradd --system --no-create-home --home-dir /nonexistent \
    --shell /usr/sbin/nologin --user-group "$capuser"
trap 'kill $holders 2>/dev/null; stop_spaced
    userdel "$capuser" 2>/dev/null; rm -rf "$tree"' EXIT
holders=
# hold NAME UID GID N: N connections as UID, each proven by an answer
hold() {
	setpriv --reuid="$2" --regid="$3" --clear-groups /usr/bin/python3 \
	    "$tree/ctl_raw.py" "$sd/run/spaced.sock" hold "$4" \
	    >"$tree/hold.$1" 2>&1 &
	holders="$holders $!"
	wait_for 20 grep -q '^held' "$tree/hold.$1"
}
held() { cat "$tree/hold.$1"; }
hold user "$capuser" "$capuser" 33
check "a plain user holds 32 connections, the 33rd is refused (control)" \
    [ "$(held user)" = "held 32 refused 1" ]
check "... and root still connects" ctl status
hold nobody 65534 65534 32
hold u1 60001 60001 32
hold u2 60002 60002 32
hold u3 60003 60003 1
total=$(cat "$tree"/hold.* | awk '{ n += $2 } END { print n }')
echo "# plain users hold $total: $(cat "$tree"/hold.* | paste -sd, -)"
check "four plain uids hold 112 connections together, not all 128" \
    [ "$total" -eq 112 ]
check "a fifth plain uid is refused (control: the plain users' cap)" \
    [ "$(held u3)" = "held 0 refused 1" ]
check "root still connects with every plain slot taken" ctl status
kill $holders 2>/dev/null; holders=
userdel "$capuser"
stop_spaced

# --- a compromised worker --------------------------------------------------
# hostile-worker replaces spaced-git; spaced must stop at its first lie.
cp "$build/regress/tools/hostile-worker" "$tree/libexec/spaced/spaced-git"
hostile() {
	start_spaced "$sd" || return 1
	ctl probe "${3:-git}" "$1" >/dev/null 2>&1
	wait_for 10 sh -c "! kill -0 $spaced_pid" ||
	    { echo "# spaced took it"; sed 's/^/#   /' "$sd/log"; stop_spaced
	    return 1; }
	wait "$spaced_pid"; rc=$?; spaced_pid=
	grep -q "$2" "$sd/log" || { sed 's/^/#   /' "$sd/log"; return 1; }
	[ "$rc" -ne 0 ]
}
hostile_control() {
	start_spaced "$sd" || { sed 's/^/#   /' "$sd/log"; return 1; }
	ctl ping git && ctl probe git execve | grep -q failed &&
	    ctl -j status | jq -e '.processes[2].detail == "libgit2 hostile"' \
	    >/dev/null
	rc=$?
	[ $rc -eq 0 ] || sed 's/^/#   /' "$sd/log"
	stop_spaced; return $rc
}
check "spaced talks to the hostile worker (positive control)" hostile_control
check "an answer of the wrong type is fatal" hostile open "is not one probe takes"
check "an answer for requests it was never given is fatal" hostile socket \
    "for no pending request\|waits for no answer of it"
check "a second answer to one request is fatal" hostile connect \
    "for no pending request"
check "an fd on spaced-git's channel (which carries none) is fatal" \
    hostile fork "passed an fd\|git: channel: Bad message"
hostile_stream() {
	start_spaced "$sd" || return 1
	# A sink that never reads gives no credit: only spaced's gauge
	# stands between the source and spaced's memory.
	raw noread-stream 3 >/dev/null 2>&1
	wait_for 60 sh -c "! kill -0 $spaced_pid" ||
	    { echo "# spaced took it"; stop_spaced; return 1; }
	wait "$spaced_pid"; spaced_pid=
	grep -q "git broke stream" "$sd/log" || { sed 's/^/#   /' "$sd/log"; return 1; }
}
check "a source that sends past its credit window is fatal" hostile_stream
# A cancelled stream still takes its own source's late END, and only
# its: a repository's spaced-git that ends spaced's own instance's
# stream (stream-test 7 holds; files ends the held id) is refused.
hostile_foreign_end() {
	rm -f "$tree/libexec/spaced/hostile-held"
	start_spaced "$sd" || return 1
	"$tree/bin/spacectl" -s "$sd/run/spaced.sock" stream-test 7 \
	    >/dev/null 2>&1 &
	held=$!
	wait_for 60 test -s "$tree/libexec/spaced/hostile-held" ||
	    { echo "# the stream was not held"; kill "$held"; stop_spaced; return 1; }
	kill "$held"; wait "$held"; held=
	id=$(cat "$tree/libexec/spaced/hostile-held")
	wait_for 60 grep -q "hostile: cancel of request" "$sd/log" ||
	    { echo "# the stream-test was not cancelled"; stop_spaced; return 1; }
	f_rc=0
	[ "$(count streams)" = 1 ] || { echo "# no held stream"; f_rc=1; }
	# a repository's instance logs to /dev/null: its END is seen by
	# its effect, or by the refusal; the waits guard against a hang
	"$tree/bin/spacectl" -s "$sd/run/spaced.sock" files "$tree/repo" \
	    >/dev/null 2>&1 &
	files=$!
	wait_for 60 grep -q "spaced-git: message from the wrong end (stream $id)" "$sd/log" ||
	    { echo "# the foreign END was not refused"; f_rc=1; }
	wait_for 60 sh -c "! kill -0 $files" || kill "$files"
	wait "$files"; files=
	[ "$(count streams)" = 1 ] || { echo "# the foreign END ended it"; f_rc=1; }
	# control: the stream's own source ends it, cancelled as it is
	ctl ping git >/dev/null
	wait_for 60 streams_are 0 ||
	    { echo "# its own END did not end it"; f_rc=1; }
	kill -0 "$spaced_pid" || f_rc=1
	[ $f_rc -eq 0 ] || sed 's/^/#   /' "$sd/log"
	stop_spaced
	return $f_rc
}
mkdir -p "$tree/repo" && git -C "$tree/repo" init -q
check "a cancelled stream takes an END only from its own spaced-git" \
    hostile_foreign_end
# spaced-docker's channel carries fds (spaced passes it sockets), so only
# the request table stands between a hostile one and an fd in an answer.
cp "$build/libexec/spaced/spaced-git" "$tree/libexec/spaced/spaced-git"
cp "$build/regress/tools/hostile-worker" "$tree/libexec/spaced/spaced-docker"
check "an fd with an answer on spaced-docker's channel is fatal" \
    hostile fork "docker passed an fd" docker

finish
