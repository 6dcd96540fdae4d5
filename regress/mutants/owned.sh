#!/bin/sh
# Mutation check of what a tools suite leaves in the engine
# (integration/lib.sh owned_rm, owned_left, owned_end): the runtime
# volume of its relay key goes with its tools volumes, only what its
# install's labels name, and the end says so.  Run with
# integration/filler-net.sh (the tools suites' shortest); no binary
# changes, so nothing is built.
# Usage: sh regress/mutants/owned.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" regress/integration/lib.sh "$2" || return 0
	SPACED_BUILD="$top/build" timeout 900 \
	    sh "$tmp/src/regress/integration/filler-net.sh" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" ""
# The leftover of before: the runtime volume stayed, one a relay key.
mutant_expect "nothing with this run's owner labels is left"
mutant "the runtime volume is left" \
    'xargs -r docker network rm >/dev/null 2>&1\n\t\tdocker volume ls -q --filter label=spaced.space.role=runtime => xargs -r docker network rm >/dev/null 2>&1\n\t\ttrue || docker volume ls -q --filter label=spaced.space.role=runtime'
# Another install's (the one planted, never a real one): swept too.
mutant_expect "another install's runtime volume is never swept"
mutant "another install's runtime volume is swept" \
    'owned_rm() {\n\tfor o_i in "$@"; do => owned_rm() {\n\tfor o_i in "$@" 0other$$; do'
# The end that sees nothing: an engine that answers no listing.
mutant_expect "control: the sweep sees a runtime volume with this run's labels"
mutant "the sweep reads no listing" \
    'o_l=$(docker $o_k ls --format "$o_f") ;; => o_l= ;;'
mutants_end
