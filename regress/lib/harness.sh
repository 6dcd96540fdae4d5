# The harness of every shell suite (sourced, POSIX sh): ok, not_ok,
# check, check_fails, check_refusal, lacks, skip, finish.  finish prints the line the runner
# reads (regress/run-integration.sh), "N passed, N failed, N skipped",
# and exits with the suite's status.  A skip counts, with its reason.

pass=0
fail=0
skipped=0
harness_at_finish=

ok()
{
	pass=$((pass + 1))
	echo "ok - $1"
}

# not_ok DESCRIPTION [DETAIL...]: each detail on a line of its own.
not_ok()
{
	fail=$((fail + 1))
	echo "not ok - $1"
	shift
	for _h_l in "$@"; do echo "    $_h_l"; done
}

# check DESCRIPTION COMMAND...: passes when the command succeeds.
check()
{
	_h_d=$1; shift
	if "$@"; then ok "$_h_d"; else not_ok "$_h_d" "failed: $*"; fi
}

# check_fails DESCRIPTION COMMAND...: passes when the command fails.
check_fails()
{
	_h_d=$1; shift
	if "$@"; then not_ok "$_h_d" "succeeded: $*"; else ok "$_h_d"; fi
}

# check_refusal DESCRIPTION STATUS ERE COMMAND...: passes when the command
# exits with STATUS and says what matches ERE (stdout and stderr): a
# refusal by its answer, not any failure.
check_refusal()
{
	_h_d=$1; _h_s=$2; _h_e=$3; shift 3
	_h_o=$("$@" 2>&1)
	_h_r=$?
	if [ "$_h_r" = "$_h_s" ] && printf '%s\n' "$_h_o" | grep -Eq -- "$_h_e"; then
		ok "$_h_d"
	else
		not_ok "$_h_d" "want exit $_h_s and /$_h_e/, got exit $_h_r: $*" \
		    "$(printf '%s' "$_h_o" | head -c 300)"
	fi
}

# lacks DESCRIPTION FILE GREP-ARGS...: passes when FILE is readable and
# not empty and grep finds nothing in it (exit 1 exactly): a missing or
# empty file, or a grep error, is not "nothing found".
lacks()
{
	_h_d=$1; _h_f=$2; shift 2
	if [ ! -r "$_h_f" ] || [ ! -s "$_h_f" ]; then
		not_ok "$_h_d" "nothing to search: $_h_f missing or empty"
		return
	fi
	grep -q "$@" "$_h_f"
	case $? in
	1) ok "$_h_d";;
	0) not_ok "$_h_d" "found: grep $* $_h_f";;
	*) not_ok "$_h_d" "grep failed: grep $* $_h_f";;
	esac
}

# skip REASON: a check not made, and why.  Live on CI a skip fails.
skip()
{
	skipped=$((skipped + 1))
	echo "skip - $1"
}

# at_finish COMMAND: run by finish, in order, before the summary (a
# library's cleanup, which may itself make a check).
at_finish()
{
	harness_at_finish="$harness_at_finish$1
"
}

finish()
{
	# Once, even when a cleanup step calls finish again.
	_h_f=$harness_at_finish
	harness_at_finish=
	eval "$_h_f"
	echo "$pass passed, $fail failed, $skipped skipped"
	[ "$fail" -eq 0 ] && exit 0
	exit 1
}
