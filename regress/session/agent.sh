#!/bin/sh
# A person's session with the agent (issue 23), in a real space with the
# default profile's OpenCode (a tools volume filled from the npm
# registry) and the scripted model (regress/agent/model-server.py) behind
# a grant, as in agent/turn.sh.  attach, under tmux: the agent's screen
# is drawn in the pane, a prompt typed there reaches the model and its
# answer appears on the screen; leaving leaves the server and its
# sessions, attaching again finds them.
dir=$(cd "$(dirname "$0")" && pwd)
ca=${SPACED_TOOLS_CA:-}
[ -z "$ca" ] && [ -f /etc/ssl/certs/ca-certificates.crt ] &&
    ca=/etc/ssl/certs/ca-certificates.crt
SPACED_AGENT_CONF=""
SPACED_EXTRA_CONF=${ca:+"tools ca bundle \"$ca\""}
. "$dir/../contract/lib.sh"
. "$dir/../agent/lib.sh"

command -v tmux >/dev/null || { not_ok "tmux is installed (tools/deps.sh)"; finish; }
jqf() { jq -e "$@" >/dev/null 2>&1; }
rnd() { od -An -N16 -tx1 /dev/urandom | tr -d ' \n'; }
# The /30 it wishes for inside 198.51.100.0/24, which escape/docker.sh
# may use as a whole: the longer prefix wins; model_up takes another
# /30 when a run (this suite's elsewhere, agent/turn.sh's) holds it.
NM=spaced-sess-$$ HOSTIP=198.51.100.201 MODEL=198.51.100.202
KEY=sk-spaced-$(rnd)
TOKEN=spaced-sess-$(rnd | cut -c1-12)
CMD="echo $TOKEN > attach.txt; cat attach.txt"
umask 077
printf '%s\n' "$KEY" >"$T/key"
umask 022
TS="spaced-sess-$$"
TM() { tmux -L "$TS" "$@"; }
session_gone() {
	TM kill-server 2>/dev/null
	model_gone
}
trap session_gone EXIT
at_finish session_gone

# --- the model, on a documentation address in a namespace of ours --------
model_up "$NM" "vs$$" "vn$$" "$HOSTIP" "$MODEL" "$CMD" 1200

check "tools fill: opencode-ai from the npm registry" sc tools fill
id=$(sc create -n session) || { not_ok "create with the default agent"; finish; }
ok "create: OpenCode's server is ready ($id)"
printf 'Bearer %s\n' "$KEY" | sc grant "$id" model "http://$MODEL:8000" authorization
SC="'$tree/bin/spacectl' -s '$sd/run/spaced.sock'"

# --- attach, under tmux ----------------------------------------------------
TM -f /dev/null new-session -d -s a -x 120 -y 40 "env PS1='host\$ ' sh" ||
    { not_ok "tmux starts"; finish; }
TM set-option -g status off
screen() { TM capture-pane -p -t a; }
seen() { wait_for "${2:-60}" sh -c "tmux -L '$TS' capture-pane -p -t a | grep -qF -- \"\$1\"" _ "$1"; }
at() { wait_for 30 sh -c "tmux -L '$TS' capture-pane -p -t a | grep -v '^ *\$' | tail -n 1 | grep -qx -- \"\$1 *\"" _ "$1"; }
keys() { TM send-keys -t a "$@"; }
check "the host shell is up" at 'host\$'
t0=$(date +%s.%N)
keys "$SC attach $id" Enter
# The TUI draws its prompt box; its hint names the agent mode.
check "attach: the agent's screen is drawn" seen "Build" 120
echo "# attach to a drawn screen: $(echo "$(date +%s.%N) - $t0" | bc) s"
# Enter once the TUI shows the text typed (not after a second's sleep:
# a TUI starved that long could read text and Enter at once, as a
# paste, where the Enter sends nothing).
keys "Run the command the tool call gives."
seen "the tool call gives." 60
keys Enter
check "a prompt typed in attach reached the model, its answer is on the screen" \
    seen "spaced-final: $TOKEN" 180
check "the model saw the grant's key" jqf -s \
    'map(select(.answer and .key == "match")) | length >= 2' "$T/model.log"
# The server's directory is the space's folder (the project's is in it).
check "OpenCode ran the command in the space, in the space's folder" \
    test "$(sc exec "$id" -n -- cat "/spaces/$id/attach.txt")" = "$TOKEN"
