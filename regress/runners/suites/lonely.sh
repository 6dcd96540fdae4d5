#!/bin/sh
# Must run with no other suite beside it (apart.sh).
me=lonely
. "$(dirname "$0")/apart.sh"
