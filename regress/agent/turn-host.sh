#!/bin/sh
# A real agent turn, on the host, outside any space: OpenCode's server
# (the pinned opencode-ai) asked through its own HTTP API, with curl and
# its config on stdin as the host does through an exec, to run one shell
# command; a scripted OpenAI-compatible model answers with that tool
# call; OpenCode runs it; the test reads the result.
#
# Two network namespaces the test makes: the model's (the scripted model,
# a stand-in for the window that adds the grant's key, and a DNS logger
# on 203.0.113.2) and the agent's (OpenCode alone, loopback and a veth to
# 203.0.113.2/24: no other route, so nothing can be fetched from
# anywhere).  OpenCode's configuration is what a space gives it: a
# provider whose baseURL is the window's /model/<grant>/v1 and no key.
# A negative control first: a grant whose key is wrong, the model says
# 401, and no file appears.
#
# Root, no stdin.  Exit 0 when every check passes.  Logs:
# /tmp/agent-turn-*.log.  OPENCODE=path of the opencode binary; else the
# pinned version (common/proto/agent.h) under /var/cache/spaced, installed from
# the npm registry when missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/regress/lib/harness.sh"
now()	{ date +%s.%N; }
since()	{ echo "$1 $(now)" | awk '{ printf "%.2f", $2 - $1 }'; }

[ "$(id -u)" -eq 0 ] || { not_ok "runs as root"; finish; }
for t in ip python3 curl jq awk; do
	command -v "$t" >/dev/null || { not_ok "$t is installed"; finish; }
done

VERSION=$(sed -n 's/^#define AGENT_OPENCODE_VERSION[^"]*"\(.*\)"/\1/p' \
    "$top/common/proto/agent.h")
[ -n "$VERSION" ] || VERSION=1.18.33
CACHE=/var/cache/spaced/opencode-$VERSION
if [ -z "${OPENCODE:-}" ]; then
	OPENCODE=$CACHE/node_modules/.bin/opencode
	if ! "$OPENCODE" --version >/dev/null 2>&1; then
		echo "# installing opencode-ai@$VERSION into $CACHE"
		mkdir -p "$CACHE" &&
		(cd "$CACHE" && npm install --ignore-scripts --no-audit \
		    --no-fund "opencode-ai@$VERSION" &&
		    cd node_modules/opencode-ai && node postinstall.mjs) \
		    </dev/null >/tmp/agent-turn-install.log 2>&1
	fi
fi
check "opencode $VERSION runs" \
    test "$("$OPENCODE" --version 2>/dev/null)" = "$VERSION"
[ "$fail" -eq 0 ] || finish

T=$(mktemp -d /tmp/agent-turn.XXXXXX)
NM=spaced-model-$$ NA=spaced-agent-$$
MODEL=203.0.113.2 AGENT=203.0.113.1
OCPORT=4096
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	sleep 0.3
	for p in $pids; do kill -9 "$p" 2>/dev/null; done
	ip netns delete "$NA" 2>/dev/null
	ip netns delete "$NM" 2>/dev/null
	rm -rf "/etc/netns/$NA"
	rmdir /etc/netns 2>/dev/null
	for f in model window oc; do
		[ -f "$T/$f.log" ] && cp "$T/$f.log" "/tmp/agent-turn-$f.log"
	done
	[ -f "$T/msgs.json" ] && cp "$T/msgs.json" /tmp/agent-turn-messages.log
	[ -f "$T/home/.local/share/opencode/log/opencode.log" ] &&
	    cp "$T/home/.local/share/opencode/log/opencode.log" \
	    /tmp/agent-turn-opencode.log
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# The two namespaces and the veth between them, nothing else.
ip netns add "$NM" && ip netns add "$NA" &&
ip link add "vm$$" type veth peer name "va$$" &&
ip link set "vm$$" netns "$NM" && ip link set "va$$" netns "$NA" &&
ip -n "$NM" addr add "$MODEL/24" dev "vm$$" &&
ip -n "$NA" addr add "$AGENT/24" dev "va$$" &&
ip -n "$NM" link set lo up && ip -n "$NA" link set lo up &&
ip -n "$NM" link set "vm$$" up && ip -n "$NA" link set "va$$" up
check "the model's and the agent's namespaces" test $? -eq 0
# ip netns exec binds this over /etc/resolv.conf: every name OpenCode
# looks up reaches the logger and gets NXDOMAIN.
# and its hosts: "gatekeeper" is the model's address here, as it is the
# relay's 127.0.0.1 inside a space.
mkdir -p "/etc/netns/$NA" &&
    echo "nameserver $MODEL" >"/etc/netns/$NA/resolv.conf" &&
    printf '127.0.0.1 localhost\n%s gatekeeper\n' "$MODEL" \
    >"/etc/netns/$NA/hosts"
