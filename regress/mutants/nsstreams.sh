#!/bin/sh
# Mutation check of a native worker's stream registrations against a
# space that kills its pid 1 under streamed execs and opens more
# (native/pid1.sh): none outlives its exec, and a full table is an
# answer, never spaced-ns's end.  Built as nsplace.sh builds (this
# tree's objects, only the mutated file rebuilt); under a minute each.
# Usage: sh regress/mutants/nsstreams.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <suite> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$4" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" timeout 600 \
	    sh "$tmp/src/regress/native/$3" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

X=worker-ns/ns_exec.c
mutant "$MUTANT_CONTROL" GNUmakefile pid1.sh ""
# The leak of before: each exec whose command ended before its stdin
# kept its stdin registered, waiting for an END spaced never sends.
mutant_expect "each exits 0"
mutant "an exec's stdin stays registered past its last word" $X pid1.sh \
    'if (x->rx_open)\n\t\tworker_stream_unregister(x->rx.sr_id);\n\tevtimer_del => evtimer_del'
# The same for a refused exec: the table fills up, the next exec that
# needs a slot (the other space's) is refused busy.
mutant_expect "^  the other space runs a command"
mutant "a refused exec's stdin waits for an END that never comes" $X pid1.sh \
    '(void)worker_stream_ended(se->se_in_stream); => (void)worker_stream_register(se->se_in_stream, nx_stream, NULL);'
# With that leak, a full table that ends spaced-ns (as fatalx did) takes
# spaced down: only the answer keeps them.
mutant_expect "spaced and its worker are the same processes"
mutant "that leak, and a full table ends spaced-ns (the defence removed)" \
    $X pid1.sh \
    '(void)worker_stream_ended(se->se_in_stream); => (void)worker_stream_register(se->se_in_stream, nx_stream, NULL); @@ full = errno == ENOSPC; => full = 0; if (errno == ENOSPC) { fatalx("full"); }'
mutants_end
