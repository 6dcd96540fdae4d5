# The suites' jq (tools/strict/jq): "-e" on no output fails; the same
# check on a true value passes (the control).
. "$(dirname "$0")/../../lib/harness.sh"
check "jq -e on no input (planted: must fail)" sh -c "printf '' | jq -e ."
check "jq -e on true (control)" sh -c "echo true | jq -e . >/dev/null"
finish
