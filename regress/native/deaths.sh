#!/bin/sh
# agent/deaths.sh, unchanged, on the native place (SPACED_TEST_PLACE=
# native): a create whose server the kernel kills for memory at each
# start fails early, naming the deaths and the memory, and leaves no
# record, cgroup, folder or process; one killed once, then never ready,
# names the memory at the wait's end; a start ends the same way, counting
# its own run's deaths alone; and, native only, three restarts spaced-ns
# reads in one go (it was stopped) count three.  About a minute and a
# half.
SPACED_TEST_PLACE=native
export SPACED_TEST_PLACE
exec sh "$(dirname "$0")/../agent/deaths.sh" "$@"
