# A check fails: the suite exits 1 through finish.
. "$(dirname "$0")/../../lib/harness.sh"
ok "a check that passes"
check "false succeeds" false
finish
