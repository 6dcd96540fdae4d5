#!/bin/sh
# spacectl as a new user meets it, against a live spaced, native spaces
# and one Docker space (root): what -j and the tables print of bytes a
# space or its owner chose, the cap on an owner's spaces, and the second
# trial's findings (each error says why; another owner's space is an
# unknown one).  Each check was red before its fix.  About 30 s.
SPACED_TEST_PLACE=native
export SPACED_TEST_PLACE
SPACED_AGENT_CONF="default agent none"
SPACED_EXTRA_CONF='spaces per owner "2"'
. "$(dirname "$0")/../contract/lib.sh"

jqt() { jq -e "$@" >/dev/null; }

id=$(sc create -n "user one") || id=
check "a native space ($id)" test -n "$id"

# exec -j: jansson refuses a string that is not UTF-8 whole, and the
# output was dropped ("stdout": ""); each bad byte is U+FFFD now.
sc -j exec "$id" -- printf 'plain \303\251\n' >"$T/ok.json"
check "exec -j: UTF-8 output exactly (control)" \
    jqt '.stdout == "plain \u00e9\n" and .exitCode == 0' "$T/ok.json"
sc -j exec "$id" -- sh -c 'printf "ok\377\376\303\251\n"; printf "e\300\257" >&2' >"$T/bad.json"
check "exec -j: a byte that is not UTF-8 is U+FFFD, the rest kept" \
    jqt '.stdout == "ok\ufffd\ufffd\u00e9\n"' "$T/bad.json"
check "  on stderr too (an overlong form: two bytes, two U+FFFD)" \
    jqt '.stderr == "e\ufffd\ufffd"' "$T/bad.json"
head -c 300000 /dev/urandom >"$T/rand"
sc -j exec "$id" -- cat <"$T/rand" >"$T/rand.json"
check "  300 KB of random bytes: a string, not an empty one" \
    jqt '.stdout | length > 100000' "$T/rand.json"

# A name its owner's list could not print: spaced refuses it now, and
# the list goes on working.
sc create -n "$(printf 'bad\377utf')" >"$T/bad.out" 2>"$T/bad.err"
check "create -n with bytes that are not UTF-8: invalid_name" \
    grep -q '^spacectl: invalid_name' "$T/bad.err"
check "  nothing was made" test ! -s "$T/bad.out"
check "list works and shows the space" sh -c "sc() { '$tree/bin/spacectl' -s '$sd/run/spaced.sock' \"\$@\"; }
    sc list | grep -q '^$id  user one ' && sc -j list | jq -e 'length == 1' >/dev/null"

# spaces per owner held on the Docker place alone: a native create never
# counted, and an owner could make any number.
id2=$(sc create -n "$(printf 'user tw\303\266 \342\230\203')") || id2=
check "a second space under a cap of 2 (control)" test -n "$id2"
sc create -n "user three" >"$T/three.out" 2>"$T/three.err"
check "a third: too_many_spaces, saying the setting" \
    grep -q '^spacectl: too_many_spaces: 2 spaces already, 2 at most (spaces per owner in spaced.conf)' "$T/three.err"
check "  nothing was made" sh -c "[ ! -s '$T/three.out' ] &&
    '$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j list | jq -e 'length == 2' >/dev/null"
# list's columns in line with a name of UTF-8 beside one of ASCII: the
# widths counted bytes, and "user twö ☃" (13 bytes, 10 characters) put
# the rest of its row three columns left of its header.
sc list >"$T/list.txt"
check "list: each column starts where its header does, a UTF-8 name too" \
    python3 -c '
import sys
rows = open(sys.argv[1], encoding="utf-8").read().splitlines()
at = rows[0].index("STATE")
sys.exit(not (len(rows) == 3 and all(r[at:].split()[0] in ("running", "exited")
    for r in rows[1:])))' "$T/list.txt"
check "  control: the UTF-8 name is in it, whole" \
    grep -q "$(printf 'user tw\303\266 \342\230\203')" "$T/list.txt"
sc remove "$id2" >/dev/null

# exec's options before the ID, as docker exec -it takes them: it was
# invalid_space_id (the option taken for the ID).
check "exec -n ID: options before the ID" sh -c \
    "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec -n $id -- echo before)\" = before ]"
check "  and after it as before (control)" sh -c \
    "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec $id -n -- echo after)\" = after ]"
check "  -T and the target before it too" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec -T 30 -n $id -- true"

