#!/bin/sh
# contract/pid1.sh, unchanged, on the native place (SPACED_TEST_PLACE=
# native): a space's pid 1 killed under its streamed execs, from the
# host and from inside, then 100 execs more, takes no worker down.
# About a minute.
SPACED_TEST_PLACE=native
export SPACED_TEST_PLACE
exec sh "$(dirname "$0")/../contract/pid1.sh" "$@"
