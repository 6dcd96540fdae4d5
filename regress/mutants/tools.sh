#!/bin/sh
# Mutation check of the tools volume: each mutant removes one protection
# and its test must go red.  Built in a copy of the tree under a temp
# dir; the tree itself is never modified.  The live suite runs offline
# (SPACED_TOOLS_OFFLINE=1): about 90 s a mutant.
# Usage: sh regress/mutants/tools.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"> <suite> [grep for the red line]
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries
	if [ "$4" = unit ]; then
		mutant_build "$1" SANITIZE=1 build-san/regress/unit/spaced-docker
		"$tmp/src/build-san/regress/unit/spaced-docker" >"$tmp/run.log" 2>&1
	else
		SPACED_TOOLS_OFFLINE=1 sh "$tmp/src/regress/integration/$4" \
		    >"$tmp/run.log" 2>&1
	fi
	mutant_judge "$1" $? '^not ok|Failing: [1-9]|FAIL'
}

# The suites take this tree's images (the copy has none): the filler's
# gatekeeper needs one that knows -a.
TOOLS_IMAGES=${TOOLS_IMAGES:-$top/build/images.env}
export TOOLS_IMAGES

# The controls: each way of running, on the unmutated tree.
mutant "$MUTANT_CONTROL" GNUmakefile "" tools.sh
mutant "$MUTANT_CONTROL" GNUmakefile "" filler.sh
mutant "$MUTANT_CONTROL" GNUmakefile "" unit
mutant "$MUTANT_CONTROL" GNUmakefile "" filler-net.sh
mutant "$MUTANT_CONTROL" GNUmakefile "" filler-relay.sh

mutant_expect 'order: /bin/sync ran before the marker'\''s rename'
mutant "marker written before the flush" worker-docker/spaced-filler.js \
    "	run('sync', '/bin/sync', [], { timeout: 5 * 60 * 1000 });
 => " filler.sh
mutant_expect 'tools_verdict::the_rule'
mutant "42-only rule loosened to any non-zero (unit)" common/proto/tools_frame.c \
    "if (exit_code == TOOLS_MARKER_ABSENT_EXIT) => if (exit_code != 0)" unit
mutant_expect 'exit 1 of the check \(an unreadable marker\): refused'
mutant "42-only rule loosened to any non-zero (live)" common/proto/tools_frame.c \
    "if (exit_code == TOOLS_MARKER_ABSENT_EXIT) => if (exit_code != 0)" tools.sh
mutant_expect 'a volume of the name (without labels|with another owner'\''s labels): tools_volume_not_ours'
mutant "label check of an existing volume skipped" worker-docker/tools_ensure.c \
    "		if (why != NULL) {
			snprintf(msg, sizeof(msg), \"a volume named %s \" => 		if (0 && why != NULL) {
			snprintf(msg, sizeof(msg), \"a volume named %s \"" tools.sh
mutant_expect 'npm ran no script of the package \(--ignore-scripts\)'
mutant "--ignore-scripts dropped" worker-docker/spaced-filler.js \
    "['install', '--ignore-scripts', '--no-audit', => ['install', '--no-audit'," tools.sh
mutant_expect 'fails: no volume left'
mutant "fill rollback skipped" worker-docker/tools_rollback.c \
    "	if (tv->filling) {
		/* The same call => 	if (0 && tv->filling) {
		/* The same call" tools.sh
# The filler's rights (issue 27): its uid, its one way out, its end.
# Root that can fill: its exec as 0:0 and the fill's folder root's.
mutant_expect 'the filler ran as uid [0-9]+ of the range, not root'
mutant "the filler's exec as root" worker-docker/tools_fill.c \
    "	next->cl_body = docker_exec_body(argv, user, env); => 	next->cl_body = docker_exec_body(argv, tv->phase == PH_FILL ? \"0:0\" : user, env); @@
			    tv->tp.tp_uid, 1 }; => 			    0, 1 };" tools.sh
mutant_expect 'the filler does not reach the public host'
mutant "the filler back on the default bridge" worker-docker/docker_harden_tools.c \
    "\"NetworkDisabled\", !is_gk(p), => \"NetworkDisabled\", 0, @@
	if (!is_gk(p))
		strlcpy(net, TOOLS_FILL_NETWORK, sizeof(net));
	else if (name_of(p, TOOLS_ROLE_FILL_NET, net, sizeof(net)) == -1) { => 	if (!is_gk(p))
		strlcpy(net, is_fill(p) ? \"bridge\" : TOOLS_FILL_NETWORK, sizeof(net));
	else if (name_of(p, TOOLS_ROLE_FILL_NET, net, sizeof(net)) == -1) { @@
		strlcpy(net, TOOLS_FILL_NETWORK, sizeof(net));
	else if (name_of(p, TOOLS_ROLE_FILL_NET, net, sizeof(net)) == -1)
		net[0] => 		strlcpy(net, is_fill(p) ? \"bridge\" : TOOLS_FILL_NETWORK, sizeof(net));
	else if (name_of(p, TOOLS_ROLE_FILL_NET, net, sizeof(net)) == -1)
		net[0] @@
	    json_is_true(json_object_get(cfg, \"NetworkDisabled\")) == is_gk(p)) => 	    0)" filler-net.sh
mutant_expect 'its corridor refuses another name'
mutant "the filler's allowlist beyond the registry" worker-docker/docker_harden_tools.c \
    "TOOLS_GK_BIN, \"-a\", TOOLS_REGISTRY, => TOOLS_GK_BIN, \"-a\", \"registry.yarnpkg.com\", \"-a\", TOOLS_REGISTRY," filler-net.sh
mutant_expect 'nothing of the filler'\''s way out is left'
mutant "the filler's gatekeeper left after the fill" worker-docker/tools_fill.c \
    "		return tv_corridor_down(tv);	/* then S_FILLED */ => 		tv->step = S_FILLED;
		break;" filler-net.sh
# The filler's relay from the socket volume its gatekeeper writes, as
# before: a relay planted there runs, and writes the tools volume.
mutant_expect 'the planted relay never ran: no witness in the tools volume'
mutant "the filler's relay from its gatekeeper's socket volume again" \
    worker-docker/docker_harden_tools.h \
    "#define TOOLS_RELAY		HARDEN_RELAY	/* the runtime volume's */ => #define TOOLS_RELAY		TOOLS_SOCKET_DIR \"/spaced-relay\"" \
    filler-relay.sh
mutants_end
