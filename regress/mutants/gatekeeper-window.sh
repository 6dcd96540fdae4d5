#!/bin/sh
# Mutation check of the window's TLS to its upstream: each mutant weakens
# one check and regress/integration/gatekeeper-window.sh must go red by
# the named test.  Built in a copy of the tree under a temp dir; the tree
# itself is never modified.  Needs root (the suite's namespaces).  About
# 30 s each.
# Usage: sh regress/mutants/gatekeeper-window.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" build/libexec/spaced/spaced-gatekeeper
	SPACED_BUILD="$tmp/src/build" \
	    sh "$tmp/src/regress/integration/gatekeeper-window.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

W=gatekeeper/spaced-gatekeeper/window.c

mutant "$MUTANT_CONTROL" GNUmakefile ""

# A 502 still, for a reason that is not the unknown CA: "not 200" alone
# would stay green.
mutant_expect 'unknown CA: 502, journal failed:UNABLE_TO_GET_ISSUER_CERT_LOCALLY'
mutant "an unknown CA's refusal not named" $W \
    "		return \"UNABLE_TO_GET_ISSUER_CERT_LOCALLY\"; => 		return \"EPROTO\";"
mutant_expect 'unknown CA: 502'
mutant "the upstream's certificate not verified" gatekeeper/spaced-gatekeeper/tls.c \
    "SSL_CTX_set_verify(gk->gk_tls_ctx, SSL_VERIFY_PEER, NULL); => SSL_CTX_set_verify(gk->gk_tls_ctx, SSL_VERIFY_NONE, NULL);"

mutants_end