check "the agent's namespace has no default route" \
    sh -c "! ip -n $NA route show default | grep -q ."

# Keys: the grant's, and a wrong one for the negative control.
umask 077
rnd() { od -An -N16 -tx1 /dev/urandom | tr -d ' \n'; }
KEY=sk-spaced-$(rnd) WRONG=sk-wrong-$(rnd)
GOOD=g$(rnd | cut -c1-16) BAD=g$(rnd | cut -c1-16)
mkdir -p "$T/grants" "$T/home" "$T/proj"
printf '%s\n' "$KEY" >"$T/key"
printf '%s\n' "$KEY" >"$T/grants/$GOOD"
printf '%s\n' "$WRONG" >"$T/grants/$BAD"
umask 022
chmod 0755 "$T" "$T/home" "$T/proj"

TOKEN=spaced-turn-$(rnd | cut -c1-12)
CMD="echo $TOKEN > turn.txt; cat turn.txt"
ip netns exec "$NM" python3 "$here/model-server.py" --listen "$MODEL" \
    --port 8000 --key-file "$T/key" --log "$T/model.log" --dns \
    --proxy-port 3128 \
    --command "$CMD" --lifetime 300 </dev/null >"$T/model.err" 2>&1 &
pids="$pids $!"
ip netns exec "$NM" python3 "$here/window.py" --listen "$MODEL" \
    --port 8080 --grants "$T/grants" --upstream "$MODEL:8000" \
    --log "$T/window.log" --lifetime 300 </dev/null >"$T/window.err" 2>&1 &
pids="$pids $!"
# up PORT, ready, idle: polls, each a hang guard of about 60 s (a
# python's or OpenCode's start on a loaded machine is no matter of 5).
up() {
	i=0
	while [ $i -lt 600 ]; do
		ip netns exec "$NA" curl -s -o /dev/null --max-time 1 \
		    "http://$MODEL:$1/spaced-probe" && return 0
		sleep 0.1; i=$((i + 1))
	done
	return 1
}
check "the scripted model listens on $MODEL:8000" up 8000
check "the window stand-in listens on $MODEL:8080" up 8080
check "the corridor stand-in listens on $MODEL:3128" up 3128

# OpenCode with the environment a space gives it.  The config is the
# agent profile's model setting: a provider of the bundled
# @ai-sdk/openai-compatible, its baseURL the window's path for a grant,
# no key.  The second provider is the negative control's grant.
# enabled_providers hides the catalog bundled in the binary (its free
# "opencode" provider would otherwise be offered); "*": "allow" because
# with "bash": "allow" alone a command that touches a path outside the
# project waits for an external_directory permission that nobody gives.
prov() {
	jq -cn --arg u "http://gatekeeper:8080/model/$1/v1" '{
	    npm: "@ai-sdk/openai-compatible", name: "spaced",
	    options: { baseURL: $u },
	    models: { scripted: { name: "scripted" } } }'
}
CONFIG=$(jq -cn --argjson g "$(prov "$GOOD")" --argjson b "$(prov "$BAD")" '{
    "$schema": "https://opencode.ai/config.json",
    provider: { spaced: $g, spacedbad: $b },
    enabled_providers: [ "spaced", "spacedbad" ],
    model: "spaced/scripted", small_model: "spaced/scripted",
    permission: { "*": "allow" },
    autoupdate: false, share: "disabled" }')
