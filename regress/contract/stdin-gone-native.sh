#!/bin/sh
# stdin-gone.sh on the native place: spaced-ns takes the same race.
SPACED_TEST_PLACE=native exec sh "$(dirname "$0")/stdin-gone.sh"
