# The positive control: two checks pass.
. "$(dirname "$0")/../../lib/harness.sh"
ok "a check that passes"
check "true succeeds" true
finish