# Every body ends its line.
for c in "list" "show $id" "-j show $id" "-j list" "-j verify $id" \
    "-j exec $id -- true" "-j events"; do
	sc $c >"$T/body" 2>/dev/null
	check "spacectl $c: ends with a newline" sh -c \
	    "[ \"\$(tail -c1 '$T/body' | od -An -c | tr -d ' ')\" = '\\n' ]"
done

# --- The second trial: what a careful user expects (each red before) ---
unknown=0123456789ab
dgid=$(getent group docker | cut -d: -f3)
# nobody: a plain user of the docker group, who owns none of these
nobody() {
	setpriv --reuid=65534 --regid=65534 --groups="${dgid:-0}" \
	    "$tree/bin/spacectl" -s "$sd/run/spaced.sock" "$@"
}
# said RC FILE LINE: the exit status was RC and FILE's first line LINE
said() { [ "$1" = "$2" ] && [ "$(head -n 1 "$3")" = "$4" ]; }

# remove: the spec's "nothing to remove" is done, but never silently;
# another owner's space gets the same words as an unknown ID.
sc remove "$unknown" >"$T/rm.out" 2>"$T/rm.err"
check "remove of an unknown ID: exit 0, and says nothing was removed" \
    said $? 0 "$T/rm.err" "spacectl: nothing removed: no space $unknown of yours"
check "  no removed line" test ! -s "$T/rm.out"
sc -j remove "$unknown" >"$T/rm.json" 2>"$T/rmj.err"
check "  -j: the spec's object on stdout, the word on stderr" sh -c \
    "jq -e -c '. == {\"removed\":[],\"failed\":[]}' '$T/rm.json' >/dev/null &&
    grep -q 'nothing removed' '$T/rmj.err'"
nobody remove "$id" >"$T/nrm.out" 2>"$T/nrm.err"
check "another owner's remove: exit 0, the same words as an unknown ID" \
    said $? 0 "$T/nrm.err" "spacectl: nothing removed: no space $id of yours"
check "  and the space is still there (control)" sc show "$id"

# Another owner's space is no space: each command answers as for an
# unknown ID (show did; exec, stop, start, verify, journal, network and
# grant said space_not_ours, which told that it exists).
# code-in and history took a snapshot in the caller's repository first
# and said code_transfer_failed (or history_transfer_failed, not_a_commit):
# they look the space up first now, as review and apply do.
mkdir -p "$T/nrepo" && (cd "$T/nrepo" && git init -q && echo x >f &&
    git add f && git -c user.name=t -c user.email=t@t commit -qm x) &&
    chown -R 65534:65534 "$T/nrepo"
