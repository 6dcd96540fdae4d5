#!/bin/sh
# The runners' own test (make runners-run, part of make check): each
# planted fault makes its runner fail, the good suite and the good unit
# binary pass (the controls), and skips are counted with their reasons.
. "$(dirname "$0")/../lib/harness.sh"
here=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
at_finish 'rm -rf "$T"'

# expect STATUS DESCRIPTION COMMAND...: the command's output in $T/out.
expect()
{
	_want=$1 _what=$2; shift 2
	"$@" >"$T/out" 2>&1
	_rc=$?
	if [ "$_rc" -eq "$_want" ]; then
		ok "$_what"
	else
		not_ok "$_what" "exit $_rc, wanted $_want:" "$(tail -5 "$T/out")"
	fi
}

# has DESCRIPTION REGEX: the last run's output matches.
has()
{
	if grep -Eq "$2" "$T/out"; then ok "$1"; else
		not_ok "$1" "no line matches '$2' in:" "$(tail -5 "$T/out")"; fi
}

integ()
{
	sh "$here/../run-integration.sh" "$T" "$@"
}

S=$here/suites
REGRESS_LIVE=0; export REGRESS_LIVE
expect 0 "integration: a good suite passes (control)" integ "$S/good.sh"
has "integration: the control's counts summed" \
    '^integration: 2 passed, 0 failed, 0 skipped$'
expect 1 "integration: a good summary, then exit 1, fails" integ "$S/exit1.sh"
has "... and says why" 'FAILED: .*exit1.sh: exit 1;'
expect 1 "integration: an empty suite fails" integ "$S/empty.sh"
has "... and says why" 'FAILED: .*empty.sh: ran nothing;'
expect 1 "integration: a failed check fails" integ "$S/fails.sh" "$S/good.sh"
has "... and the good suite after it still runs" \
    '^integration: 3 passed, 1 failed, 0 skipped$'
# (a CI that shows only the run's tail: the failed check is in it)
tail -n 4 "$T/out" >"$T/out.tail" && mv "$T/out.tail" "$T/out"
has "... and the run's last lines name the failed check" \
    '^  .*fails.sh: not ok - false succeeds$'
has "... with its detail" '^  .*fails.sh:     failed: false$'
expect 1 "integration: no summary line fails" integ "$S/nosummary.sh"
expect 0 "jq 1.6's own -e passes on no input (why the suites' jq exists)" \
    sh -c "printf '' | /usr/bin/jq -e ."
expect 1 "integration: a suite's jq -e on no input fails" integ "$S/jqempty.sh"
has "... and its control passes" '^integration: 1 passed, 1 failed, 0 skipped$'
expect 0 "integration: off CI a skip passes" integ "$S/skips.sh"
has "... counted" '^integration: 1 passed, 0 failed, 1 skipped$'
has "... with its reason" 'skips.sh: planted: the runner must count this$'
REGRESS_LIVE=1
expect 1 "integration: live on CI a skip fails" integ "$S/skips.sh"
has "... and says why" 'FAILED: .*skips.sh: 1 skipped on CI;'
expect 0 "integration: live on CI the control passes" integ "$S/good.sh"
# san:SUITE: the same suite against the sanitized build, its spaces'
# relay the normal build's; without the prefix, the build given.
mkdir -p "$T/san"
INTEGRATION_SAN_BUILD=$T/san; export INTEGRATION_SAN_BUILD
RUNNERS_BUILD_WANT=$T; export RUNNERS_BUILD_WANT
expect 0 "integration: a suite runs against the build given" integ "$S/build.sh"
expect 1 "integration: san:SUITE is not the build given (control)" \
    integ "san:$S/build.sh"
RUNNERS_BUILD_WANT=$T/san
RUNNERS_RELAY_WANT=$T/libexec/spaced/spaced-relay; export RUNNERS_RELAY_WANT
expect 0 "integration: san:SUITE runs against INTEGRATION_SAN_BUILD" \
    integ "san:$S/build.sh"
