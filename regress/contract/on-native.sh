#!/bin/sh
# The place contract (docker.sh, unchanged) against the native place:
# what it reads behind spaced comes from the native record, cgroups and
# /proc (lib.sh).  Root: the native place's runtime, else a skip.
SPACED_TEST_PLACE=native exec sh "$(dirname "$0")/docker.sh"