# OpenCode installs @opencode-ai/plugin into each config directory it
# finds (here ~/.config/opencode) from the npm registry unless that
# directory is read-only or already holds node_modules and a lock that
# names the package: a space's command writes these first.
# SPACED_TURN_NOISY=1 drops both measures (and OPENCODE_DISABLE_*), to
# see what OpenCode reaches for without them: the last checks then fail.
QUIET="OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_AUTOUPDATE=1
    OPENCODE_DISABLE_LSP_DOWNLOAD=1 OPENCODE_DISABLE_SHARE=1"
[ -z "${SPACED_TURN_NOISY:-}" ] || QUIET=
cfg=$T/home/.config/opencode
[ -n "$QUIET" ] && mkdir -p "$cfg/node_modules"
mkdir -p "$cfg"
printf 'node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore' \
    >"$cfg/.gitignore"
[ -n "$QUIET" ] &&
printf '{"dependencies":{"@opencode-ai/plugin":"%s"}}\n' "$VERSION" \
    >"$cfg/package.json" &&
printf '{"lockfileVersion":3,"requires":true,"packages":{"":{"dependencies":{"@opencode-ai/plugin":"%s"}}}}\n' \
    "$VERSION" >"$cfg/package-lock.json"
PASSWORD=$(rnd)
t0=$(now)
(cd "$T/proj" && exec env -i PATH=/usr/local/bin:/usr/bin:/bin \
    HOME="$T/home" LANG=C.UTF-8 \
    OPENCODE_SERVER_PASSWORD="$PASSWORD" \
    OPENCODE_CONFIG_CONTENT="$CONFIG" \
    HTTPS_PROXY=http://gatekeeper:3128 https_proxy=http://gatekeeper:3128 \
    HTTP_PROXY=http://gatekeeper:3128 http_proxy=http://gatekeeper:3128 \
    NO_PROXY=gatekeeper,localhost,127.0.0.1 \
    no_proxy=gatekeeper,localhost,127.0.0.1 NODE_USE_ENV_PROXY=1 \
    $QUIET \
    ip netns exec "$NA" "$OPENCODE" serve --hostname 127.0.0.1 \
    --port "$OCPORT" </dev/null >"$T/oc.log" 2>&1) &
pids="$pids $!"

# oc [curl config lines]: one request to OpenCode's server, as the host
# makes it: curl in the agent's namespace, --disable, config on stdin,
# the password never in argv.  Prints the body, then the status on a
# line of its own.
oc() {
	{ printf 'url = "http://127.0.0.1:%s%s"\n' "$OCPORT" "$1"; shift
	  printf 'user = "opencode:%s"\n' "$PASSWORD"
	  printf 'silent\nshow-error\nwrite-out = "\\n%%{http_code}"\n'
	  for l in "$@"; do printf '%s\n' "$l"; done; } |
	ip netns exec "$NA" curl --disable --config -
}
post() {	# post PATH JSON [max-time]
	oc "$1" 'request = "POST"' \
	    'header = "Content-Type: application/json"' \
	    "data = $(printf '%s' "$2" | jq -Rs .)" "max-time = ${3:-60}"
}
# split F: F (an answer of oc) into F.json (the body) and F.code
split() { sed '$d' "$1" >"$1.json"; tail -n 1 "$1" >"$1.code"; }
code() { cat "$1.code" 2>/dev/null; }
jqf() { jq -e "$@" >/dev/null 2>&1; }
ready() {
	i=0
	while [ $i -lt 600 ]; do
		oc /global/health 'max-time = 3' >"$T/health" 2>/dev/null
		split "$T/health"
		[ "$(code "$T/health")" = 200 ] && return 0
		sleep 0.1; i=$((i + 1))
	done
	return 1
}
check "opencode serve answers /global/health with basic auth" ready
echo "# opencode serve ready after $(since "$t0") s"
check "its health says healthy and $VERSION" jqf --arg v "$VERSION" \
    '.healthy == true and .version == $v' "$T/health.json"
