#!/bin/sh
# The space operations through spaced, with regress/tools/hostile_worker.c
# standing in for spaced-docker (the place is the lead's; this is spaced's
# and spacectl's half): spacectl's own refusals, spaced's refusals of a
# malformed struct ctl_space, who may (admins and the docker group, by
# SO_PEERGROUPS), the owner spaced puts in each request, the records in
# text and -j, failures with details, the engine connections a place may
# ask for, the install id and the relay, and a place that lies, which
# must stop spaced before a byte of the lie reaches a client.
. "$(dirname "$0")/lib.sh"

make_tree
trap 'stop_spaced; [ -n "${engine_pid:-}" ] && kill "$engine_pid"; rm -rf "$tree"' EXIT
sd=$tree/s1
sctl() { "$tree/bin/spacectl" "$@"; }
# jq -e exits 0 on no input at all (jq 1.6): a -j check slurps and
# tests the last document (jq -es '.[-1] | ...'), so silence fails it.

# --- spacectl refuses locally: nothing reaches a socket ----------------
nosock="-s $tree/nonexistent.sock"
for bad in ABCDEF012345 0123456789a 0123456789abc 0123456789ag "0123456789a "; do
	check "spacectl refuses the id \"$bad\" before it connects" sh -c \
	    "'$tree/bin/spacectl' $nosock show '$bad' 2>&1 | grep -qx 'spacectl: invalid_space_id: an ID is 12 lowercase hex characters'"
done
check "each ID command checks its id" sh -c "
for c in verify stop start remove; do
	'$tree/bin/spacectl' $nosock \$c XYZ 2>&1 | grep -q invalid_space_id || exit 1