has "... named so" '^== integration: san:.*/build.sh'
unset INTEGRATION_SAN_BUILD RUNNERS_BUILD_WANT RUNNERS_RELAY_WANT
# Lanes (INTEGRATION_JOBS): two suites that wait for each other pass
# only when they run at once; regress/lanes' rules keep apart what they
# name.
RUNNERS_X=$T/x; export RUNNERS_X; mkdir -p "$RUNNERS_X"
expect 1 "lanes: one lane runs suites one by one (control)" \
    integ "$S/meet_a.sh" "$S/meet_b.sh"
REGRESS_LIVE=0 INTEGRATION_JOBS=2; export INTEGRATION_JOBS
rm -f "$RUNNERS_X"/run.*
expect 0 "lanes: two lanes run two suites at once" \
    integ "$S/meet_a.sh" "$S/meet_b.sh"
has "... counted" '^integration: 2 passed, 0 failed, 0 skipped$'
expect 1 "lanes: a failed suite in a lane fails the run" \
    integ "$S/fails.sh" "$S/good.sh" "$S/exit1.sh"
has "... counted" '^integration: 4 passed, 1 failed, 0 skipped$'
has "... and says why" 'FAILED: .*exit1.sh: exit 1;'
has "... and its output comes whole" '^== integration: .*/good.sh \(ended'
expect 1 "lanes: without a rule, a lonely suite runs beside others (control)" \
    integ "$S/lonely.sh" "$S/meet_a.sh" "$S/meet_b.sh"
has "... and sees one" 'not ok - lonely ran with no other suite beside it \(saw run'
echo "alone $S/lonely.sh" >"$T/lanes"
echo "together apart $S/apart_2.sh $S/apart_1.sh" >>"$T/lanes"
rm -f "$RUNNERS_X"/run.*
expect 0 "lanes: a suite named alone runs with none beside it" \
    env INTEGRATION_LANES="$T/lanes" sh "$here/../run-integration.sh" "$T" \
    "$S/lonely.sh" "$S/meet_a.sh" "$S/meet_b.sh"
expect 1 "lanes: without a rule, two suites run at once (control)" \
    integ "$S/apart_1.sh" "$S/apart_2.sh"
expect 0 "lanes: suites named together run one after another" \
    env INTEGRATION_LANES="$T/lanes" sh "$here/../run-integration.sh" "$T" \
    "$S/apart_1.sh" "$S/good.sh" "$S/apart_2.sh"
has "... all counted" '^integration: 4 passed, 0 failed, 0 skipped$'
unset INTEGRATION_JOBS RUNNERS_X
REGRESS_LIVE=1
# Without the override: what CI=true finds on this machine.
unset REGRESS_LIVE
if [ "$(id -u)" -eq 0 ] && curl -sf --max-time 3 --unix-socket \
    /var/run/docker.sock http://docker/_ping >/dev/null 2>&1; then
	expect 1 "integration: CI=true as root with Docker, a skip fails" \
	    env CI=true sh "$here/../run-integration.sh" "$T" "$S/skips.sh"
else
	echo "# not root with Docker here: CI=true's own detection not tried"
fi

# The mutants' judge (mutants/lib.sh): only the named test's red line
# kills; a red control stops the script.
expect 1 "mutants: planted verdicts, two of three not kills" \
    sh "$here/mutant-judge.sh"
has "... the control passes" '^ok - the unmutated tree \(control\) passes$'
has "... red by the named test: killed" '^ok - killed: killed by its test \(the named check\)$'
has "... red by another test: not a kill" \
    '^not ok - killed by another test than the named check: killed by another test$'
has "... green: survived" '^not ok - SURVIVED: survives$'
has "... counted" '^mutants: 1 killed, 2 survived$'
expect 1 "mutants: a red control stops the script" \
    env PLANT=red-control sh "$here/mutant-judge.sh"
has "... and says so" '^not ok - the unmutated tree \(control\) fails$'
if grep -q '^after a red control$' "$T/out"; then
	not_ok "... before anything after it" "$(tail -3 "$T/out")"
