#!/bin/sh
# agent/deaths.sh, unchanged, on the native place (SPACED_TEST_PLACE=
# native): a create whose server the kernel kills for memory at each
# start fails early, naming the deaths and the memory, and leaves no
# record, cgroup, folder or process; one killed once, then never ready,
# names the memory at the wait's end.  About two minutes.
SPACED_TEST_PLACE=native
export SPACED_TEST_PLACE
exec sh "$(dirname "$0")/../agent/deaths.sh" "$@"
