#!/bin/sh
# A uid per space (issue 27, M3): two spaces A and B run as two host
# uids of the range spaced.conf reserves, own their folders, and share
# no per-uid kernel limit: inotify instances A holds leave B's intact
# (control: B's own command as A's uid fails), and a host process with
# B's uid cannot read the environment of A's processes (control: with
# A's uid it can).  Also the limits every space gets: no core file,
# 16384 open files, 1024 processes of its uid.
. "$(dirname "$0")/../contract/lib.sh"

# Removed before the end's sweep (at_finish runs it first).
remove_both() {
	for i in ${A:-} ${B:-}; do sc remove "$i" >/dev/null 2>&1; done
	A= B=
}
sc create -n "uids A" -m 256m >"$T/a" 2>"$T/a.err"; A=$(cat "$T/a")
sc create -n "uids B" -m 256m >"$T/b" 2>"$T/b.err"; B=$(cat "$T/b")
if [ -z "$A" ] || [ -z "$B" ]; then
	not_ok "two spaces are made: $(cat "$T/a.err" "$T/b.err")"
	finish
fi
uA=$(space_uid "$A"); uB=$(space_uid "$B")
user_of() { api GET "/containers/spaced-space-$1-space/json" | jq -r .Config.User; }
check "A runs as its own uid of the range ($uA)" test "$(user_of "$A")" = "$uA:$uA"
check "B runs as another ($uB)" test "$(user_of "$B")" = "$uB:$uB"
check "the two differ" test "$uA" != "$uB"
check "exec in A is A's uid" test "$(sc exec "$A" -- id -u)" = "$uA"
check "A's work folder and home are A's, 0700" test \
    "$(sc exec "$A" -- stat -c '%u %a' "/spaces/$A" /home/space | tr '\n' ' ')" \
    = "$uA 700 $uA 700 "
check "A writes its home and work folder" \
    sc exec "$A" -- sh -c "echo x >\$HOME/f && echo x >/spaces/$A/f"
limits() { awk '/^Max (core file size|open files|processes)/ {
    print $(NF - 2), $(NF - 1) }' "$@" | tr '\n' ' '; }
check "limits inside: no core, 16384 files, 1024 processes" test \
    "$(sc exec "$A" -- cat /proc/self/limits | limits)" = \
    "0 0 1024 1024 16384 16384 "

# --- inotify: a per-uid limit of the kernel (128 instances here) --------
cat >"$T/ih.c" <<'C'
#include <sys/inotify.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int
main(int argc, char **argv)
{
	int	 n = 0;

	if (argc > 1 && strcmp(argv[1], "hold") == 0) {
		while (inotify_init1(0) != -1)
			n++;
		printf("held %d: %s\n", n, strerror(errno));
		fflush(stdout);
		pause();
	}
	if (inotify_init1(0) == -1)
		printf("try %s\n", strerror(errno));
	else
		printf("try ok\n");
	return 0;
}
C
if ! cc -static -O2 -o "$T/ih" "$T/ih.c" 2>"$T/cc.err"; then
	not_ok "the inotify helper builds: $(cat "$T/cc.err")"
	remove_both
	finish
fi
for i in "$A" "$B"; do
	sc exec "$i" -- sh -c 'cat >/tmp/ih && chmod 0755 /tmp/ih' <"$T/ih"
done
sc exec "$A" -- /tmp/ih hold >"$T/hold" 2>&1 &
hold=$!
wait_for 20 grep -q '^held' "$T/hold"
check "A holds every inotify instance its uid may have ($(cat "$T/hold"))" \
    grep -q '^held [1-9][0-9]*: Too many open files' "$T/hold"
check "A itself can make no more (control)" \
    test "$(sc exec "$A" -- /tmp/ih)" = "try Too many open files"
check "B still makes an inotify instance" test "$(sc exec "$B" -- /tmp/ih)" = "try ok"
check "B's command as A's uid cannot (positive control: the limit is per uid)" \
    test "$(docker exec -u "$uA:$uA" "spaced-space-$B-space" /tmp/ih)" = \
    "try Too many open files"
kill "$hold" 2>/dev/null

# --- the environment of A's processes, from the host ---------------------
pid=$(api GET "/containers/spaced-space-$A-space/json" | jq -r .State.Pid)
check "A's init runs as A's uid on the host" \
    test "$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status")" = "$uA"
readenv() { setpriv --reuid="$1" --regid="$1" --clear-groups \
    cat "/proc/$pid/environ" 2>/dev/null | tr '\0' '\n' | grep -c '^HOME='; }
check "a host process of A's uid reads its environment (control)" \
    test "$(readenv "$uA")" = 1
check "a host process of B's uid cannot" test "$(readenv "$uB")" = 0
check "nor one of the images' old shared uid 10000" test "$(readenv 10000)" = 0
remove_both
finish
