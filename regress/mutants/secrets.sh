#!/bin/sh
# Mutation check of the zeroing of secrets after use: each mutant leaves
# one copy of a grant's secret in memory, and regress/contract/secrets.sh
# must find it.  Built in a copy of the tree under a temp dir; the tree
# itself is never modified.  About a minute a mutant.
# Usage: sh regress/mutants/secrets.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries
	SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/contract/secrets.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "secret is not in spaced-docker's memory"
mutant "spaced-docker's request buffer kept" worker-docker/docker.c \
    "	explicit_bzero(buf, len);\n} => }"
mutant_expect "secret is not in spaced"
mutant "imsg payloads freed unzeroed" common/lib/imsg.c \
    "	if (imsg->data != NULL && !(imsg->hdr.flags & IMSGF_OUTBUF))\n		explicit_bzero(imsg->data, imsg_get_len(imsg)); => @@ 	explicit_bzero(out->io_data, out->io_len);	/* no secret lingers */ => "
mutant_expect "secret is not in spaced"
mutant "jansson's and libevent's memory freed unzeroed" common/lib/zfree.c \
    "	event_set_mem_functions(malloc, zero_realloc, zero_free);\n	json_set_alloc_funcs(malloc, zero_free); => 	(void)zero_realloc;\n\t(void)zero_free;"
mutant_expect "core limit is 0"
mutant "spaced may dump core" common/lib/zfree.c \
    "	if (setrlimit(RLIMIT_CORE, &rl) == -1) => 	if (0 && setrlimit(RLIMIT_CORE, &rl) == -1)"

mutants_end