for c in show verify stop start journal "exec -- true" \
    "network allowlist example.com" "grant g https://a.example x-api-key" \
    "code-in $T/nrepo" "history $T/nrepo" history; do
	set -- $c
	cmd=$1; shift
	what=$cmd
	case ${1:-} in /*) what="$cmd DIR" ;; esac
	echo k | nobody $cmd "$id" "$@" >/dev/null 2>"$T/n1.err"; r1=$?
	echo k | nobody $cmd "$unknown" "$@" >/dev/null 2>"$T/n2.err"; r2=$?
	check "another owner's space, $what: as an unknown ID ($r1)" sh -c \
	    "[ $r1 = $r2 ] && [ $r1 != 0 ] &&
	    grep -qx 'spacectl: space_not_found: no such space of yours' '$T/n1.err' &&
	    cmp -s '$T/n1.err' '$T/n2.err'"
done
check "  the owner's own show works (control)" sc show "$id"
# A code-in without DIR (a raw request: spacectl always sends one) is
# refused as it was before code-in looked the space up first.
raw_codein() {
	python3 - "$sd/run/spaced.sock" "$1" "$2" <<'PY'
import os, socket, struct, sys, time
H = struct.Struct("=IHHII")
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
p = bytearray(4120); p[0:13] = sys.argv[2].encode() + b"\0"
d = sys.argv[3].encode(); p[24:24 + len(d)] = d
s.sendall(H.pack(120, H.size + len(p), 0, (1 << 8) | int(os.environ["CTL_VERSION"]), 0) + bytes(p))
buf, word = b"", None
# Progress comes every 5 s while a request runs: a bound of its own.
s.settimeout(5)
end = time.time() + 60
while word is None:
    if time.time() > end:
        word = "no answer in 60 s"
        break
    try:
        buf += s.recv(65536)
    except socket.timeout:
        continue
    while word is None and len(buf) >= H.size and \
        len(buf) >= H.unpack(buf[:H.size])[1]:
        t, l = H.unpack(buf[:H.size])[:2]
        if t == 202:
            word = "fail " + buf[H.size:l].split(b"\0")[0].decode()
        elif t == 201:
            word = "end"
        buf = buf[l:]
print(word)
PY
}
check "a raw code-in without DIR: bad_request" \
    test "$(raw_codein "$id" "")" = "fail bad_request"
check "  with one, of an unknown ID: space_not_found (control)" \
    test "$(raw_codein "$unknown" "$T/nrepo")" = "fail space_not_found"
check "  and the space still runs (nobody's stop did nothing)" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j show '$id' | jq -e '.state == \"running\"' >/dev/null"

# One user's execs do not hold the stream table (review 2026-12-06 F1):
# 32 exec -i of nobody's (two streams each, no deadline) took all 64,
# and root's exec, journal and code-in, and every other user's, answered
# busy.  A uid holds 16 now, plain users together 48.
as_uid() { u=$1; shift; setpriv --reuid="$u" --regid="$u" \
    --groups="${dgid:-0}" "$tree/bin/spacectl" -s "$sd/run/spaced.sock" "$@"; }
hold=
# hold UID ID N: N exec -i of UID's in its space ID, kept running; their
# refusals in $T/hold-UID.err.  setpriv execs spacectl: $! is the client.
hold() {
	: >"$T/hold-$1.err"
	for h_i in $(seq "$3"); do
		setpriv --reuid="$1" --regid="$1" --groups="${dgid:-0}" \
		    "$tree/bin/spacectl" -s "$sd/run/spaced.sock" exec "$2" \
		    -i -- sleep 600 </dev/zero >/dev/null 2>>"$T/hold-$1.err" &
		hold="$hold $!"
	done
}
streams_now() { sc status | grep -q "^spaced .* $1 streams"; }
busy_count() { [ "$(grep -c '^spacectl: busy' "$T/hold-$1.err")" = "$2" ]; }
nid=$(nobody create -n "streams") || nid=
check "nobody's own space for the stream share ($nid)" test -n "$nid"
hold 65534 "$nid" 32
held() { busy_count 65534 24 && streams_now 16; }
check "nobody's 32 execs at once: 8 run on its 16 streams, 24 answer busy" \
    wait_for 60 held
sc exec "$id" -- echo root-runs >"$T/root.out" 2>&1
check "  root's exec runs meanwhile (it answered busy: the table was nobody's)" \
    grep -qx root-runs "$T/root.out"
as_uid 64999 exec "$unknown" -- true >/dev/null 2>"$T/other.err"
check "  another plain user's exec is answered, not busy (it was)" \
    grep -qx 'spacectl: space_not_found: no such space of yours' "$T/other.err"
# Plain users together: two more hold 16 each, 48 in all; a fourth is
# refused, root is not.
for u in 64999 64998; do
	eval "sp_$u=\$(as_uid $u create -n share-$u)"
	eval "hold $u \"\$sp_$u\" 8"
done
check "three plain users hold 48 streams" wait_for 60 streams_now 48
# The status counts spaced's own streams too (a collection in flight can
# make 48 while a hold is still starting): asked again until the holds
# are all in.  Without the plain users' cap it is never busy.
fourth_busy() {
	as_uid 64997 exec "$unknown" -- true >/dev/null 2>"$T/fourth.err"
	grep -q '^spacectl: busy' "$T/fourth.err"
}
check "  a fourth plain user's exec answers busy (the plain users' 48)" \
    wait_for 60 fourth_busy
sc exec "$id" -- echo root-runs >"$T/root.out" 2>&1
check "  root's exec still runs (the last 16 are root's and spaced's own)" \
    grep -qx root-runs "$T/root.out"
kill $hold 2>/dev/null
wait $hold 2>/dev/null
check "  once their execs end, the streams are free" wait_for 30 streams_now 0
nobody remove "$nid" >/dev/null 2>&1
as_uid 64999 remove "$sp_64999" >/dev/null 2>&1
as_uid 64998 remove "$sp_64998" >/dev/null 2>&1
# An option where the ID goes (prompt -s S ID) says where it goes (exec
# takes its options on either side, as docker exec -it ID does).
check_refusal "prompt -s S ID: the ID comes before the options" 1 \
    "^spacectl: invalid_space_id: an ID is 12 lowercase hex characters, and comes before the command's options" \
    sc prompt -s ses "$id" hi
check_refusal "  a bad ID that is no option: the ID's shape alone (control)" 1 \
    "^spacectl: invalid_space_id: an ID is 12 lowercase hex characters$" \
    sc prompt "${id%?}" hi
# A space's name where its ID goes: one line that says spaces go by ID
# and where the IDs are (it said what an ID is, and no more).
check_refusal "exec NAME: a space is named by its ID, spacectl list shows them" 125 \
    "^spacectl: invalid_space_id: a space is named by its ID, 12 lowercase hex characters, not by its name: spacectl list shows the IDs$" \
    sc exec myname -- true
check_refusal "  control: a well-formed ID of no space is still space_not_found" 125 \
    "^spacectl: space_not_found" sc exec ffffffffffff -- true

# tools with no agent: a refusal by name, not a line about a key
sc tools >"$T/t.out" 2>"$T/t.err"
check "tools, default agent none: no_agent, exit 1" said $? 1 "$T/t.err" \
    "spacectl: no_agent: spaces here run no agent (default agent none in spaced.conf): name one with -a"
sc tools -a nosuch >"$T/t.out" 2>"$T/t.err"
check "tools -a nosuch: no_agent, exit 1" said $? 1 "$T/t.err" \
    "spacectl: no_agent: spaced.conf names no agent nosuch"
sc tools fill -a nosuch >"$T/t.out" 2>"$T/t.err"
check "tools fill -a nosuch: no_agent, exit 1" said $? 1 "$T/t.err" \
    "spacectl: no_agent: spaced.conf names no agent nosuch"
check "tools -a opencode: a key (control)" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' tools -a opencode | grep -q '^agent opencode: key '"
for c in "token $id" "server $id GET /" "sessions $id" "prompt $id hi"; do
	sc $c >/dev/null 2>"$T/a.err"
	check "$c, no agent: no_agent, exit 1" said $? 1 "$T/a.err" \
	    "spacectl: no_agent: spaces here run no agent (default agent none in spaced.conf)"
done

# review and apply before any code in
for c in review apply; do
	sc $c "$id" >/dev/null 2>"$T/r.err"
	check "$c before code-in: not_a_commit, saying code-in was not done" \
	    said $? 1 "$T/r.err" "spacectl: not_a_commit: code-in was never done into this space (spacectl code-in ID DIR), so it has no start to review from"
done

# network and grant: what is wrong, named, before the gatekeeper
sc network "$id" allowlist -x >/dev/null 2>"$T/g.err"
check "network allowlist -x: a usage error naming it" said $? 64 "$T/g.err" \
    "spacectl: network takes no option: -x"
sc network "$id" allowlist "bad domain" >/dev/null 2>"$T/g.err"
check "network allowlist 'bad domain': invalid_domains, why" said $? 1 "$T/g.err" \
    "spacectl: invalid_domains: bad domain: a name holds letters, digits, '-' and '.' only"
sc network "$id" allowlist 10.1.2.3 >/dev/null 2>"$T/g.err"
check "network allowlist 10.1.2.3: an address, not a name" said $? 1 "$T/g.err" \
    "spacectl: invalid_domains: 10.1.2.3: it ends like an address: the allowlist holds names"
sc network "$id" allowlist localhost >/dev/null 2>"$T/g.err"
check "network allowlist localhost: one label" said $? 1 "$T/g.err" \
    "spacectl: invalid_domains: localhost: a name has two labels at least (example.com)"
check "network allowlist example.com registry.npmjs.org.: taken (control)" \
    sc network "$id" allowlist example.com registry.npmjs.org.
grant() { printf "$1" | sc grant "$id" "$2" "$3" "$4" >/dev/null 2>"$T/g.err"; }
grant 'k\n' "a b" https://a.example x-api-key
check "grant with a space in GRANT_ID: invalid_grant, why" said $? 1 "$T/g.err" \
    "spacectl: invalid_grant: GRANT_ID is 1-64 letters, digits, '-' and '_'"
grant 'k\n' g ftp://a.example x-api-key
check "grant to ftp://: invalid_grant, why" said $? 1 "$T/g.err" \
    "spacectl: invalid_grant: UPSTREAM is an http:// or https:// URL"
grant 'k\n' g https://a.example Host
check "grant of Host: invalid_grant, why" said $? 1 "$T/g.err" \
    "spacectl: invalid_grant: HEADER may not be Host, Content-Length, Transfer-Encoding or Connection"
grant 'a\001b\n' g https://a.example x-api-key
check "grant of a secret with a control byte: invalid_secret, why" \
    said $? 1 "$T/g.err" "spacectl: invalid_secret: a control character (tab is the only one taken)"
grant 'a\tb\n' g https://a.example x-api-key
check "grant of a secret with a tab: taken, as the gatekeeper takes it" \
    test $? = 0
grant 'a b\n' g https://a.example x-api-key
check "  and one with a space (control)" test $? = 0

# journal --since, -j without spaced, help attach
sc journal "$id" --since garbage >/dev/null 2>"$T/j.err"
check "journal --since garbage: a usage error that says why" said $? 64 "$T/j.err" \
    "spacectl: --since takes a UTC time 2026-12-06T04:00:00Z or a prefix of it"
check "journal --since 2026-12: taken (control)" \
    sc journal "$id" --since 2026-12
"$tree/bin/spacectl" -j -s "$T/nosock" status >"$T/s.json" 2>"$T/s.err"
check "-j status without spaced: a JSON error on stdout, exit 1" sh -c \
    "[ $? = 1 ] && [ ! -s '$T/s.err' ] &&
    jq -e '.error == \"spaced_unreachable\" and (.message | startswith(\"cannot reach spaced at\"))' '$T/s.json' >/dev/null"
"$tree/bin/spacectl" -s "$T/nosock" status 2>"$T/s.err"
check "  without -j: the text (control)" grep -q '^spacectl: cannot reach spaced at ' "$T/s.err"
check "help attach: no -j (attach has none)" sh -c \
    "'$tree/bin/spacectl' help attach | grep -qx 'usage: spacectl attach ID'"
check "  help exec: -j (control)" sh -c \
    "'$tree/bin/spacectl' help exec | grep -q '^usage: spacectl \[-j\] exec '"

# A command that is not there: 127, as a shell says; one that is not
# executable: 126 (the Docker place's parity is below).
sc exec "$id" -- /nonexist >"$T/e.out" 2>&1
check "native: a path that is not there exits 127, saying so" sh -c \
    "[ $? = 127 ] && grep -q 'No such file or directory' '$T/e.out'"
sc exec "$id" -- nonexist >"$T/e.out" 2>&1
check "native: a name not in PATH exits 127" test $? = 127
sc exec "$id" -- /etc/passwd >"$T/e.out" 2>&1
check "native: a file that is not executable exits 126 (control)" test $? = 126

# A remove while a command streams: it ends 137, and says why.
id3=$(sc create -n "user three") || id3=
check "a space to remove under a command ($id3)" test -n "$id3"
sc exec "$id3" -- sh -c 'touch /tmp/started; exec sleep 60' \
    >"$T/x.out" 2>"$T/x.err" &
xp=$!
wait_for 20 sc exec "$id3" -- test -e /tmp/started
sc remove "$id3" >/dev/null
wait $xp
check "an exec whose space is removed: 137, and says the space was removed" \
    said $? 137 "$T/x.err" "spacectl: the space was removed while the command ran"

# spaced.conf: the rule and the line, not a field's size
conf_says() {
	printf '%s\n' "$1" >"$T/c.conf"
	"$tree/sbin/spaced" -n -f "$T/c.conf" 2>&1 | grep -qF "$T/c.conf: $2"
}
check "code in timeout \"99999999\": the range" conf_says \
    'code in timeout "99999999"' "line 1: code in timeout: not a number of seconds from 1 to 3600"
check "default agent nope: the line and why" conf_says \
    'default agent nope' "line 1: default agent nope: no such profile"
check "space network size 8: the line and the range" conf_says \
    'space network size 8' "line 1: space network size 8: takes 16 (the prefix of the pool 10.213.0.0/16) to 29"
check "space disk limit \"20g\": taken, as -m takes either case" sh -c \
    "printf 'space disk limit \"20g\"\n' >'$T/d.conf' && '$tree/sbin/spaced' -n -f '$T/d.conf' >/dev/null 2>&1"

# The Docker place: the same exit codes and words as the native one.
dk=$(sc create -p docker -n "user docker") || dk=
check "a Docker space ($dk)" test -n "$dk"
sc exec "$dk" -- /nonexist >"$T/e.out" 2>&1
check "Docker: a path that is not there exits 127 (the engine said 126)" \
    sh -c "[ $? = 127 ] && grep -q 'no such file or directory' '$T/e.out'"
sc exec "$dk" -- nonexist >"$T/e.out" 2>&1
check "Docker: a name not in PATH exits 127" sh -c \
    "[ $? = 127 ] && grep -q 'executable file not found' '$T/e.out'"
sc exec "$dk" -- /etc/passwd >"$T/e.out" 2>&1
check "Docker: a file that is not executable exits 126 (control)" \
    sh -c "[ $? = 126 ] && grep -q 'permission denied' '$T/e.out'"
sc exec "$dk" -- sh -c 'exit 126' >/dev/null 2>&1
check "Docker: a command that ran and exited 126 keeps it (control)" \
    test $? = 126
# (-T 10: its time outlasts the exec's create and start under load; at
# 1 s it could end before the engine had made it: "cannot end it")
sc exec "$dk" -T 10 -- sleep 30 >/dev/null 2>"$T/e.err"
check "Docker: exec -T past its time says so, and that it was ended" said $? 125 "$T/e.err" \
    "spacectl: command_timeout: the command ran past its time (10 s); it was ended in the space"
# -T ends the whole command at its time, from the space's /bin/sh or
# under the native keeper; a command in the gatekeeper has neither: it
# ran on past its time (Docker, the message naming the space) or lost
# its first process alone (native).  Refused by name on both places,
# before anything runs; the same command without -T runs (the control).
GKC=/usr/libexec/spaced/spaced-gatekeeper
GKT="spacectl: invalid_timeout: exec -g takes no -T: a command in the gatekeeper cannot be ended at its time (the gatekeeper has no shell to end it from)"
for p in "Docker $dk" "native $id"; do
	sc exec "${p#* }" -g -T 30 -- $GKC -C GET /health >"$T/gt.out" 2>"$T/gt.err"
	check "${p%% *}: exec -g -T is refused, saying why" said $? 125 "$T/gt.err" "$GKT"
	check "  and ran nothing" test ! -s "$T/gt.out"
	sc exec "${p#* }" -g -- $GKC -C GET /health >"$T/gc.out" 2>&1
	check "  control: without -T the command runs in the gatekeeper" \
	    grep -q '"ok":true' "$T/gc.out"
done
sc exec "$dk" -- sh -c 'touch /tmp/started; exec sleep 60' \
    >"$T/x.out" 2>"$T/x.err" &
xp=$!
wait_for 20 sc exec "$dk" -- test -e /tmp/started
sc remove "$dk" >/dev/null
wait $xp
check "Docker: an exec whose space is removed: 137, and says so" \
    said $? 137 "$T/x.err" "spacectl: the space was removed while the command ran"
nobody journal "$unknown" >/dev/null 2>"$T/n.err"
check "Docker: journal of an unknown ID: space_not_found (was gatekeeper_missing)" \
    said $? 1 "$T/n.err" "spacectl: space_not_found: no such space of yours"

sc remove "$id" >"$T/rm.out" 2>"$T/rm.err"
check "remove of a space: its removed lines, and no 'nothing removed' (control)" \
    sh -c "grep -q '^removed ' '$T/rm.out' && ! grep -q 'nothing removed' '$T/rm.err'"
check "removed" sh -c "! '$tree/bin/spacectl' -s '$sd/run/spaced.sock' show '$id' >/dev/null 2>&1"
# start looks the space up before the tools: an unknown ID is answered
# at once, with no fill of minutes first (a spaced with an agent).
stop_spaced
SPACED_AGENT_CONF="" start_spaced "$T/sd" || not_ok "spaced starts again, with an agent"
sc start "$unknown" >/dev/null 2>"$T/st.err"
check "start of an unknown ID, with an agent: space_not_found" \
    said $? 1 "$T/st.err" "spacectl: space_not_found: no such space of yours"
no_tools_volume() {
	api_get /volumes >"$T/vols.json" && ! jq -e --arg i \
	    "spaced-tools-$INSTALL-" '.Volumes // [] |
	    any(.Name | startswith($i))' "$T/vols.json" >/dev/null
}
check "  and no tools volume was made for it" no_tools_volume
# Whatever a broken build made that list could not show (its mutants).
for s in $(sc -j events 2>/dev/null | jq -r 'select(.kind == "create") | .space'); do
	[ "$s" = "$id" ] || [ "$s" = "${id2:-}" ] || [ "$s" = "${id3:-}" ] ||
	    sc remove "$s" >/dev/null 2>&1
done
finish
