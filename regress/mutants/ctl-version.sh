#!/bin/sh
# Mutation check of the control protocol's version (integration/
# ctl-version.sh, unit/common's ctl_sizes): spaced refuses a request of
# another version in its own (one over the cap too, by its header),
# spacectl refuses an answer of another
# naming both, and a struct that moves without the version fails the
# unit test.  Each mutant must turn the named test red.  A few minutes.
# Usage: sh regress/mutants/ctl-version.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# Built from this tree's objects (mutant_build_quick).
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" sh \
	    "$tmp/src/regress/integration/ctl-version.sh" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" supervisor/spaced/control.c ""

mutant_expect "a client of 2's check: protocol_version, in its own version"
mutant "spaced takes a request of any version" supervisor/spaced/control.c \
    "if (CTL_VERSION(peerid) != CTL_PROTO_VERSION) { => if (0) {"

mutant_expect "a newer client's check: protocol_version in spaced's version"
mutant "a refusal echoes the request's version" supervisor/spaced/control.c \
    "peerid = CTL_PEERID(CTL_TAG(peerid)); => (void)0;"

mutant_expect "a client of 2's check: protocol_version, in its own version"
mutant "a build of before refused in spaced's version" \
    supervisor/spaced/control.c \
    "if (!CTL_VERSION_ECHOED(CTL_VERSION(peerid))) => if (1)"

mutant_expect "a newer client's request over the cap: protocol_version"
mutant "a request over the cap refused before its version is read" \
    supervisor/spaced/control.c \
    "if (imsgbuf_peek_hdr(&cc->cc_iev.ibuf, &hdr) == 0 && => if (0 &&"

mutant_expect "a stream's data over the cap: request_too_large"
mutant "a stream's id over the cap read as a version" \
    supervisor/spaced/control.c \
    "!control_stream_type(hdr.type) && => 1 &&"

mutant_expect "an older spaced's check record: protocol_version naming both"
mutant "spacectl reads an answer of any version" \
    supervisor/spacectl/spacectl_call.c \
    "if (CTL_VERSION(imsg_get_peerid(imsg)) != CTL_PROTO_VERSION)
		ctl_version_failed(CTL_VERSION(imsg_get_peerid(imsg))); => "

mutant_expect "a spaced whose refusal echoes our version"
mutant "spacectl's protocol_version without its words" \
    supervisor/spacectl/spacectl_call.c \
    "if (strcmp(cf->cf_code, ERR_PROTOCOL_VERSION) == 0) => if (0)"

mutant_expect "ctl_sizes::each_struct_as_recorded_at_this_version"
mutant_unit "a struct of the protocol grows, the version stays" \
    common/proto/ctl_proto.h \
    "char		 cs_place[8]; => char		 cs_place[16];" \
    common "ctl_sizes/*"

mutant_expect "ctl_sizes::each_struct_as_recorded_at_this_version"
mutant_unit "the version moves, the sizes recorded at the old one stay" \
    common/proto/ctl_proto.h \
    "#define CTL_PROTO_VERSION	4 => #define CTL_PROTO_VERSION	5" \
    common "ctl_sizes/*"

mutants_end
