#!/bin/sh
# Mutation check of the prune (tools_prune.h, spaced.conf(5) "Agent
# profiles"): what a fill prunes, the shared volumes a space's container
# mounts only as they are, and how long a create's tools are kept.  The
# live ones must turn their named check of regress/agent/prune-race.sh
# red (built from this tree's objects, mutant_build_quick; about 2
# minutes a mutant), the kept ones their named test of unit/spaced-docker
# (tools_prune/kept_bounded; seconds).
# Usage: sh regress/mutants/prune.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" timeout 600 \
	    sh "$tmp/src/regress/agent/prune-race.sh" >"$tmp/run.log" 2>&1
	m_rc=$?
	# a create that failed where one must stand says why
	grep -a '^# race-a' "$tmp/run.log" | head -5
	mutant_judge "$1" $m_rc '^not ok'
}

# unit <label> <file> <"old" => "new"[ @@ ...]>: the unit binary of
# spaced-docker with the change, its tools_prune tests.
unit() { mutant_unit "$@" spaced-docker 'tools_prune/*'; }

mutant "$MUTANT_CONTROL" GNUmakefile ""
unit "$MUTANT_CONTROL" GNUmakefile ""

W=worker-docker
mutant_expect "leaves hostile's current volume"
mutant "a fill prunes another profile's current volume" $W/tools_answer.c \
    'strcmp(name, keep) == 0 || tools_keep_has(tk, name) || => strcmp(name, keep) == 0 ||'
mutant_expect "race-tools: ... and the engine made no volume of the name"
mutant "the tools volume mounted as the engine may make it" $W/docker_harden.c \
    'shared_mount(p->hp_tools, => volume_mount(p->hp_tools, @@ SPACE_TOOLS_DIR)) == -1) { => SPACE_TOOLS_DIR, 1, 1)) == -1) {'
mutant_expect "race-runtime: ... and the engine made no volume of the name"
mutant "the runtime volume mounted as the engine may make it" $W/docker_harden.c \
    'shared_mount(runtime, HARDEN_RUNTIME_DIR), => volume_mount(runtime, HARDEN_RUNTIME_DIR, 1, 1),'

mutant_expect "kept_bounded"
unit "a create that never came keeps its tools for good" $W/tools_volume.c \
    'if (!env->de_kept[i].k_claimed && => if (0 &&'
mutant_expect "kept_bounded"
unit "a create's claim not kept past the bound" $W/tools_volume.c \
    'env->de_kept[i].k_claimed = 1; => (void)0;'
mutant_expect "each_profiles_current_kept"
unit "the keep list's match never made" common/proto/place_proto.c \
    'strcmp(tk->tk_volume[i], name) == 0) => strcmp(tk->tk_volume[i], name) == 1)'
mutants_end
