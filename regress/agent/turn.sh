#!/bin/sh
# A real agent turn in a real space (issue 8): the default profile's
# OpenCode server from a tools volume filled from the npm registry; a
# scripted OpenAI-compatible model (model-server.py) in a network
# namespace of this test on a documentation address; a grant of the
# space's window to it.  The test asks OpenCode, through its own HTTP
# API (spacectl server), to run one shell command; the model answers
# with that tool call, OpenCode runs it in the space, the test reads the
# result.  The model checks that it got the grant's key; the key is then
# searched for in the space, the journal and both containers' inspect,
# each search with a positive control.  Negative control first: a grant
# with a wrong key gets the model's 401 and no file.  Also: the server
# answers its health inside a real space, and stop and start keep the
# token.
dir=$(cd "$(dirname "$0")" && pwd)
ca=${SPACED_TOOLS_CA:-}
[ -z "$ca" ] && [ -f /etc/ssl/certs/ca-certificates.crt ] &&
    ca=/etc/ssl/certs/ca-certificates.crt
SPACED_AGENT_CONF=""
SPACED_EXTRA_CONF=${ca:+"tools ca bundle \"$ca\""}
. "$dir/../contract/lib.sh"
. "$dir/lib.sh"

jqf() { jq -e "$@" >/dev/null 2>&1; }
rnd() { od -An -N16 -tx1 /dev/urandom | tr -d ' \n'; }
# 198.51.100.0/24: this network may put the npm registry in 203.0.113.0/24;
# model_up takes another /30 of it when a run holds this one.
NM=spaced-turn-$$ HOSTIP=198.51.100.1 MODEL=198.51.100.2
KEY=sk-spaced-$(rnd) WRONG=sk-wrong-$(rnd)
TOKEN=spaced-turn-$(rnd | cut -c1-12)
# (and what the kernel sees of it: OpenCode runs it through $SHELL)
CMD="echo $TOKEN > turn.txt; cat /proc/self/oom_score_adj > adj.txt; cat turn.txt"
umask 077
printf '%s\n' "$KEY" >"$T/key"
umask 022
trap model_gone EXIT

# --- the model, on a documentation address in a namespace of ours --------
model_up "$NM" "vt$$" "vm$$" "$HOSTIP" "$MODEL" "$CMD" 900

# --- the agent in a real space --------------------------------------------
t0=$(date +%s)
check "tools fill: opencode-ai from the npm registry${ca:+ (CA bundle $ca)}" \
    sc tools fill
echo "# fill: $(($(date +%s) - t0)) s"
id=$(sc create -n turn) || { not_ok "create with the default agent"; finish; }
ok "create answers once OpenCode's server is ready ($id)"
check "its health answers inside the space" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' server $id GET /global/health | jq -e '.healthy == true' >/dev/null"
tok=$(sc token "$id")
check "stop" sc stop "$id"
check "start waits for the server again" sc start "$id"
check "the token stayed" test "$(sc token "$id")" = "$tok"
check "and the server answers with it" sc server "$id" GET /global/health

api_post() {	# path body: through spacectl server, JSON
	printf '%s' "$2" | sc server "$1" -d POST "$3"
}
session() {
	printf '{"title":"%s"}' "$2" |
	    sc server "$1" -d POST "/session?directory=/spaces/$1" | jq -r .id
}
prompt() {
	jq -cn '{ model: { providerID: "spaced", modelID: "default" },
	    parts: [ { type: "text", text: "Run the command the tool call gives." } ] }' |
	    sc server "$1" -d POST "/session/$2/message"
}

# The negative control: the grant's key is wrong, the model refuses.
printf 'Bearer %s\n' "$WRONG" | sc grant "$id" model "http://$MODEL:8000" authorization
sid=$(session "$id" negative)
check "a session for the negative control" test -n "$sid"
prompt "$id" "$sid" >"$T/neg.json"
check "the refused turn carries the model's 401" jqf '.info.error.data.statusCode == 401' "$T/neg.json"
check "the model saw the wrong key" jqf -s 'map(select(.key == "mismatch")) | length > 0' "$T/model.log"
check "no file after the refused turn (the exec itself works)" \
    sc exec "$id" -- /bin/sh -c "test ! -e /spaces/$id/turn.txt"

