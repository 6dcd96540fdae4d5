#!/bin/sh
# A native gatekeeper's log stays capped while it runs (issue 25): its
# stdout is a pipe spaced-ns copies into gk.log, turned over at 10 MiB
# into gk.log.1 to .4, as the Docker place's json-file keeps five files
# of 10 MB.  The flood is 60 MiB of journal-shaped lines written into
# the running gatekeeper's own stdout (root opens /proc/PID/fd/1: the
# same pipe, the same bytes its journal writes); the gatekeeper's real
# lines still land after it, and a start of the space goes on.  Its
# stderr likewise goes to gk.err (two files of 1 MiB), never to spaced's
# log: 20 MiB written into it leave spaced's log as it was.
. "$(dirname "$0")/lib.sh"

native_begin gklog
native_space gklog
MAX=$((10 * 1024 * 1024))
CHUNK=65536
deny() { sc exec "$A" -- curl -s -m 5 -o /dev/null -w '%{http_code}' "http://$1/" ; }

# (spaced-ns copies the gatekeeper's line into gk.log a moment after
# curl had its answer: awaited, a hang guard)
before_logged() { grep -q '"host":"before.invalid"' "$dir/gk.log"; }
refused_logged() {
	[ "$(sc exec "$A" -- curl -s -m 60 -o /dev/null -w '%{http_code}' \
	    http://before.invalid/)" = 403 ] && wait_for 60 before_logged
}
check "a refusal is journaled in gk.log (control)" refused_logged

check "spacectl journal reads it from gk.log" wait_for 15 sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' journal '$A' | grep -q before.invalid"

# 60 MiB into the gatekeeper's stdout, in lines as its journal writes.
gk=$(cut -d" " -f1 "$dir/gk")
check "  its stderr is kept in gk.err (control for the next)" \
    test -f "$dir/gk.err"
lacks "the gatekeeper made its stdout its own (no reopen warning)" \
    "$dir/gk.err" -F "cannot reopen stdout"
check "the gatekeeper's stdout is a pipe (not gk.log itself)" sh -c \
    "readlink /proc/$gk/fd/1 | grep -q '^pipe:'"
python3 - "/proc/$gk/fd/1" <<'PY'
import sys
line = (b'{"at":"2026-12-06T00:00:00.000Z","listener":"corridor","host":"'
        + b"f" * 60 + b'.flood.invalid","port":443,"decision":"deny:test"}\n')
block = line * 512
with open(sys.argv[1], "wb", buffering=0) as f:
    for _ in range(60 * 1024 * 1024 // len(block) + 1):
        f.write(block)
PY
check "the flood was written" test $? -eq 0
# Copied by spaced-ns as it comes: until the files stop growing.
settled gk.log
check "five files at most: gk.log and gk.log.1 to .4" sh -c \
    "[ -e '$dir/gk.log.4' ] && [ ! -e '$dir/gk.log.5' ]"
for f in "$dir"/gk.log*; do
	check "$(basename "$f") is under the cap ($(wc -c <"$f") bytes)" \
	    test "$(wc -c <"$f")" -le $((MAX + CHUNK))
done
check "gk.log and its turned-over files hold at most 5 x 10 MiB" test \
    "$(cat "$dir"/gk.log* | wc -c)" -le $((5 * (MAX + CHUNK)))
check "each turned-over file begins with a whole line" sh -c \
    "for f in '$dir'/gk.log.*; do head -c 6 \"\$f\" | grep -q '^{\"at\"' || exit 1; done"
check "each ends with a whole line" sh -c \
    "for f in '$dir'/gk.log.*; do [ \"\$(tail -c 1 \"\$f\" | od -An -c | tr -d ' ')\" = '\\n' ] || exit 1; done"
check "the oldest lines went (the first refusal is gone)" sh -c \
    "! grep -q before.invalid '$dir'/gk.log*"

# its line is awaited (the 60 s guard against a hang), not timed
last_is_after() { tail -n 1 "$dir/gk.log" | grep -q '"host":"after.invalid"'; }
lands_after() {
	[ "$("$tree/bin/spacectl" -s "$sd/run/spaced.sock" exec "$A" -- curl -s -m 60 -o /dev/null -w '%{http_code}' http://after.invalid/)" = 403 ] &&
	    wait_for 60 last_is_after
}
check "the gatekeeper's own lines land after the flood" lands_after
check "stop and start go on with its files" sh -c \
    "'$tree/bin/spacectl' -s '$sd/run/spaced.sock' stop '$A' >/dev/null &&
    '$tree/bin/spacectl' -s '$sd/run/spaced.sock' start '$A' >/dev/null"
check "after the start, its stdout is a pipe again" sh -c \
    "readlink /proc/\$(cut -d' ' -f1 '$dir/gk')/fd/1 | grep -q '^pipe:'"

# Its stderr: a gatekeeper gone wrong (or made hostile) that writes
# without end must not fill spaced's log, which its stderr once was.
gk=$(cut -d" " -f1 "$dir/gk")
nsp=$(sc status | awk '$1 == "spaced-ns" { print $2 }')
check "the gatekeeper's stderr is a pipe" sh -c \
    "readlink /proc/$gk/fd/2 | grep -q '^pipe:'"
check "  not spaced-ns's own stderr (spaced's log)" test \
    "$(readlink "/proc/$gk/fd/2")" != "$(readlink "/proc/${nsp:-0}/fd/2")"
EMAX=$((1024 * 1024))
logb=$(wc -c <"$sd/log")
python3 - "/proc/$gk/fd/2" <<'PY'
import sys
line = b"spaced-gatekeeper: " + b"e" * 100 + b" flood\n"
with open(sys.argv[1], "ab", buffering=0) as f:
    for _ in range(20 * 1024 * 1024 // (len(line) * 256) + 1):
        f.write(line * 256)
    f.write(b"spaced-gatekeeper: the flood's last line\n")
PY
check "20 MiB were written into its stderr" test $? -eq 0
settled gk.err
# (settled reads a second apart: a spaced-ns held longer than that under
# load has the pipe's last bytes still to copy; its last line awaited)
check "  control: they went somewhere: the last line is in gk.err" \
    wait_for 60 grep -q "the flood's last line" "$dir/gk.err"
check "spaced's log took none of it ($(( $(wc -c <"$sd/log") - logb )) bytes more)" \
    test $(( $(wc -c <"$sd/log") - logb )) -lt 65536
check "gk.err and gk.err.1 only" sh -c \
    "[ -e '$dir/gk.err.1' ] && [ ! -e '$dir/gk.err.2' ]"
check "  each under its cap of 1 MiB" sh -c \
    "for f in '$dir'/gk.err*; do [ \$(wc -c <\"\$f\") -le $((EMAX + CHUNK)) ] || exit 1; done"
finish