# Leave: OpenCode's TUI quits on Ctrl-C (its app_exit key).
keys C-c
check "leaving attach: back on the host" at 'host\$'
check "the server still answers after leaving" sc server "$id" GET /global/health
sc server "$id" GET /session >"$T/sessions.json"
check "its session is still there" jqf 'length >= 1' "$T/sessions.json"
sid=$(jq -r '.[0].id' "$T/sessions.json")
title=$(jq -r '.[0].title' "$T/sessions.json")
check "the session has an id and a title ($sid: $title)" \
    sh -c "test -n '$sid' && test '$sid' != null && test -n '$title'"
keys "clear" Enter
keys "$SC attach $id" Enter
check "attach again: the screen is drawn" seen "Build" 120
keys C-x l
check "attach again finds the session: its list shows it" seen "$title" 30
# Ctrl-C once the list has closed on the Escape (not after two
# seconds' sleep: an Escape and a Ctrl-C read at once can be one Alt key).
s0=$(screen)
keys Escape
wait_for 60 sh -c "[ \"\$(tmux -L '$TS' capture-pane -p -t a)\" != \"\$1\" ]" _ "$s0"
keys C-c
# The TUI may leave the cursor on the line of the command that started
# it: the host's prompt ends the last line.
check "and leaving again" at '.*host\$'
# Attach while the server is being started again (killed; the relay
# starts it anew): the screen waits for it to answer.  It failed at
# once with OpenCode's "Unable to connect".
sc exec "$id" -n -- sh -c 'for d in /proc/[0-9]*; do
    case "$(tr "\0" " " <$d/cmdline 2>/dev/null)" in
    "opencode serve "*) kill -KILL "${d#/proc/}" ;; esac; done'
keys "clear" Enter
keys "$SC attach $id" Enter
# (its screen is kept on a failure: the pane's end shows only the host's)
if seen "Build" 120; then
	ok "attach as the server starts again: the screen is drawn"
else
	not_ok "attach as the server starts again: the screen is drawn" \
	    "$(screen | grep -v '^ *$' | tail -n 20)"
fi
check "  it never said it could not connect" sh -c \
    "! tmux -L '$TS' capture-pane -p -t a | grep -q 'Unable to connect'"
keys C-c
check "  and leaving it" at '.*host\$'
[ "$fail" -eq 0 ] || screen | sed 's/^/# /'

# --- prompt and sessions, from the host -------------------------------------
sc prompt "$id" "Run the command the tool call gives." >"$T/p.out" 2>"$T/p.err"
check "prompt: exits 0" test $? -eq 0
check "prompt: the final answer ends stdout" \
    sh -c "tail -n 1 '$T/p.out' | grep -qx 'spaced-final: $TOKEN'"
check "prompt: the tool call and its status on stderr" \
    grep -q '^tool bash: completed' "$T/p.err"
sc -j prompt "$id" "Run the command the tool call gives." >"$T/pj.out" 2>"$T/pj.err"
check "prompt -j: exits 0" test $? -eq 0
check "prompt -j: every line parses as one JSON object" \
    sh -c "jq -ce . '$T/pj.out' | wc -l | grep -qx \"\$(wc -l <'$T/pj.out')\""
jq -r .event "$T/pj.out" | uniq >"$T/pj.events"
sed 's/^/# /' "$T/pj.events"
check "prompt -j: the session first, then the tool, the answer last" \
    sh -c "head -n 1 '$T/pj.events' | grep -qx session &&
    tail -n 1 '$T/pj.events' | grep -qx answer &&
    grep -n . '$T/pj.events' | grep -q ':tool\$'"
check "prompt -j: the tool's running or completed status comes before the answer" \
    sh -c "jq -r 'select(.event == \"tool\") | .status' '$T/pj.out' | tail -n 1 | grep -qx completed"
check "prompt -j: the answer's text is the model's final text" \
    sh -c "jq -r 'select(.event == \"answer\") | .text' '$T/pj.out' | grep -qx 'spaced-final: $TOKEN'"
psid=$(jq -r 'select(.event == "session") | .session' "$T/pj.out")
n0=$(sc server "$id" GET "/session/$psid/message" | jq length)
echo "Run the command the tool call gives." | sc prompt "$id" -s "$psid" >"$T/p2.out" 2>&1
check "prompt -s SESSION, text from stdin: exits 0" test $? -eq 0
check "and continues that session (more messages in it)" \
    test "$(sc server "$id" GET "/session/$psid/message" | jq length)" -gt "$n0"
