# Passes when it runs against the build RUNNERS_BUILD_WANT names, with a
# space's relay from RUNNERS_RELAY_WANT (empty: none named).
. "$(dirname "$0")/../../lib/harness.sh"
check "the build is $RUNNERS_BUILD_WANT ($SPACED_BUILD)" \
    test "$SPACED_BUILD" = "$RUNNERS_BUILD_WANT"
check "a space's relay: '${SPACED_SPACE_RELAY:-}'" \
    test "${SPACED_SPACE_RELAY:-}" = "${RUNNERS_RELAY_WANT:-}"
finish