check "without the password: 401" sh -c "ip netns exec $NA curl -s \
    -o /dev/null -w '%{http_code}' --max-time 60 \
    http://127.0.0.1:$OCPORT/global/health | grep -qx 401"
oc /config/providers 'max-time = 60' >"$T/providers"; split "$T/providers"
check "OpenCode offers our providers only (none from its bundled catalog)" \
    jqf '[.providers[].id] | sort == ["spaced", "spacedbad"]' \
    "$T/providers.json"
ocpid=$(ip netns pids "$NA" | while read -r p; do
	[ "$(readlink "/proc/$p/exe")" = "$(readlink -f "$OPENCODE")" ] &&
	    echo "$p"; done | head -n 1)
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$ocpid/status" 2>/dev/null; }
sleep 2
echo "# opencode serve RSS idle (before any session): $(rss) kB"

session() {	# session TITLE: the new session's id
	post /session "{\"title\":\"$1\"}" >"$T/s.$1"
	split "$T/s.$1"
	[ "$(code "$T/s.$1")" = 200 ] && jq -r .id "$T/s.$1.json"
}
prompt() {	# prompt SESSION PROVIDER: one turn, answered when done
	post "/session/$1/message" "$(jq -cn --arg p "$2" '{
	    model: { providerID: $p, modelID: "scripted" },
	    parts: [ { type: "text",
	        text: "Run the command the tool call gives." } ] }')" 120
}

# The negative control: the grant's key is wrong, the model refuses.
t1=$(now)
sid=$(session negative)
check "a session for the negative control" test -n "$sid"
prompt "$sid" spacedbad >"$T/neg"; split "$T/neg"
echo "# the refused turn took $(since "$t1") s"
check "the refused turn answers 200 with the model's 401 as its error" \
    jqf '.info.error.data.statusCode == 401' "$T/neg.json"
jq -c .info.error "$T/neg.json" 2>/dev/null | cut -c1-200 | sed 's/^/# /'
check "the model saw the wrong key and answered 401" jqf -s '
    map(select(.path == "/v1/chat/completions" and .key == "mismatch" and
    .status == 401)) | length > 0' "$T/model.log"
check "the model gave no tool call to a wrong key" jqf -s '
    map(select(.answer and .key != "match")) | length == 0' "$T/model.log"
check_fails "no file after the refused turn" test -e "$T/proj/turn.txt"

# The turn.
t2=$(now)
sid=$(session turn)
check "POST /session gives a session" test -n "$sid"
prompt "$sid" spaced >"$T/turn"; split "$T/turn"
echo "# the turn took $(since "$t2") s (session included)"
check "POST /session/ID/message answers 200" test "$(code "$T/turn")" = 200
check "its answer is the model's final text with the command's output" \
    jqf --arg t "$TOKEN" '[.parts[] | select(.type == "text") | .text] |
    join("") == "spaced-final: " + $t' "$T/turn.json"
check "OpenCode ran the command in its directory" \
    test "$(cat "$T/proj/turn.txt" 2>/dev/null)" = "$TOKEN"
oc "/session/$sid/message" 'max-time = 60' >"$T/msgs"; split "$T/msgs"
check "GET /session/ID/message shows the bash tool's part, completed, with the output" \
    jqf --arg t "$TOKEN" '[.[].parts[] | select(.type == "tool" and
    .tool == "bash" and .state.status == "completed" and
    (.state.output | contains($t)))] | length == 1' "$T/msgs.json"
check "the tool part holds the command as the model gave it" \
    jqf --arg c "$CMD" '[.[].parts[] | select(.type == "tool") |
    .state.input.command] == [$c]' "$T/msgs.json"
check "the model's answers: a tool call, then the final text" jqf -s '
    map(select(.key == "match" and .answer and .answer != "title") |
    .answer) == ["tool_call", "final"]' "$T/model.log"
