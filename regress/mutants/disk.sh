#!/bin/sh
# Mutation check of the disk sweep (issue 27, finding 6): each mutant
# takes one part away, and integration/spaced-disk.sh must go red by
# the test mutant_expect names.  About a minute and a half a mutant.
# Usage: sh regress/mutants/disk.sh [label-substring]
. "$(dirname "$0")/lib.sh"

mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries
	SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/integration/spaced-disk.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "A, over its limit, is stopped by spaced"
mutant "a space at its limit is not stopped" supervisor/spaced/disk.c \
    "	dw->dw_stops[dw->dw_nstops++] = dw->dw_nseen - 1; => "
mutant_expect "show says what A uses"
mutant "the volumes not counted" worker-docker/space_disk_parse.c \
    "		s->sk_used += dk_size(json_object_get(json_object_get(e, => 		s->sk_used += 0 * dk_size(json_object_get(json_object_get(e,"
mutant_expect "B, at 80%, is warned of in the log"
mutant "no warning before the limit" supervisor/spaced/disk.c \
    "		if (!ds->ds_warned)\n\t\t\tlog_warnx( => 		if (0)\n\t\t\tlog_warnx("
mutant_expect "verify names the disk limit"
mutant "verify blind to the limit" supervisor/spaced/space.c \
    "	if (!disk_of(SV(r)->id, &used, &limit, &over) || !over) => 	if (1 || !disk_of(SV(r)->id, &used, &limit, &over) || !over)"
mutant_expect "spaced's log says why for N"
mutant "the native folders not measured" worker-ns/ns_disk.c \
    "		    wc.bytes; => 		    0;"
mutant_expect "spaced's log says why for N"
mutant "the native place not asked" supervisor/spaced/disk.c \
    "	if (children[PROC_NS].c_ready && request_send(r, PROC_NS, => 	if (0 && request_send(r, PROC_NS,"
mutants_end