else
	ok "... before anything after it"
fi

# The unit runner, on Criterion binaries built with the sanitizers.
cc=${CC:-cc}
crit=$(pkg-config --libs criterion 2>/dev/null || echo -lcriterion)
for u in good leak skip; do
	if ! $cc -std=gnu11 -g -O1 -fsanitize=address,undefined \
	    -fno-omit-frame-pointer -o "$T/$u" "$here/unit/$u.c" $crit \
	    >"$T/cc.log" 2>&1; then
		not_ok "build unit fixture $u" "$(cat "$T/cc.log")"
		finish
	fi
done
unit()
{
	sh "$here/../run-unit.sh" "$@"
}
expect 0 "unit: a binary that frees what it takes passes (control)" \
    unit "$T/good"
has "... counted" '^unit: 1 passed, 0 failed, 0 skipped$'
expect 1 "unit: a planted leak fails" unit "$T/leak"
has "... on LeakSanitizer's report" 'ERROR: LeakSanitizer: detected memory leaks'
has "... and says why" 'FAILED: .*/leak: sanitizer report;'
expect 0 "unit: a skip passes" unit "$T/skip"
has "... counted" '^unit: 1 passed, 0 failed, 1 skipped$'
has "... with its reason" 'runners::skips .*planted: the runner must count this'
expect 1 "unit: in two lanes (UNIT_JOBS), a planted leak still fails" \
    env UNIT_JOBS=2 sh "$here/../run-unit.sh" "$T/good" "$T/leak" "$T/skip"
has "... all counted" '^unit: 3 passed, 0 failed, 1 skipped$'
has "... and says why" 'FAILED: .*/leak: sanitizer report;'
has "... each binary's lines together" '^== unit: .*/leak$'
expect 0 "unit: in two lanes, the good ones pass (control)" \
    env UNIT_JOBS=2 sh "$here/../run-unit.sh" "$T/good" "$T/skip"
# tools/dockerd.sh before it starts a daemon: a containerd pid file that
# names a pid no containerd has goes (dockerd would wait a minute for it
# and give up); one that names a running containerd stays (the control).
# In a mount namespace of its own with /run and /var/log empty, so no daemon answers
# and the pid file is the test's; a fake dockerd on PATH says whether
# the file was there when it ran, and exits.
if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
	skip "dockerd.sh's stale pid file: needs root and unshare -m"
else
	mkdir -p "$T/fake"
	cat >"$T/fake/dockerd" <<-'FAKE'
	#!/bin/sh
	f=/var/run/docker/containerd/containerd.pid
	if [ -f $f ]; then echo kept >"$FAKE_OUT"; else echo gone >"$FAKE_OUT"; fi
	exit 1
	FAKE
	chmod +x "$T/fake/dockerd"
	cp "$(command -v sleep)" "$T/containerd"
	"$T/containerd" 60 & live=$!
	sleep 60 & other=$!
	tool=$here/../../tools/dockerd.sh
	for c in "$other gone stale" "$live kept live"; do
		set -- $c
		unshare -m --propagation private sh -c '
		    mount -t tmpfs none /run && mount -t tmpfs none /var/log &&
		    mkdir -p /var/run/docker/containerd &&
		    echo "$1" >/var/run/docker/containerd/containerd.pid &&
		    PATH="$2:$PATH" FAKE_OUT="$3" sh "$4"' sh \
		    "$1" "$T/fake" "$T/fake.out" "$tool" >"$T/out" 2>&1
		if [ "$(cat "$T/fake.out" 2>/dev/null)" = "$2" ]; then
			ok "dockerd.sh: a pid file naming a $3 pid: $2"
		else
			not_ok "dockerd.sh: a pid file naming a $3 pid: $2" \
			    "dockerd saw: $(cat "$T/fake.out" 2>/dev/null)" \
			    "$(tail -3 "$T/out")"
		fi
		rm -f "$T/fake.out"
	done
	kill "$live" "$other" 2>/dev/null
fi
finish
