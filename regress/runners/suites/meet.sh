# Sourced by meet_a.sh and meet_b.sh: each says it runs, then waits for
# the other (at most 5 s).  Both pass only when two lanes run them at
# once.  $RUNNERS_X is the folder the runners' test shares with them.
. "$(dirname "$0")/../../lib/harness.sh"
touch "$RUNNERS_X/run.$me"
i=0
until [ -e "$RUNNERS_X/run.$other" ] || [ $i -ge 50 ]; do
	sleep 0.1; i=$((i + 1))
done
check "$me met $other" test -e "$RUNNERS_X/run.$other"
# Stay until the other has seen this one too.
sleep 0.3
rm -f "$RUNNERS_X/run.$me"
finish
