#!/bin/sh
# Met by meet_b.sh in another lane (meet.sh).
me=a other=b
. "$(dirname "$0")/meet.sh"