# The turn.
printf 'Bearer %s\n' "$KEY" | sc grant "$id" model "http://$MODEL:8000" authorization
t1=$(date +%s.%N)
sid=$(session "$id" turn)
check "POST /session gives a session" test -n "$sid"
prompt "$id" "$sid" >"$T/turn.json"
echo "# the turn took $(echo "$(date +%s.%N) - $t1" | bc) s"
check "the answer is the model's final text with the command's output" \
    jqf --arg t "$TOKEN" '[.parts[] | select(.type == "text") | .text] |
    join("") == "spaced-final: " + $t' "$T/turn.json"
check "OpenCode ran the command in the space" \
    test "$(sc exec "$id" -- cat "/spaces/$id/turn.txt")" = "$TOKEN"
check "... as the kernel's first victim (oom_score_adj 1000: \$SHELL is the relay's)" \
    test "$(sc exec "$id" -- cat "/spaces/$id/adj.txt")" = 1000
sc server "$id" GET "/session/$sid/message" >"$T/msgs.json"
check "the bash tool's part is completed with the output" \
    jqf --arg t "$TOKEN" '[.[].parts[] | select(.type == "tool" and
    .tool == "bash" and .state.status == "completed" and
    (.state.output | contains($t)))] | length == 1' "$T/msgs.json"
check "every request the model answered carried the grant's key" jqf -s '
    map(select(.answer and .key == "match")) | length >= 2' "$T/model.log"
check "OpenCode sent no key of its own" jqf -s '
    map(select(.path == "/v1/chat/completions" and .key == "absent")) |
    length == 0' "$T/model.log"

# --- the key is nowhere: the space, the journal, the inspect --------------
space_dump() {
	sc exec "$id" -- /bin/sh -c 'tar cf - /home/space /spaces /tmp 2>/dev/null;
	    cat /proc/[0-9]*/environ /proc/[0-9]*/cmdline 2>/dev/null'
}
has_key() { grep -qaF -f "$T/key"; }
printf '%s\n' "$KEY" | sc exec "$id" -- /bin/sh -c 'cat > /tmp/planted'
check "a copy of the key planted in the space is found (control)" \
    sh -c "$(command -v true) && '$tree/bin/spacectl' -s '$sd/run/spaced.sock' exec $id -- /bin/sh -c 'tar cf - /tmp 2>/dev/null' | grep -qaF -f '$T/key'"
sc exec "$id" -- rm -f /tmp/planted
space_dump >"$T/dump"
check "the dump of the space holds the turn's file (control)" grep -qaF "$TOKEN" "$T/dump"
lacks "the key is in no file, environment or argv of the space" "$T/dump" -aF -f "$T/key"
sc journal "$id" >"$T/journal" 2>&1
check "the journal holds the window's request to the model (control)" grep -q "$MODEL" "$T/journal"
lacks "the key is not in the journal" "$T/journal" -aF -f "$T/key"
for r in space gatekeeper; do
	api GET "/containers/spaced-space-$id-$r/json" >"$T/inspect.$r"
	check "the $r's inspect names the space (control)" grep -q "$id" "$T/inspect.$r"
	lacks "the key is not in the $r's inspect" "$T/inspect.$r" -aF -f "$T/key"
done
lacks "the key is not in spaced's log" "$sd/log" -aF -f "$T/key"

check "remove" sc remove "$id"
for v in $(api GET /volumes | jq -r '.Volumes[].Name' | grep "^spaced-tools-$INSTALL-"); do
	api DELETE "/volumes/$v" >/dev/null
done
model_gone
finish
