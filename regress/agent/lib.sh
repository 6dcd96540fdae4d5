# What the agent suites share (sourced after contract/lib.sh: $T, check):
# the scripted OpenAI-compatible model (model-server.py) in a network
# namespace of the suite's own, on a documentation address, reached from
# the host over a veth pair; the key it wants in $T/key.
agent_lib=$(cd "$(dirname "$0")/../agent" && pwd)
model_pid= model_ns= model_link=

. "$agent_lib/../lib/netblock.sh"

# model_up NS HOSTLINK PEERLINK HOSTIP MODEL CMD LIFETIME: the namespace
# NS on a /30 of its own, the host's end HOSTIP; the model on MODEL:8000
# answering each turn with the tool call that runs CMD, for LIFETIME
# seconds.  HOSTIP and MODEL are the wish: a block another run holds
# (the same suite of another worktree, CI beside it) is passed over
# (lib/netblock.sh), and HOSTIP and MODEL are set to the addresses
# taken; sharing one, this run's window would reach the other's model
# and get its 401.  Two checks: the namespace, and (the control) the
# model answering from the host.
model_up() {
	model_ns=$1 model_link=$2
	netblock_up "$1" "$2" "$3" "$4"
	nb_rc=$?
	HOSTIP=$NB_HOST MODEL=$NB_PEER
	check "the model's namespace on $MODEL (a /30 no other run holds)" \
	    test $nb_rc -eq 0
	ip netns exec "$1" python3 "$agent_lib/model-server.py" --listen "$MODEL" \
	    --port 8000 --key-file "$T/key" --log "$T/model.log" \
	    --command "$6" --lifetime "$7" </dev/null >"$T/model.err" 2>&1 &
	model_pid=$!
	check "the scripted model answers from the host (control)" \
	    wait_for 10 curl -s -o /dev/null --max-time 1 "http://$MODEL:8000/v1/models"
}

# model_gone: the model, its link and its namespace; again is harmless.
model_gone() {
	[ -n "$model_pid" ] && kill "$model_pid" 2>/dev/null
	[ -n "$model_link" ] && ip link delete "$model_link" 2>/dev/null
	[ -n "$model_ns" ] && ip netns delete "$model_ns" 2>/dev/null
	model_pid=
}
