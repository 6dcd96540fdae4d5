# Sourced by apart_1.sh, apart_2.sh and lonely.sh: says it runs, and
# for 2 s watches for any other suite of this folder running; it fails
# when one does.  Run one after another (or alone) they pass.
. "$(dirname "$0")/../../lib/harness.sh"
touch "$RUNNERS_X/run.$me"
i=0 seen=""
while [ $i -lt 20 ]; do
	for f in "$RUNNERS_X"/run.*; do
		[ -e "$f" ] && [ "$f" != "$RUNNERS_X/run.$me" ] && seen=${f##*/}
	done
	sleep 0.1; i=$((i + 1))
done
rm -f "$RUNNERS_X/run.$me"
check "$me ran with no other suite beside it${seen:+ (saw $seen)}" \
    test -z "$seen"
finish
