#!/bin/sh
# Met by meet_a.sh in another lane (meet.sh).
me=b other=a
. "$(dirname "$0")/meet.sh"