done"
# Every command that takes an ID, its own refusal: never spaced's
# bad_request, which named no reason.
check "history, token, review, apply, server, code-in, prompt, sessions check their id" sh -c "
for c in 'history XYZ' 'history XYZ /tmp' 'token XYZ' 'review XYZ' 'review XYZ /tmp' \
    'apply XYZ' 'apply XYZ /tmp -w' 'server XYZ GET /' 'code-in XYZ /tmp' 'prompt XYZ hi' \
    'sessions XYZ'; do
	'$tree/bin/spacectl' $nosock \$c >/dev/null 2>'$tree/id.err'
	[ \$? = 1 ] && grep -qx 'spacectl: invalid_space_id: an ID is 12 lowercase hex characters' '$tree/id.err' || { echo \"# \$c\"; exit 1; }
done"
check "... a good one gets as far as the socket (positive control)" sh -c "
for c in 'history 0123456789ab' 'token 0123456789ab' 'review 0123456789ab' 'sessions 0123456789ab'; do
	'$tree/bin/spacectl' $nosock \$c 2>&1 | grep -q 'cannot reach spaced' || exit 1
done"
check "a good id gets as far as the socket (positive control)" sh -c \
    "'$tree/bin/spacectl' $nosock show 0123456789ab 2>&1 | grep -q 'cannot reach spaced'"
check "-j: a local refusal is an error object on stdout, exit 1" sh -c \
    "'$tree/bin/spacectl' -j $nosock show nope >'$tree/e.json' 2>/dev/null; [ \$? -eq 1 ] &&
     jq -e '.error == \"invalid_space_id\" and .details.uncertain == false and .details.rollbackFailures == []' '$tree/e.json' >/dev/null"
# (exec's own refusal was text on stderr under -j; jq -e takes no input
# for a success, hence the file)
check "  exec's too" sh -c \
    "'$tree/bin/spacectl' -j $nosock exec 0123456789ab -T x -- true >'$tree/x.json' 2>/dev/null
     [ -s '$tree/x.json' ] && jq -e '.error == \"invalid_timeout\"' '$tree/x.json' >/dev/null"
# exec's own failures exit 125, as the place's: 1 is the command's, and
# a script's "exec ID -- grep -q x f || ..." took an ID it never sent,
# or a spaced it never reached, for "no match".
check_refusal "exec: a bad ID is spacectl's failure: 125, not a command's 1" \
    125 '^spacectl: invalid_space_id' sctl $nosock exec nope -- true
check_refusal "exec: a bad -T: 125, naming the value and what -T takes" \
    125 '^spacectl: invalid_timeout: -T x is invalid: it takes whole seconds, 1 to 86400$' \
    sctl $nosock exec 0123456789ab -T x -- true
check_refusal "exec: no spaced at the socket: 125" 125 \
    '^spacectl: cannot reach spaced' sctl $nosock exec 0123456789ab -- true
check_refusal "  control: show's refusal of a bad ID stays 1" 1 \
    '^spacectl: invalid_space_id' sctl $nosock show nope
check_refusal "create -m: the value refused, and what -m takes (it said \"too small\")" \
    1 '^spacectl: invalid_memory: -m 5m is too small: it takes digits with an optional unit b, k, m or g, 6m to 1024g$' \
    sctl $nosock create -m 5m
check_refusal "prompt -T: the value and what -T takes" 1 \
    '^spacectl: invalid_timeout: -T 0 is too small: it takes whole seconds, 1 to 86400$' \
    sctl $nosock prompt 0123456789ab -T 0 hi
# Output that cannot be written fails, saying why: help, list or a -j
# object to a full disk exited 0, the file cut short.
check_refusal "help to a full disk: 1, naming standard output and the error" \
    1 '^spacectl: standard output: No space left on device$' \
    sh -c "'$tree/bin/spacectl' help >/dev/full"
check "  control: help to /dev/null exits 0" \
    sh -c "'$tree/bin/spacectl' help >/dev/null"
for bad in 5m 6291455 2t 1025g 99999999999999999999999 18446744073709551616k \
    12x 1.5g -1 +4g " 4g" 4gb 4g4 ""; do
	check "spacectl refuses the memory \"$bad\"" sh -c \
	    "'$tree/bin/spacectl' $nosock create -m '$bad' 2>&1 | grep -q '^spacectl: invalid_memory'"
done
for good in 6m 512M 4g 1024G 1073741824 6291456b; do
	check "spacectl takes the memory $good (positive control)" sh -c \
	    "'$tree/bin/spacectl' $nosock create -m '$good' 2>&1 | grep -q 'cannot reach spaced'"
done
check "spacectl refuses a name with a control character" sh -c \
    "'$tree/bin/spacectl' $nosock create -n \"\$(printf 'a\\001b')\" 2>&1 | grep -q '^spacectl: invalid_name'"
# A name is printed by list and show, and -j is JSON: bytes that are not
# UTF-8 made every list of its owner fail (bad_answer), and a C1 control
# (U+009B, CSI) reached the terminal.
for bad in 'bad\377utf' 'a\303' 'c1\302\2332J' 'o\300\257' 's\355\240\200'; do
	check "spacectl refuses the name $bad (not UTF-8, or a C1 control)" sh -c \
	    "'$tree/bin/spacectl' $nosock create -n \"\$(printf '$bad')\" 2>&1 | grep -q '^spacectl: invalid_name'"
done
check "... and takes a UTF-8 one up to 64 bytes (positive control)" sh -c \
    "'$tree/bin/spacectl' $nosock create -n \"\$(printf 'h\\303\\251llo \\342\\230\\203 %.0s' \$(seq 5))\" 2>&1 | grep -q 'cannot reach spaced'"
check "spacectl refuses a name of 65 bytes" sh -c \
    "'$tree/bin/spacectl' $nosock create -n $(printf 'n%.0s' $(seq 65)) 2>&1 | grep -q '^spacectl: invalid_name'"
# --- usage and help: nothing reaches a socket --------------------------
sctl $nosock show >"$tree/u.out" 2>"$tree/u.err"; rc=$?
check "a usage error exits 64 (EX_USAGE)" test $rc = 64
check "... says its usage on stderr" grep -q '^usage: spacectl' "$tree/u.err"
check "... and prints nothing on stdout" test ! -s "$tree/u.out"
check "... its own usage, not the whole list" sh -c \
    "grep -qx 'usage: spacectl \[-j\] show ID' '$tree/u.err' && ! grep -q '^commands: ' '$tree/u.err'"
sctl $nosock create --code >"$tree/u.out" 2>"$tree/u.err"; rc=$?
check "create --code without DIR: 64, create's usage" sh -c \
    "[ $rc = 64 ] && grep -q '^usage: spacectl \[-j\] create ' '$tree/u.err'"
sctl $nosock prompt 0123456789ab -x >"$tree/u.out" 2>"$tree/u.err"; rc=$?
check "an unknown option after an ID names the command, not the ID" sh -c \
    "[ $rc = 64 ] && grep -q '^prompt: invalid option' '$tree/u.err' && ! grep -q '^0123456789ab' '$tree/u.err'"
sctl $nosock exec 0123456789ab -x >"$tree/u.out" 2>"$tree/u.err"; rc=$?
check "... exec's too" sh -c "[ $rc = 64 ] && grep -q '^exec: invalid option' '$tree/u.err'"
# review took an unknown option for its folder (project_folder_missing, 1).
sctl $nosock review 0123456789ab -x >"$tree/u.out" 2>"$tree/u.err"; rc=$?
check "review ID -x: 64, review's usage, as apply's" sh -c \
    "[ $rc = 64 ] && grep -q '^usage: spacectl \[-j\] review ' '$tree/u.err' && [ ! -s '$tree/u.out' ]"
sctl $nosock nosuchcommand >"$tree/u.out" 2>"$tree/u.err"; rc=$?
check "an unknown command: exit 64, the list on stderr" sh -c \
    "[ $rc = 64 ] && grep -q '^commands: ' '$tree/u.err' && [ ! -s '$tree/u.out' ]"
sctl -h >"$tree/h.out" 2>"$tree/h.err"; rc=$?
check "-h: exit 0, on stdout alone" sh -c "[ $rc = 0 ] && [ -s '$tree/h.out' ] && [ ! -s '$tree/h.err' ]"
# Every row of the table: a line in help, and its own help.
awk '/^  [a-z]/ { print $1 }' "$tree/h.out" >"$tree/h.names"
check "help lists the commands (26 or more)" test "$(wc -l <"$tree/h.names")" -ge 26
# (help and attach take no -j: their usage shows none)
check "each has a help of its own, with its usage" sh -c "for c in \$(cat '$tree/h.names'); do
	case \$c in help|attach) j= ;; *) j='\\[-j\\] ' ;; esac
	'$tree/bin/spacectl' help \$c | grep -Eq \"^(usage:|      ) spacectl \$j\$c( |\$)\" || exit 1