# A session the server does not know: named, not "another status"; with
# -j the failure is one more line (it was an object over several lines).
sc prompt "$id" -s ses_nosuch$$ hi >"$T/pu.out" 2>"$T/pu.err"
rc=$?
sed 's/^/# /' "$T/pu.err"
check "prompt -s of an unknown session: exit 1, session_not_found naming it" \
    sh -c "[ $rc = 1 ] && grep -q '^spacectl: session_not_found: .*ses_nosuch$$.*spacectl sessions $id' '$T/pu.err'"
sc -j prompt "$id" -s ses_nosuch$$ hi >"$T/puj.out" 2>/dev/null
check "prompt -j -s of an unknown session: every line one JSON object" \
    sh -c "jq -ce . '$T/puj.out' | wc -l | grep -qx \"\$(wc -l <'$T/puj.out')\""
check "  the last an error event naming it" \
    sh -c "tail -n 1 '$T/puj.out' | jq -e '.event == \"error\" and .error == \"session_not_found\" and .session == \"ses_nosuch$$\"' >/dev/null"
sc sessions "$id" >"$T/sessions.txt"
check "sessions: lists the prompt's session" grep -q "^$psid " "$T/sessions.txt"
sc -j sessions "$id" >"$T/sessions.j"
check "sessions -j: a list with its id" jqf --arg s "$psid" 'map(select(.id == $s)) | length == 1' "$T/sessions.j"
# What the server says comes from the space: at a terminal, its control
# characters are escaped.  A session whose title holds an OSC sequence;
# piped, the raw byte comes through (the control), at a pty (script) not.
printf '{"title":"osc\\u001b]0;pwned\\u0007end"}' |
    sc server "$id" -d POST /session >/dev/null
check "sessions piped: the title's raw ESC byte comes through (control)" \
    sh -c "$SC sessions $id | grep -q \"\$(printf 'osc\\033')\""
script -qc "$SC sessions $id" /dev/null >"$T/sessions.tty" </dev/null
check "sessions at a terminal: the title shows, its ESC escaped" \
    grep -qF 'osc\033]0;pwned\007end' "$T/sessions.tty"
check "and no raw ESC byte reaches the terminal" \
    sh -c "! grep -q \"\$(printf '\\033')\" '$T/sessions.tty'"

# A refused grant: the model answers 401, prompt fails naming it.
printf 'Bearer sk-wrong-%s\n' "$(rnd)" | sc grant "$id" model "http://$MODEL:8000" authorization
sc prompt "$id" "Run the command the tool call gives." >"$T/pr.out" 2>"$T/pr.err"
rc=$?
sed 's/^/# /' "$T/pr.err"
check "a refused grant: prompt exits non-zero ($rc)" test "$rc" -ne 0
check "and names the model's refusal and its status (401)" \
    sh -c "grep -q 'model_refused' '$T/pr.err' && grep -q 401 '$T/pr.err'"
sc -j prompt "$id" "Run the command the tool call gives." >"$T/prj.out" 2>/dev/null
check "-j: the refusal is the last line, an object with status 401" \
    sh -c "tail -n 1 '$T/prj.out' | jq -e '.event == \"error\" and .error == \"model_refused\" and .status == 401' >/dev/null"

# No grant at all: the window refuses the model (403), prompt says so.
id2=$(sc create -n nogrant)
sc prompt "$id2" "Run the command the tool call gives." >"$T/pn.out" 2>"$T/pn.err"
rc=$?
sed 's/^/# /' "$T/pn.err"
check "no grant: prompt exits non-zero ($rc)" test "$rc" -ne 0
check "and names the window's refusal (403)" \
    sh -c "grep -q 'window_refused' '$T/pn.err' && grep -q 403 '$T/pn.err'"
check "and says what to do (spacectl grant, the profile's grant)" \
    grep -q "no grant 'model' .*spacectl grant $id2 model " "$T/pn.err"
[ -n "$id2" ] && sc remove "$id2" >/dev/null

check "remove" sc remove "$id"
for v in $(api GET /volumes | jq -r '.Volumes[].Name' | grep "^spaced-tools-$INSTALL-"); do
	api DELETE "/volumes/$v" >/dev/null
done
finish