check "OpenCode's shell tool is bash, its argument command required" jqf -s '
    map(select(.answer == "tool_call") | .tool_schema.required) ==
    [["command"]]' "$T/model.log"
check "every request the model answered carried the grant's key" jqf -s '
    map(select(.answer)) | length > 0 and all(.key == "match")' \
    "$T/model.log"
check "the request after the tool call carried its output as a tool message" \
    jqf -s --arg t "$TOKEN" 'map(select(.answer == "final") |
    .body.messages[-1] | .role == "tool" and (.content | contains($t))) |
    length == 1 and all' "$T/model.log"
check "OpenCode sent no key of its own (the window dropped none)" jqf -s '
    map(select(.grant)) | length > 0 and all(.client_sent_auth == false)' \
    "$T/window.log"
check "OpenCode streamed (SSE) every chat request" jqf -s '
    map(select(.answer)) | all(.body.stream == true)' "$T/model.log"

# A second turn in the same session, the asynchronous way: 204 at once,
# then the session's messages until a second final answer is there (the
# 204 comes before the session shows in /session/status as busy, so an
# empty status alone says nothing), then /session/status empty of it.
rm -f "$T/proj/turn.txt"
t3=$(now)
post "/session/$sid/prompt_async" "$(jq -cn '{
    model: { providerID: "spaced", modelID: "scripted" },
    parts: [ { type: "text", text: "Once more." } ] }')" >"$T/async"
split "$T/async"
check "POST /session/ID/prompt_async answers 204" \
    test "$(code "$T/async")" = 204
done2() {
	i=0
	while [ $i -lt 600 ]; do
		oc "/session/$sid/message" 'max-time = 3' >"$T/m2"; split "$T/m2"
		jqf '[.[] | select(.info.role == "assistant" and
		    .info.finish == "stop" and .info.time.completed != null)] |
		    length == 2' "$T/m2.json" && return 0
		sleep 0.1; i=$((i + 1))
	done
	return 1
}
idle() {
	i=0
	while [ $i -lt 600 ]; do
		oc /session/status 'max-time = 3' >"$T/st"; split "$T/st"
		jqf --arg s "$sid" 'has($s) | not' "$T/st.json" && return 0
		sleep 0.1; i=$((i + 1))
	done
	return 1
}
check "the second final answer arrives" done2
echo "# the second turn took $(since "$t3") s"
check "then the session is not in /session/status" idle
check "the second turn ran the command again" \
    test "$(cat "$T/proj/turn.txt" 2>/dev/null)" = "$TOKEN"
oc "/session/$sid/message" 'max-time = 60' >"$T/msgs"; split "$T/msgs"
check "the session now holds two completed bash parts" \
    jqf '[.[].parts[] | select(.type == "tool" and .tool == "bash" and
    .state.status == "completed")] | length == 2' "$T/msgs.json"
sleep 2
echo "# opencode serve RSS after the turns: $(rss) kB"

# Nothing else on the network: every name looked up reached the DNS
# logger, every proxied request the corridor stand-in.
sleep 3
names=$(jq -r 'select(.event == "dns") | .name' "$T/model.log" | sort -u)
check "OpenCode looked up no name in DNS${names:+ (asked: $(echo $names))}" \
    test -z "$names"
asked=$(jq -r 'select(.event == "proxy" and .target != "/spaced-probe") |
    .method + " " + .target' \
    "$T/model.log" | sort -u)
check "OpenCode asked the corridor for nothing${asked:+ (asked: $(echo $asked))}" \
    test -z "$asked"
# The key is nowhere OpenCode can see, checked with a positive control.
keyin() {
	grep -rqF -- "$KEY" "$T/home" "$T/proj" && return 0
	tr '\0' '\n' <"/proc/$ocpid/environ" | grep -qF -- "$KEY"
}
printf '%s\n' "$KEY" >"$T/home/planted"
check "positive control: a planted key is found" keyin
rm -f "$T/home/planted"
check_fails "the key is in neither OpenCode's environment, home nor project" \
    keyin
finish