done"
# COMMAND -h (and --help) is help COMMAND: it said invalid option (64),
# or invalid_space_id (1) for attach, prompt and sessions.
check "COMMAND -h is help COMMAND, exit 0, for every command" sh -c "for c in \$(cat '$tree/h.names'); do
	'$tree/bin/spacectl' \$c -h >'$tree/ch.out' 2>'$tree/ch.err' || exit 1
	'$tree/bin/spacectl' help \$c | cmp -s - '$tree/ch.out' || exit 1
	[ ! -s '$tree/ch.err' ] || exit 1
done"
check "  exec --help too" sh -c "'$tree/bin/spacectl' exec --help | grep -q '^usage: spacectl \[-j\] exec ID'"
check "help is -h" sh -c "sctl() { '$tree/bin/spacectl' \"\$@\"; }; sctl help | cmp -s - '$tree/h.out'"
check "help needs no socket and no XDG_RUNTIME_DIR" sh -c \
    "env -u XDG_RUNTIME_DIR '$tree/bin/spacectl' -s /nonexistent help >/dev/null"
sctl help create >"$tree/hc.out" 2>&1; rc=$?
check "help create: its usage and its line, exit 0" sh -c \
    "[ $rc = 0 ] && grep -qx 'usage: spacectl \[-j\] create \[-n name\] \[-m memory\] \[-p docker | native\] \[--code DIR\]' '$tree/hc.out' &&
     grep -q '^create: ' '$tree/hc.out'"
check "help events: its own usage, not review's and apply's" sh -c \
    "'$tree/bin/spacectl' help events >'$tree/he.out' && grep -qx 'usage: spacectl \[-j\] events \[-f\] \[-j\]' '$tree/he.out' &&
     ! grep -Eq 'review|apply' '$tree/he.out'"
check "help server: the arguments of server" sh -c \
    "'$tree/bin/spacectl' help server | grep -q '^usage: spacectl \[-j\] server ID'"
check "help limits: what arrives incomplete, as spacectl(8) says" sh -c \
    "'$tree/bin/spacectl' help limits | grep -q '^limits: what of DIR arrives incomplete'"
check "help verbose: spaced's own level (it said its workers' too)" sh -c \
    "'$tree/bin/spacectl' help verbose | grep -q \"^verbose: set spaced's own log level\""
sctl help nosuchcommand >"$tree/hn.out" 2>"$tree/hn.err"; rc=$?
check "help of an unknown command: 64, said on stderr" sh -c \
    "[ $rc = 64 ] && grep -q 'no command nosuchcommand' '$tree/hn.err' && [ ! -s '$tree/hn.out' ]"
# Each printed body ends its line: the text of every help.
check "every help ends with a newline" sh -c "for c in '' \$(cat '$tree/h.names'); do
	[ \"\$('$tree/bin/spacectl' help \$c | tail -c1 | od -An -c | tr -d ' ')\" = '\\n' ] || exit 1
done"
# The bash completion: the commands from help, an ID from list.
comp() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
	    _spacectl; printf "%s\n" "${COMPREPLY[@]}"' sh "$top/supervisor/spacectl/spacectl.bash" "$@"
}
check "completion: cr -> create" test "$(PATH="$tree/bin:$PATH" comp spacectl cr)" = create
check "completion: help sh -> show" test "$(PATH="$tree/bin:$PATH" comp spacectl help sh)" = show
check "completion: -j st -> start status stop stream-test" test \
    "$(PATH="$tree/bin:$PATH" comp spacectl -j st | sort | tr '\n' ' ')" = "start status stop stream-test "
rm -rf "$tree/inst"
check "make install puts the completion where bash-completion looks" sh -c \
    "make -s -C '$top' B='$build' DESTDIR='$tree/inst' PREFIX=/usr install >/dev/null &&
     cmp -s '$tree/inst/usr/share/bash-completion/completions/spacectl' '$top/supervisor/spacectl/spacectl.bash'"

