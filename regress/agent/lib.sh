# What the agent suites share (sourced after contract/lib.sh: $T, check):
# the scripted OpenAI-compatible model (model-server.py) in a network
# namespace of the suite's own, on a documentation address, reached from
# the host over a veth pair; the key it wants in $T/key.
agent_lib=$(cd "$(dirname "$0")/../agent" && pwd)
model_pid= model_ns= model_link=

# model_up NS HOSTLINK PEERLINK HOSTIP MODEL PREFIX CMD LIFETIME: the
# namespace NS with MODEL/PREFIX, the host's end HOSTIP; the model on
# MODEL:8000 answering each turn with the tool call that runs CMD, for
# LIFETIME seconds.  Two checks: the namespace, and (the control) the
# model answering from the host.
model_up() {
	model_ns=$1 model_link=$2
	ip netns add "$1" && ip link add "$2" type veth peer name "$3" &&
	ip link set "$3" netns "$1" && ip addr add "$4/$6" dev "$2" &&
	ip link set "$2" up && ip -n "$1" addr add "$5/$6" dev "$3" &&
	ip -n "$1" link set lo up && ip -n "$1" link set "$3" up &&
	ip -n "$1" route add default via "$4"
	check "the model's namespace on $5" test $? -eq 0
	ip netns exec "$1" python3 "$agent_lib/model-server.py" --listen "$5" \
	    --port 8000 --key-file "$T/key" --log "$T/model.log" \
	    --command "$7" --lifetime "$8" </dev/null >"$T/model.err" 2>&1 &
	model_pid=$!
	check "the scripted model answers from the host (control)" \
	    wait_for 10 curl -s -o /dev/null --max-time 1 "http://$5:8000/v1/models"
}

# model_gone: the model, its link and its namespace; again is harmless.
model_gone() {
	[ -n "$model_pid" ] && kill "$model_pid" 2>/dev/null
	[ -n "$model_link" ] && ip link delete "$model_link" 2>/dev/null
	[ -n "$model_ns" ] && ip netns delete "$model_ns" 2>/dev/null
	model_pid=
}
