#!/bin/sh
# Must not run beside apart_1/2.sh (apart.sh).
me=apart2
. "$(dirname "$0")/apart.sh"