if [ "$(id -u)" -ne 0 ]; then
	skip "the rest needs root (a second uid, its groups, the workers' users)"
	finish
fi
sh "$top/tools/users.sh" >/dev/null

# The docker group the rule is about; a host without one names another.
dgroup=docker
getent group docker >/dev/null || dgroup=daemon
dgid=$(getent group "$dgroup" | cut -d: -f3)
cp "$build/regress/tools/hostile-worker" "$tree/libexec/spaced/spaced-docker"
mkdir -p "$tree/engine"
"$build/regress/tools/fake_engine" "$tree/engine" >"$tree/engine.out" &
engine_pid=$!
wait_for 5 grep -q ready "$tree/engine.out"
base_conf="docker socket \"$tree/engine/ok.sock\"
docker group $dgroup"
SPACED_EXTRA_CONF=$base_conf
raw() { python3 "$top/regress/integration/ctl_raw.py" "$sd/run/spaced.sock" "$@"; }
asnobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@" >/dev/null; }
asdocker() { setpriv --reuid=65534 --regid=65534 --groups="$dgid" "$@" >/dev/null; }
sock="-s $sd/run/spaced.sock"

check "spaced starts with the stand-in place" start_spaced "$sd"

# --- the install id and the relay ---------------------------------------
iid=$(cat "$sd/state/install-id" 2>/dev/null)
check "the first start made an install id of 32 lowercase hex" sh -c \
    "printf '%s\n' '$iid' | grep -Eqx '[0-9a-f]{32}'"
check "the install-id file is root's, mode 0600" sh -c \
    "[ \"\$(stat -c '%U %a' '$sd/state/install-id')\" = 'root 600' ]"
key=$(sha256sum "$tree/libexec/spaced/spaced-relay" | cut -c1-16)
size=$(stat -c %s "$tree/libexec/spaced/spaced-relay")
check "spaced-docker got the relay's fd ($size bytes) and key $key" \
    grep -q "hostile: runtime key $key size $size fd size $size" "$sd/log"

# --- who may: admins and the docker group ------------------------------
check "status works for a user outside the docker group (control)" \
    asnobody "$tree/bin/spacectl" $sock status
check "a user outside the docker group gets permission_denied" sh -c \
    "setpriv --reuid=65534 --regid=65534 --clear-groups '$tree/bin/spacectl' $sock list 2>&1 >/dev/null | grep -q '^spacectl: permission_denied: '"
check "... for every space operation" sh -c "
for c in 'create' 'show 0123456789ab' 'verify 0123456789ab' 'stop 0123456789ab' 'start 0123456789ab' 'remove 0123456789ab'; do
	setpriv --reuid=65534 --regid=65534 --clear-groups '$tree/bin/spacectl' $sock \$c 2>&1 | grep -q permission_denied || exit 1
done"
check "... and with -j, an error object" sh -c \
    "setpriv --reuid=65534 --regid=65534 --clear-groups '$tree/bin/spacectl' -j $sock list | jq -es '.[-1] | .error == \"permission_denied\"' >/dev/null"
check "... and the admin commands' too (privileges, probe, ping, verbose)" sh -c "
for c in privileges 'probe docker execve' 'ping git' 'verbose 1'; do
	setpriv --reuid=65534 --regid=65534 --clear-groups '$tree/bin/spacectl' -j $sock \$c >'$tree/a.json' 2>/dev/null
	[ -s '$tree/a.json' ] && jq -e '.error == \"permission_denied\"' '$tree/a.json' >/dev/null || exit 1
done"
check "  without -j the refusal is said alone (privileges printed its table's head)" sh -c \
    "setpriv --reuid=65534 --regid=65534 --clear-groups '$tree/bin/spacectl' $sock privileges >'$tree/pv.out' 2>'$tree/pv.err'
     [ \$? = 1 ] && [ ! -s '$tree/pv.out' ] && grep -q '^spacectl: permission_denied' '$tree/pv.err'"
check "  privileges as root: the table (control)" sh -c \
    "'$tree/bin/spacectl' -j $sock privileges | jq -es '.[-1] | .processes | length > 1' >/dev/null"
check "the same user in group $dgroup ($dgid) passes (positive control)" \
    asdocker "$tree/bin/spacectl" $sock list
check "the group may also be the primary one" sh -c \
    "setpriv --reuid=65534 --regid=$dgid --clear-groups '$tree/bin/spacectl' $sock list >/dev/null"

# --- the owner is the caller's -------------------------------------------
check "root's request carries owner $iid:0" sh -c \
    "'$tree/bin/spacectl' -j $sock create -n owner | jq -es '.[-1] | .name == \"$iid:0\"' >/dev/null"
