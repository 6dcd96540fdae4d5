#!/bin/sh
# Mutation check of spaced-gatekeeper -u and -C: each mutant removes one
# protection and regress/integration/gatekeeper-unix.sh must go red.
# Each mutant is built in a copy of the tree under a temp dir; the tree
# itself is never modified.  Needs root (the suite's namespaces, and
# setpriv to uid 10000).  About 30 s each.
# Usage: sh regress/mutants/gatekeeper-unix.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" build/libexec/spaced/spaced-gatekeeper
	SPACED_BUILD="$tmp/src/build" \
	    sh "$tmp/src/regress/integration/gatekeeper-unix.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

M=gatekeeper/spaced-gatekeeper/main.c
CL=gatekeeper/spaced-gatekeeper/client.c

# The controls: each way of running, on the unmutated tree.
mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect 'socket of mode 0666'
mutant "sockets keep the umask's mode (no chmod 0666)" $M \
    "if (chmod(tmp, mode) == -1)\n\t\tfatal(\"%s: chmod %s\", name, tmp); => ;"
mutant_expect 'a (regular file|directory|symlink) at .*: exit 1, left in place'
mutant "anything at a socket's name is replaced (no S_ISSOCK check)" $M \
    "if (!S_ISSOCK(st.st_mode))\n\t\tfatalx(\"%s exists and is not a socket\", path); => ;"
mutant_expect 'only the two sockets are left in SOCKDIR|gatekeeper -u starts'
mutant "no lstat: a stale temporary socket is not removed" $M \
    "if (unix_stale(tmp) && unlink(tmp) == -1) => if (0)"
mutant_expect '-u: no TCP listener on 3128'
mutant "-u still listens on TCP for the corridor" $M \
    "listen_unix(sockdir, \"corridor\", 0666, corridor_accept); => listen_unix(sockdir, \"corridor\", 0666, corridor_accept);\n\t\tss = gk->gk_bind;\n\t\tset_port(&ss, gk->gk_ports[GK_CORRIDOR]);\n\t\tlisten_on(&ss, gk->gk_bindlen, corridor_accept, \"corridor\");"
mutant_expect '-C GET /nope: exit 1'
mutant "-C: any status exits 0" $CL \
    "if (status < 200 || status > 299) { => if (0) {"
mutant_expect '-C with stdin over 1 MiB: exit 2'
mutant "-C: no cap on stdin" $CL \
    "if (len > GK_CLIENT_BODY_MAX)\n\t\t\tclient_fail => if (0)\n\t\t\tclient_fail"
mutant_expect '-C with an answer over 2 MiB: exit 2'
mutant "-C: no cap on the answer" $CL \
    "if (anslen > GK_CLIENT_ANSWER_MAX)\n\t\t\t\tclient_fail => if (0)\n\t\t\t\tclient_fail"
mutant_expect 'before a -t 5 client started earlier'
mutant "-C: -t ignored (a 60 s deadline)" $CL \
    "client_end.tv_sec += secs; => client_end.tv_sec += secs * 0 + 60;"
mutant_expect '-C GET (health|/a.*): exit 2 \(usage\)'
mutant "-C: PATH not checked" $CL \
    "if (client_path_ok(path) == -1) => if (0)"
mutant_expect '-C (get|G3T) /health: exit 2 \(usage\)'
mutant "-C: METHOD not checked" $CL \
    "if (client_method_ok(method) == -1) => if (0)"
mutant_expect '-C runs under a seccomp filter'
mutant "-C: no confinement" $CL \
    "sandbox_enter(&sb); => ;"

mutants_end
