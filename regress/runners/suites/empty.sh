# Runs nothing and says so.
. "$(dirname "$0")/../../lib/harness.sh"
finish