check "a docker-group user's request carries its own uid, $iid:65534" sh -c \
    "setpriv --reuid=65534 --regid=65534 --groups=$dgid '$tree/bin/spacectl' -j $sock create -n owner | jq -es '.[-1] | .name == \"$iid:65534\"' >/dev/null"
check "... and the runtime owner and key are the installation's" sh -c \
    "setpriv --reuid=65534 --regid=65534 --groups=$dgid '$tree/bin/spacectl' -j $sock list | jq -es '.[-1] | .[0].name == \"$iid:65534\" and .[0].project == \"$key\" and .[1].name == \"$iid:0\"' >/dev/null"
check "the images are the defaults" \
    grep -q "images spaced-space:latest spaced-gatekeeper:latest socket yes" "$sd/log"

# --- the records, in text and -j -----------------------------------------
ctl list >"$tree/list.txt"
cat >"$tree/list.want" <<EOW
ID            NAME                                STATE    GATEKEEPER  READY  CREATED               MISSING                     PLACE
0123456789ab  $iid:0  running  running     -      2026-01-31T12:00:00Z  -                           docker
ba9876543210  $iid:0  missing  exited      -      2026-02-01T08:30:00Z  network,gatekeeper_stopped  docker
ba9876543210: orphan volume spaced-space-ba9876543210-work
ba9876543210: orphan container spaced-space-ba9876543210-gatekeeper
EOW
check "list prints the aligned table and the orphans" \
    diff -u "$tree/list.want" "$tree/list.txt"
