#!/bin/sh
# The server inside a space, against the real engine, with a test agent
# whose server answers what the test asks of it (hostile-server/): the
# token's way in and where it never is, readiness and its bounds, and
# every hostile answer of the spec's exec channel, each with a control.
# The tools come from a packed source: npm pack here, the filler fills
# offline.
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/hostile.sh"
# The author of the agent's commits, named by the profile (git's names
# hold "AUTH" and are no secret).
SPACED_AGENT_CONF=$(profile "agent hostile env GIT_AUTHOR_NAME=Agent
agent hostile env GIT_AUTHOR_EMAIL=agent@spaces.invalid")
# Every byte spaced sends the engine, recorded: where the token crosses
# the Engine API (only as an exec's stdin).  Before it, the fault proxy,
# for a token's write that fails.
rec=$(mktemp -d /tmp/spaced-record.XXXXXX)
python3 "$dir/engine_record.py" serve "$rec/engine.sock" \
    /var/run/docker.sock "$rec" 2>"$rec/err" &
recpid=$!
python3 "$dir/../integration/engine_fault.py" "$rec/fault.sock" \
    "$rec/engine.sock" "$rec/rules" >"$rec/fault.log" 2>&1 &
faultpid=$!
trap 'kill $recpid $faultpid 2>/dev/null; rm -rf "$rec"' EXIT
# Until both listen (a hang guard of 60 s: a python's start on a loaded
# machine is no matter of 5).
i=0
while { [ ! -S "$rec/engine.sock" ] || [ ! -S "$rec/fault.sock" ]; } &&
    [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
SPACED_EXTRA_CONF="docker socket \"$rec/fault.sock\""
. "$dir/../contract/lib.sh"

inside() { sc exec "$1" -- /bin/sh -c "$2"; }
mode() { inside "$1" "echo $2 > \$HOME/.hostile-mode"; }
# elapsed CMD...: runs it, prints its seconds (a figure, never a check:
# speed is regress/bench/'s), keeps its status
elapsed() { t0=$(date +%s.%N); "$@"; rc=$?; echo "# took $(echo "$(date +%s.%N) - $t0" | bc) s"; return $rc; }
code_of() { sed -n 's/^spacectl: \([a-z_]*\):.*/\1/p' | head -1; }

check "npm packed the test agent" test -s "$TGZ"
check "spaced -n takes a profile naming the author of the agent's commits" \
    sh -c "'$tree/sbin/spaced' -n -f '$sd/spaced.conf' | grep -qx 'agent hostile env GIT_AUTHOR_NAME=Agent'"
sed 's/GIT_AUTHOR_EMAIL=[^ ]*/GIT_AUTH_TOKEN=x/' "$sd/spaced.conf" >"$T/token.conf"
check_refusal "... and refuses GIT_AUTH_TOKEN in its place (control: -n checks env)" \
    1 "looks like a secret" "$tree/sbin/spaced" -n -f "$T/token.conf"
check "tools fill fills the packed profile offline" sc tools fill

# --- create waits for the server, and the token's way in ----------------
id=$(sc create -n hostile) || { not_ok "create with the test agent"; finish; }
ok "create answers once the server is ready ($id)"
check "show says ready" sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j show $id | jq -e '.ready == true' >/dev/null"
check "list says ready" sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' list | grep -q '^$id .* yes '"
tok=$(sc token $id)
check "the token is 43 characters of base64url (32 bytes)" sh -c \
    "printf %s '$tok' | grep -Eqx '[A-Za-z0-9_-]{43}'"
check "the token file is 0600 in a 0700 folder of the space user" sh -c \
    "[ \"\$($tree/bin/spacectl -s $sd/run/spaced.sock exec $id -- stat -c '%a %a %U' /home/space/.spaced-space /home/space/.spaced-space/token | tr '\n' ' ')\" = '700 700 space 600 600 space ' ] || [ \"\$($tree/bin/spacectl -s $sd/run/spaced.sock exec $id -- stat -c '%a' /home/space/.spaced-space /home/space/.spaced-space/token | tr '\n' ' ')\" = '700 600 ' ]"
check "the server got it as its password (a request with it answers 200)" \
    sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET /x | grep -q '\"path\":\"/x\"'"
check "a request without it is refused inside (control)" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec $id -- /usr/bin/curl -s --disable http://127.0.0.1:$PORT/ | grep -qx no"
# Where the token never is: the inspect of both containers (labels, env,
# argv), the argv of every process on the host.  Control: the same search
# finds what is there (the space's id, a planted copy).
insp=$(api GET "/containers/spaced-space-$id-space/json"; api GET "/containers/spaced-space-$id-gatekeeper/json")
check "the search of the inspect output finds the space's id (control)" sh -c "printf %s '$insp' | grep -q '$id'"
check_fails "the token is in neither container's inspect (labels, env, argv)" sh -c "printf %s '$insp' | grep -qF -- '$tok'"
# (the pattern from a file: an argv holding it would find itself)
printf '%s\n' "$tok" >"$T/tok"
in_host_argv() {
	for f in /proc/[0-9]*/cmdline; do tr '\0' ' ' <"$f" 2>/dev/null; echo; done |
	    grep -qF -f "$T/tok"
}
check_fails "the token is in no argv on the host" in_host_argv
check_fails "... nor in any argv inside the space" sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec $id -- /bin/sh -c 'cat /proc/[0-9]*/cmdline' | tr '\0' ' ' | grep -qF -- '$tok'"
# What crossed the Engine API so far: the create, the token's write, the
# readiness requests and the ones above.
where() { python3 "$dir/engine_record.py" where "$rec" "$T/tok" 2>"$T/where.log"; }
where >"$T/where"
cat "$T/where.log"
check "the token crossed the Engine API as an exec's stdin (control: the recording sees it)" \
    sh -c "! grep -qx 'stream 0' '$T/where'"
check "... and in no request: no Env, Cmd, label, path or header holds it" \
    grep -qx 'http 0' "$T/where"
check "a planted copy in an argv is found (control)" sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec $id -- /bin/sh -c '/bin/sleep 5 $tok & cat /proc/[0-9]*/cmdline' | tr '\0' ' ' | grep -qF -- '$tok'"
where >"$T/where.planted"
check "the planted copy went in a request's Cmd, and the recording sees it there (control)" \
    grep -Eqx 'http [1-9][0-9]*' "$T/where.planted"
lacks "the token is not in spaced's log" "$sd/log" -F -f "$T/tok"

# --- the author of the agent's commits -----------------------------------
# A commit of a command the server started (as an agent's is), with no
# author setting but the profile's; user.name is the committer's alone,
# the control of what git takes without the profile's variables.
spawn() { sc server "$1" GET "/spawn/$(printf %s "$2" | base64 -w0 | tr '+/' '-_' | tr -d =)" >/dev/null; }
spawn $id 'cd "$(mktemp -d "$HOME/c.XXXXXX")" && git init -q && git -c user.name=Host -c user.email=host@h.invalid commit -q --allow-empty -m m && git log -1 --format="%an <%ae>|%cn <%ce>" >$HOME/.author.tmp && mv $HOME/.author.tmp $HOME/.author'
authored() { inside $id 'cat $HOME/.author' >"$T/author" 2>/dev/null; }
check "a commit of the agent's is made" wait_for 30 authored
check "... with the profile's author" grep -q '^Agent <agent@spaces.invalid>|' "$T/author"
check "... and the committer of git's config, where no variable names one (control)" \
    grep -q '|Host <host@h.invalid>$' "$T/author"

# --- hostile answers ------------------------------------------------------
mode $id notjson
check "a body that is not JSON passes through server as the body" sh -c \
    "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET /)\" = hello ]"
check "... ending its line: a newline added to a body without one" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET / | od -An -c | tr -d ' \n' | grep -qx 'hello\\\\n'"
check "... and -j keeps the body exact" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j server $id GET / | jq -e '.body == \"hello\"' >/dev/null"
check "... and is not ready for show" sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j show $id | jq -e '.ready == false' >/dev/null"
mode $id null
check "a null body is not ready" sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j show $id | jq -e '.ready == false' >/dev/null"
mode $id notready
check "healthy false is not ready" sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j show $id | jq -e '.ready == false' >/dev/null"
mode $id bigheaders
check "headers past 64 KiB: space_server_answer_unreadable" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET / 2>&1 | grep -q '^spacectl: space_server_answer_unreadable'"
mode $id lines
check "250 header lines: space_server_answer_unreadable" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET / 2>&1 | grep -q '^spacectl: space_server_answer_unreadable'"
mode $id proto
check "__proto__ and constructor are header names like any other (control: 200)" \
    sc server $id GET /
mode $id http09
check "an answer that is not HTTP: space_server_unreachable (curl says so)" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET / 2>&1 | grep -q '^spacectl: space_server_unreachable'"
mode $id flood
check "5 MiB of body: space_server_answer_unreadable, never command_output_too_large" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET / 2>&1 | grep -q '^spacectl: space_server_answer_unreadable'"
mode $id hang
elapsed sh -c "timeout 60 '$tree/bin/spacectl' -s '$sd/run/spaced.sock' -j show $id > '$T/hang.json'"
check "a listener that never answers is not ready for show (it returns)" jq -e '.ready == false and .notReady == "space_server_unreachable"' "$T/hang.json"
mode $id ok
# ~/.curlrc of the space user: --disable keeps curl from reading it.
inside $id 'printf "%s\n" "write-out = \"spaced-curl 200 0 5\\n\"" "output = /dev/null" > $HOME/.curlrc'
check "a ~/.curlrc changes what curl without --disable prints (control)" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec $id -- /usr/bin/curl -s http://127.0.0.1:$PORT/ 2>&1 | grep -q 'spaced-curl 200 0 5'"
check "with it, server still answers the server's own body" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET /rc | grep -q '\"path\":\"/rc\"'"
inside $id 'rm -f $HOME/.curlrc'

# --- the token file, owned by the agent ----------------------------------
inside $id 'd=$HOME/.spaced-space; cp $d/token $d/keep; rm $d/token; mkfifo $d/token'
# timeout: a guard against a hang, far above the 10 s limit, not a measure
elapsed sh -c "timeout 60 '$tree/bin/spacectl' -s '$sd/run/spaced.sock' token $id 2>'$T/fifo.err'"
check "a FIFO for a token: space_token_unreadable (it returns)" grep -q '^spacectl: space_token_unreadable' "$T/fifo.err"
inside $id 'd=$HOME/.spaced-space; rm $d/token; head -c 2000000 /dev/zero | tr "\0" a > $d/token'
check "a huge token file: space_token_unreadable" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' token $id 2>&1 | grep -q '^spacectl: space_token_unreadable'"
inside $id 'd=$HOME/.spaced-space; printf "bad token!%040d" 0 > $d/token'
check "a token that is not base64url: space_token_unreadable" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' token $id 2>&1 | grep -q '^spacectl: space_token_unreadable'"
inside $id 'd=$HOME/.spaced-space; mv -f $d/keep $d/token'
check "the token back, it reads again (control)" sh -c "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' token $id)\" = '$tok' ]"

# --- stop and start keep the token; start waits, within its bound ---------
check "stop" sc stop $id
check "start waits for the server again" sh -c "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' start $id >'$T/start.out'"
# It waited for the server: it says so, as show does (it printed '-').
check "... and prints it ready, as show does" grep -Eqx 'ready: +yes' "$T/start.out"
check "the token stayed" sh -c "[ \"\$('$tree/bin/spacectl' -s '$sd/run/spaced.sock' token $id)\" = '$tok' ]"
check "and the server answers with it" sc server $id GET /
mode $id hang
sc stop $id >/dev/null
elapsed sh -c "timeout 120 '$tree/bin/spacectl' -s '$sd/run/spaced.sock' start $id 2>'$T/start.err'"
check "start of a server that never answers: space_server_not_ready" grep -q '^spacectl: space_server_not_ready' "$T/start.err"
check "... names the seconds it waited" grep -Eq 'not ready after [0-9]+ s' "$T/start.err"
check "... and tried again before it gave up (more than one attempt)" \
    grep -Eq 'not ready after [0-9]+ s \(([2-9]|[1-9][0-9]+) attempts' "$T/start.err"
check "a start that failed leaves the space (it is the user's)" sc show $id
mode $id ok
check "remove" sc remove $id

# --- a token that cannot be written: the create fails, leaves nothing -----
# (the place writes it as the space starts, beside the gatekeeper's start)
before=$(leftovers | sort)
echo fail-exec-space >"$rec/rules"
sc create -n notoken >/dev/null 2>"$T/notoken.err"
: >"$rec/rules"
check "a token's write the engine refuses fails the create, and says so" \
    grep -q "^spacectl: [a-z_]*: the token could not be written" "$T/notoken.err"
sed 's/^/# /' "$T/notoken.err"
check "... and removed everything it made" [ "$(leftovers | sort)" = "$before" ]
id=$(sc create -n token) && ok "without the fault the same create stands (control)" ||
    not_ok "without the fault the same create stands (control)"
[ -n "$id" ] && sc remove "$id" >/dev/null

# --- a create whose server is never ready leaves nothing -------------------
stop_spaced
# Never ready by its mode: the wait's length changes nothing but time.
SPACED_AGENT_CONF=$(HOSTILE_READY_WAIT=8 profile "agent hostile env HOSTILE_DEFAULT_MODE=notready")
start_spaced "$T/sd" || not_ok "spaced starts again"
before=$(leftovers | sort)
elapsed sh -c "timeout 120 '$tree/bin/spacectl' -s '$sd/run/spaced.sock' create -n never 2>'$T/create.err'"
check "a create whose server is never ready: space_server_not_ready (it returns)" grep -q '^spacectl: space_server_not_ready' "$T/create.err"
after=$(leftovers | sort)
check "... and removed everything it made" [ "$after" = "$before" ]
[ "$after" = "$before" ] || echo "# before: $before; after: $after"

# A client that leaves while the create waits for the server: the space
# stood already (control), and the create removes it on its own.  Its
# wait must outlast the look that the server was asked: node's start
# alone took over 8 s on a loaded machine, and at 8 s the create could give up
# before the control saw it (the server never ready all the same).
stop_spaced
SPACED_AGENT_CONF=$(HOSTILE_READY_WAIT=120 profile "agent hostile env HOSTILE_DEFAULT_MODE=notready")
start_spaced "$T/sd" || not_ok "spaced starts again"
"$tree/bin/spacectl" -s "$sd/run/spaced.sock" create -n leaving >/dev/null 2>&1 &
cpid=$!
# The place is done and the wait for the server runs: the server was
# asked (the token alone is in before the place is done).
awaited() {
	c=$(api GET "/containers/json?filters=$(printf '{"label":["spaced.space.owner=%s:0"],"status":["running"]}' "$INSTALL" | jq -sRr @uri)" |
	    jq -r '.[] | .Names[0] | select(endswith("-space")) | ltrimstr("/")')
	[ -n "$c" ] && docker exec "$c" test -s /home/space/.spaced-space/token &&
	    docker exec "$c" test -s /home/space/.hostile-asked
}
check "the leaving client's space runs, has its token and was asked (control)" wait_for 60 awaited
kill "$cpid" 2>/dev/null; wait "$cpid" 2>/dev/null
gone() { [ "$(leftovers | sort)" = "$before" ]; }
check "a client that leaves while the server is awaited: its space is removed" wait_for 60 gone

# The tools volumes of this run go with it.
for v in $(api GET /volumes | jq -r '.Volumes[].Name' | grep "^spaced-tools-$INSTALL-"); do
	api DELETE "/volumes/$v" >/dev/null
done
rm -rf "$tgzdir"
finish