check "list -j: every field, missing and orphans, no memory" sh -c \
    "'$tree/bin/spacectl' -j $sock list | jq -es '.[-1] | length == 2 and
     (.[0] | keys) == [\"created\",\"damaged\",\"gatekeeper\",\"id\",\"missing\",\"name\",\"orphans\",\"place\",\"project\",\"state\"] and
     .[1].damaged == true and .[1].missing == [\"network\",\"gatekeeper_stopped\"] and
     .[1].orphans == [{\"kind\":\"volume\",\"name\":\"spaced-space-ba9876543210-work\"},{\"kind\":\"container\",\"name\":\"spaced-space-ba9876543210-gatekeeper\"}] and
     .[0].state == \"running\" and .[1].gatekeeper == \"exited\"' >/dev/null"
check "create prints the new id alone" sh -c \
    "[ \"\$('$tree/bin/spacectl' $sock create -n good)\" = 0123456789ab ]"
check "create -j -n -m: the object with its memory" sh -c \
    "'$tree/bin/spacectl' $sock create -j -n 'my space' -m 512m | jq -es '.[-1] | .id == \"0123456789ab\" and .name == \"my space\" and .memory == 536870912' >/dev/null"
check "the memory reached the place in bytes" \
    grep -q 'name "my space" memory 536870912' "$sd/log"
check "create without -m leaves the memory to the place (0)" \
    grep -q 'name "good" memory 0' "$sd/log"
ctl show 0123456789ab >"$tree/show.txt"
cat >"$tree/show.want" <<EOW
id:          0123456789ab
name:        shown
project:     -
created:     2026-01-31T12:00:00Z
state:       running
gatekeeper:  running
ready:       -
memory:      4294967296
damaged:     no
missing:     -
place:       docker
EOW
check "show prints one field a line" diff -u "$tree/show.want" "$tree/show.txt"
check "show -j has the memory" sh -c \
    "'$tree/bin/spacectl' -j $sock show 0123456789ab | jq -es '.[-1] | .id == \"0123456789ab\" and .memory == 4294967296 and .orphans == []' >/dev/null"
check "start prints the space as show does" sh -c \
    "'$tree/bin/spacectl' $sock start 0123456789ab | grep -qx 'name:        started'"
check "start -j is one object" sh -c \
    "'$tree/bin/spacectl' -j $sock start 0123456789ab | jq -es '.[-1] | .name == \"started\" and .memory == 4294967296' >/dev/null"
check "verify of a clean space prints nothing and exits 0" sh -c \
    "[ -z \"\$('$tree/bin/spacectl' $sock verify 000000000000)\" ]"
check "verify prints 'check: message' and exits 1 on violations" sh -c \
    "'$tree/bin/spacectl' $sock verify 0123456789ab >'$tree/v.txt'; [ \$? -eq 1 ] &&
     printf 'read_only_rootfs: ReadonlyRootfs is false\ngatekeeper_missing: the gatekeeper container is gone\n' | diff -u - '$tree/v.txt'"
check "verify -j: an array of {check, message}" sh -c \
    "'$tree/bin/spacectl' -j $sock verify 0123456789ab | jq -es '.[-1] | length == 2 and .[1] == {\"check\":\"gatekeeper_missing\",\"message\":\"the gatekeeper container is gone\"}' >/dev/null"
check "verify -j of a clean space: [] and exit 0" sh -c \
    "[ \"\$('$tree/bin/spacectl' -j $sock verify 000000000000 | jq -c .)\" = '[]' ]"
check "stop prints nothing" sh -c \
    "[ -z \"\$('$tree/bin/spacectl' $sock stop 0123456789ab)\" ]"
check "stop -j prints {}" sh -c \
    "[ \"\$('$tree/bin/spacectl' -j $sock stop 0123456789ab | jq -c .)\" = '{}' ]"
check "remove lists what it removed and what failed, exit 1 on a failure" sh -c \
    "'$tree/bin/spacectl' $sock remove 0123456789ab >'$tree/r.txt'; [ \$? -eq 1 ] &&
     printf 'removed container spaced-space-0123456789ab-space\nremoved volume spaced-space-0123456789ab-work\nfailed network spaced-space-0123456789ab-net\n' | diff -u - '$tree/r.txt'"
check "remove -j: {removed, failed}" sh -c \
    "'$tree/bin/spacectl' -j $sock remove 0123456789ab | jq -es '.[-1] | (.removed | length) == 2 and .failed == [{\"kind\":\"network\",\"name\":\"spaced-space-0123456789ab-net\"}]' >/dev/null"

# --- failures -----------------------------------------------------------
check "a place's failure: 'spacectl: code: message', exit 1" sh -c \
    "'$tree/bin/spacectl' $sock show ffffffffffff 2>&1 >/dev/null | grep -qx 'spacectl: space_not_found: no such space of yours'"
check "a failed create names what its rollback left and that it may finish" sh -c \
    "'$tree/bin/spacectl' $sock create -n fail 2>'$tree/f.err'; [ \$? -eq 1 ] &&
     grep -qx \"spacectl: gatekeeper_not_ready: the gatekeeper's corridor did not accept within 30 s\" '$tree/f.err' &&
     grep -qx 'spacectl: not removed: volume spaced-space-0123456789ab-work' '$tree/f.err' &&
     grep -q 'may still finish' '$tree/f.err'"
check "-j: the error object with uncertain and rollbackFailures" sh -c \
    "'$tree/bin/spacectl' -j $sock create -n fail >'$tree/f.json'; [ \$? -eq 1 ] &&
     jq -e '.error == \"gatekeeper_not_ready\" and (.message | test(\"corridor\")) and .details.uncertain == true and
     .details.rollbackFailures == [{\"kind\":\"volume\",\"name\":\"spaced-space-0123456789ab-work\"},{\"kind\":\"network\",\"name\":\"spaced-space-0123456789ab-net\"}]' '$tree/f.json' >/dev/null"
check "a create longer than spacectl's 20 s of silence waits on PROGRESS" sh -c \
    "[ \"\$('$tree/bin/spacectl' $sock create -n slow)\" = 0123456789ab ]"
check "a place's final failure is not answered with a cancel" sh -c \
    "! grep -q 'hostile: cancel' '$sd/log'"
# The client leaves once the place has the create (its request line),
# not after a while; the waits guard against a hang.
creates() { grep -c 'hostile: request .* name "slow"' "$sd/log"; }
creates_past() { [ "$(creates)" -gt "$1" ]; }
n0=$(creates)
"$tree/bin/spacectl" $sock create -n slow >/dev/null 2>&1 &
leaver=$!
wait_for 60 creates_past "$n0"
kill "$leaver"; wait "$leaver" 2>/dev/null
check "a client that leaves mid-create cancels it in the place (control)" \
    wait_for 60 grep -q 'hostile: cancel' "$sd/log"
requests_one() { [ "$("$tree/bin/spacectl" -j $sock status | jq '.processes[0].requests')" -eq 1 ]; }
check "and the place's acknowledgement frees it" wait_for 60 requests_one

# --- spaced refuses a malformed ctl_space ------------------------------
# types: create 107, list 108, show 109, verify 110, stop 111, start 112, remove 113
check "a well-formed raw list is answered (positive control)" sh -c \
    "[ \"\$(python3 '$top/regress/integration/ctl_raw.py' '$sd/run/spaced.sock' space 108 '' '' '' 0)\" = 'data data data data end' ]"
check "a well-formed raw create with every field is answered (positive control)" sh -c \
    "[ \"\$(python3 '$top/regress/integration/ctl_raw.py' '$sd/run/spaced.sock' space 107 '' 'n' 0123456789abcdef 6291456)\" = 'data end' ]"
bad_req() {
	[ "$(raw space "$@")" = bad_request ]
}
check "an id without its NUL: bad_request" bad_req 109 UNTERM '' '' 0
check "a name without its NUL: bad_request" bad_req 107 '' UNTERM '' 0
check "a project without its NUL: bad_request" bad_req 107 '' '' UNTERM 0
check "an id on create: bad_request" bad_req 107 0123456789ab '' '' 0
check "an id on list: bad_request" bad_req 108 0123456789ab '' '' 0
check "no id on show: bad_request" bad_req 109 '' '' '' 0
check "an uppercase id on remove: bad_request" bad_req 113 0123456789AB '' '' 0
check "a short id on stop: bad_request" bad_req 111 0123456789a '' '' 0
check "a name with a control character: bad_request" bad_req 107 '' 'a\x01b' '' 0
check "a name that is not UTF-8: bad_request" bad_req 107 '' 'bad\xffutf' '' 0
check "a name with a C1 control (CSI): bad_request" bad_req 107 '' 'c1\xc2\x9b2J' '' 0
check "a project that is not 16 hex: bad_request" bad_req 107 '' '' 0123456789abcdeg 0
check "a memory under 6 MiB: bad_request" bad_req 107 '' '' '' 6291455
check "a memory over 1 TiB: bad_request" bad_req 107 '' '' '' 1099511627777
check "spaced logged nothing of them to the place" sh -c \
    "! grep -q 'name \"a' '$sd/log'"

# --- engine connections a place asks for --------------------------------
fds_before=$(ls "/proc/$spaced_pid/fd" | wc -l)
check "10 CONN_REQ for one request: 8 sockets, then 2 answers without" sh -c \
    "'$tree/bin/spacectl' -j $sock create -n connflood | jq -es '.[-1] | .name == \"conns 8 with 2 without\"' >/dev/null"
check "spaced keeps none of those sockets" \
    [ "$(ls "/proc/$spaced_pid/fd" | wc -l)" -le "$fds_before" ]
check "spaced still serves" ctl ping docker
stop_spaced

# --- configuration: the id stays, the images come from spaced.conf -------
SPACED_EXTRA_CONF="$base_conf
space image \"registry.example/space:7\"
gatekeeper image gk@sha256:0123"
check "spaced starts again" start_spaced "$sd"
check "the install id survived the restart" sh -c \
    "[ \"\$(cat '$sd/state/install-id')\" = '$iid' ] &&
     '$tree/bin/spacectl' -j $sock create -n owner | jq -es '.[-1] | .name == \"$iid:0\"' >/dev/null"
check "the configured images reach the place" sh -c \
    "'$tree/bin/spacectl' $sock stop 0123456789ab && grep -q 'images registry.example/space:7 gk@sha256:0123 socket yes' '$sd/log'"
stop_spaced
SPACED_EXTRA_CONF="$base_conf
install id 00112233445566778899aabbccddeeff"
check "spaced starts with an install id in spaced.conf" start_spaced "$sd"
check "the configured install id wins over the file" sh -c \
    "'$tree/bin/spacectl' -j $sock create -n owner | jq -es '.[-1] | .name == \"00112233445566778899aabbccddeeff:0\"' >/dev/null"
stop_spaced
SPACED_EXTRA_CONF=$base_conf
echo NOTHEX >"$sd/state/install-id"
check_fails "a file that holds no install id stops spaced" start_spaced "$sd"
stop_spaced
check "... and says why" grep -q "install-id: not an install id" "$sd/log"
printf '%s\n' "$iid" >"$sd/state/install-id"
chmod 0666 "$sd/state/install-id"
check_fails "an install-id file others may write stops spaced" start_spaced "$sd"
stop_spaced
check "... and says why" grep -q "writable by it alone" "$sd/log"
chmod 0600 "$sd/state/install-id"

SPACED_EXTRA_CONF="docker socket \"$tree/nonexistent.sock\"
docker group $dgroup"
check "spaced starts with an Engine socket that does not answer" start_spaced "$sd"
check "a space operation then answers docker_unreachable" sh -c \
    "'$tree/bin/spacectl' $sock list 2>&1 | grep -qx 'spacectl: docker_unreachable: spaced cannot connect to the Docker socket'"
stop_spaced

mv "$tree/libexec/spaced/spaced-relay" "$tree/relay.away"
SPACED_EXTRA_CONF=$base_conf
check "spaced starts without its relay" start_spaced "$sd"
check "it says so in its log" grep -q "runtime: .*spaced-relay" "$sd/log"
check "create answers runtime_missing" sh -c \
    "'$tree/bin/spacectl' $sock create 2>&1 | grep -q '^spacectl: runtime_missing: '"
check "list still works without the relay (control)" sh -c \
    "'$tree/bin/spacectl' $sock list >/dev/null"
lacks "spaced-docker got no runtime message" "$sd/log" 'hostile: runtime'
stop_spaced
mv "$tree/relay.away" "$tree/libexec/spaced/spaced-relay"

# The hosts file every space binds at /etc/hosts: only this build's text,
# writable by its owner alone.  Control: the unaltered file gets no word.
h=$tree/libexec/spaced/space-hosts
cp "$h" "$tree/hosts.keep"
hosts_refused() {	# what to do to the file, what the log says
	cp "$tree/hosts.keep" "$h" && chmod 0644 "$h" && sh -c "$1" || return 1
	start_spaced "$sd" || return 1
	"$tree/bin/spacectl" $sock create >"$tree/hosts.out" 2>&1
	stop_spaced
	grep -q '^spacectl: runtime_missing: .*space-hosts' "$tree/hosts.out" &&
	    grep -q "runtime: .*$2" "$sd/log"
}
check "a hosts file with another line is refused" \
    hosts_refused "echo '192.0.2.1 gatekeeper' >>'$h'" "not the hosts file"
check "a hosts file that names gatekeeper elsewhere is refused" \
    hosts_refused "sed -i 's/^127.0.0.1\tgatekeeper/192.0.2.1\tgatekeeper/' '$h'" \
    "not the hosts file"
check "a hosts file others may write is refused" \
    hosts_refused "chmod 0666 '$h'" "others may write"
check "a link to a copy others may write is refused (the target is checked)" \
    hosts_refused "rm -f '$h' && cp '$tree/hosts.keep' '$tree/hosts.real' &&
    chmod 0666 '$tree/hosts.real' && ln -s '$tree/hosts.real' '$h'" \
    "hosts.real is not the hosts file"
check "no hosts file: refused" hosts_refused "rm -f '$h'" "space-hosts"
# The control says what the file as built gets, not that a refusal
# failed: spaced sends the runtime on, create is not runtime_missing.
hosts_taken() {
	cp "$tree/hosts.keep" "$h" && chmod 0644 "$h" || return 1
	start_spaced "$sd" || return 1
	"$tree/bin/spacectl" $sock create >"$tree/hosts.out" 2>&1
	stop_spaced
	echo "# the file as built: create says $(head -c 120 "$tree/hosts.out")"
	grep -q 'hostile: runtime' "$sd/log" &&
	    ! grep -q 'runtime_missing' "$tree/hosts.out" &&
	    ! grep -q "runtime: .*space-hosts" "$sd/log"
}
check "control: the file as built is sent on, no word" hosts_taken
# A folder on its path others may write: anyone could swap the file.
check "a hosts file in a folder others may write is refused" \
    hosts_refused "chmod 0777 '$tree/libexec/spaced'" \
    "others may write a folder on its path"
chmod 0755 "$tree/libexec/spaced"
# Bound by path at each create: a file swapped or rewritten after start
# is not this build's any more.  Control: the first create, before.
hosts_swapped() {	# what to do to the file after start
	cp "$tree/hosts.keep" "$h" && chmod 0644 "$h" || return 1
	start_spaced "$sd" || return 1
	"$tree/bin/spacectl" $sock create >"$tree/hosts.before" 2>&1
	sh -c "$1"
	"$tree/bin/spacectl" $sock create >"$tree/hosts.out" 2>&1
	stop_spaced
	! grep -q 'runtime_missing' "$tree/hosts.before" ||
	    { echo "# control: refused before the change"; return 1; }
	grep -q '^spacectl: runtime_missing: ' "$tree/hosts.out" &&
	    grep -q "runtime: .*space-hosts changed since start" "$sd/log"
}
check "a hosts file swapped after start is refused at the next create" \
    hosts_swapped "printf '192.0.2.1\\tgatekeeper\\n' >'$tree/h.new' &&
    mv '$tree/h.new' '$h'"
check "a hosts file rewritten in place after start is refused" \
    hosts_swapped "printf '192.0.2.1\\tgatekeeper\\n' >'$h'"
rm -f "$h" "$tree/hosts.real"
cp "$tree/hosts.keep" "$h" && chmod 0644 "$h"

# --- a place that lies -----------------------------------------------------
lie() {
	start_spaced "$sd" || return 1
	"$tree/bin/spacectl" $sock create -n "$1" >"$tree/lie.out" 2>&1
	wait_for 10 sh -c "! kill -0 $spaced_pid" ||
	    { echo "# spaced took it"; sed 's/^/#   /' "$sd/log"; stop_spaced
	    return 1; }
	wait "$spaced_pid"; rc=$?; spaced_pid=
	grep -q "$2" "$sd/log" || { sed 's/^/#   /' "$sd/log"; return 1; }
	# Nothing of it reached the client: no id, no name.
	! grep -q '0123456789ab\|AAAA' "$tree/lie.out" && [ "$rc" -ne 0 ]
}
check "a record with an unterminated string stops spaced, unforwarded" \
    lie unterminated "bad space info from docker"
check "an info record of another kind stops spaced" \
    lie badkind "bad space info from docker"
check "a DONE whose code is not [a-z0-9_]+ stops spaced" \
    lie badcode "bad done from docker"
check "a CONN_REQ for a request it was never given stops spaced" \
    lie unsolicited "for no pending request"

finish
