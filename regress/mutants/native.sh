#!/bin/sh
# Mutation check of the native place: each mutant breaks one bind or
# rule of spaced-ns, and the confined-shell table (escape/native.sh)
# must turn exactly its row red; a mutant that turns others red too is
# counted as killed and named.  Each is built in a copy of the tree whose
# build/ is this tree's, so only what the mutant touched is rebuilt;
# about a minute each.
# Usage: sh regress/mutants/native.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]> [suite]
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" timeout 600 \
	    sh "$tmp/src/regress/${4:-escape/native}.sh" >"$tmp/run.raw" 2>&1
	m_rc=$?
	# a detail may quote a NUL from /proc: text only for the verdict
	tr -d '\000' <"$tmp/run.raw" >"$tmp/run.log"
	m_red=$(grep -c '^not ok' "$tmp/run.log")
	[ "$1" = "$MUTANT_CONTROL" ] || [ "$m_red" -le 1 ] || [ -n "${4:-}" ] ||
	    echo "# $1: $m_red rows red: $(grep '^not ok' "$tmp/run.log" |
	    sed 's/^not ok - //' | paste -sd';' -)"
	mutant_judge "$1" $m_rc '^not ok'
}

S=worker-ns/ns_space.c
B=worker-ns/ns_mount.c
F=worker-ns/ns_filter.c
C=worker-ns/ns_cgroup.c

mutant "$MUTANT_CONTROL" GNUmakefile ""
mutant "$MUTANT_CONTROL" GNUmakefile "" contract/on-native

mutant_expect "the host's /root"
mutant "the host's /root bound into the space" $B \
    '{ "/usr", 0 },		/* programs and libraries */ => { "/usr", 0 }, { "/root", 1 },'
mutant_expect "the Docker socket"
mutant "the Docker socket bound into the space" $B \
    '{ "/usr", 0 },		/* programs and libraries */ => { "/usr", 0 }, { "/var/run/docker.sock", 1 },'
mutant_expect "the host's network"
mutant "no network namespace" $S \
    'CLONE_NEWUTS | CLONE_NEWNET); => CLONE_NEWUTS);'
mutant_expect "the host's System V IPC"
mutant "no ipc namespace" $S \
    'pid = clone_child(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC |\n\t    CLONE_NEWUTS | CLONE_NEWNET); => pid = clone_child(CLONE_NEWNS | CLONE_NEWPID |\n\t    CLONE_NEWUTS | CLONE_NEWNET);'
mutant_expect "another space's processes"
mutant "no pid namespace" $S \
    'pid = clone_child(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC |\n\t    CLONE_NEWUTS | CLONE_NEWNET); => pid = clone_child(CLONE_NEWNS | CLONE_NEWIPC |\n\t    CLONE_NEWUTS | CLONE_NEWNET);'
mutant_expect "a capability"
mutant "capabilities kept across the drop" $S \
    'return syscall(SYS_capset, &hdr, data) == -1 ? -1 : 0; => return 0;'
mutant_expect "a user namespace inside"
mutant "the space's filter lets unshare through" $F \
    'SYS_umount2, SYS_unshare, SYS_uselib, => SYS_umount2, SYS_uselib,'
mutant_expect "^ptrace"
mutant "ptrace allowed in both filters" $F \
    'SYS_process_vm_writev, SYS_ptrace, SYS_query_module, => SYS_process_vm_writev, SYS_query_module, @@ SYS_process_vm_writev, SYS_ptrace,\n\t-1 => SYS_process_vm_writev,\n\t-1'
mutant_expect "a shell beside the gatekeeper"
mutant "the gatekeeper sees all of /usr" $B \
    '{ "/usr/lib", 0 },		/* its libraries */ => { "/usr", 0 },'
mutant_expect "the memory limit"
mutant "no memory limit" $C \
    '\t\t\tcg_value(r, cl, v, sizeof(v)); => \t\t\tcg_value(r, cl, v, sizeof(v));\n\t\t\tif (strcmp(r->cr_ctl, "memory") == 0)\n\t\t\t\tcontinue;'
mutant_expect "the pids limit"
mutant "no pids limit" $C \
    '\t\t\tcg_value(r, cl, v, sizeof(v)); => \t\t\tcg_value(r, cl, v, sizeof(v));\n\t\t\tif (strcmp(r->cr_ctl, "pids") == 0)\n\t\t\t\tcontinue;'
mutant_expect "leaves no process"
mutant "no death signal after the space's drop" $S \
    'if (become(NS_SPACE_UID) == -1 || die_with(lifefd) == -1) => if (become(NS_SPACE_UID) == -1)'

mutant_expect "reaches a gatekeeper's control channel"
mutant "the gatekeeper's control on a loopback port again" $S \
    '"/run/spaced", "-k", NS_GK_CTLDIR, "127.0.0.1", => "/run/spaced", "127.0.0.1",'
# The place contract on native (contract/on-native.sh).
mutant_expect "verify names it: network"
mutant "verify blind to an interface made in the space's network" \
    worker-ns/ns_ops.c \
    'if (strcmp(line + strspn(line, " "), "lo") != 0) => if (0)' \
    contract/on-native
mutant_expect "not spaced's log pipe"
mutant "the space's first processes keep spaced-ns's stdout and stderr" worker-ns/ns_fds.c \
    'if (dup2(fd, STDIN_FILENO) == -1 || dup2(fd, STDOUT_FILENO) == -1 ||\n\t    dup2(fd, STDERR_FILENO) == -1) => if (dup2(fd, STDIN_FILENO) == -1)'
mutant_expect "the stray process in A's group is ended"
mutant "no sweep of the groups at spaced-ns's start" worker-ns/ns_ops.c \
    '\t\tns_end_all(de->d_name);\n\t\tn++; => \t\tn++;'
# Exec through a space's helper, the gatekeeper's stderr, collection
# since a time (the native place's exec and journal paths).
mutant_expect "a crashed spaced-ns leaves no process"
mutant "native: the exec helper outlives spaced-ns (no death signal, no end at EOF)" \
    worker-ns/ns_helper.c \
    'if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 ||\n\t\t    getppid() != parent)\n\t\t\t_exit(1);\n\t\tns_close_others(sp[1] => if (getppid() != parent)\n\t\t\t_exit(1);\n\t\tns_close_others(sp[1] @@ \tif (n <= 0)\n\t\t_exit(0); => \tif (n <= 0)\n\t\tfor (;;)\n\t\t\tpause();'
mutant_expect "spaced's log took none of it"
mutant "native: the gatekeeper's stderr left on spaced's log" $S \
    'dup2(out, STDOUT_FILENO) == -1 ||\n\t\t    dup2(errfd, STDERR_FILENO) == -1) => dup2(out, STDOUT_FILENO) == -1)' \
    native/gklog
mutant_expect "collections in a quiet while read under 1 MiB"
mutant "native: collection ignores since" worker-ns/ns_logs.c \
    'lg->since = sl.sl_since; => lg->since = 0;' native/follow
mutant_expect "collected, nobody asking"
mutant "native: since's cursor skips what came since" worker-ns/ns_gklog.c \
    'return g->marks[(g->first + i) % GKL_MARKS].off; => return g->line_end;' \
    native/follow
# exec -T and a client that leaves: the command's keeper ends its tree
# (the contract suite, on the native place).
mutant_expect "its children too"
mutant "native: the helper's kill is SIGKILL to the keeper (its first child alone)" \
    worker-ns/ns_helper.c \
    'kill(run[i].r_pid, SIGTERM); => kill(run[i].r_pid, SIGKILL);' \
    contract/on-native
mutant_expect "nor what a double fork orphaned"
mutant "native: the keeper is no subreaper (orphans go to the space's pid 1)" \
    worker-ns/ns_keeper.c \
    'if (prctl(PR_SET_CHILD_SUBREAPER, 1) == -1 ||\n\t    prctl => if (prctl' \
    contract/on-native
mutant_expect "holds its output ends in time"
mutant "native: -T waits for a child that holds the output after the command ended" \
    worker-ns/ns_exec.c \
    'if (x->exited) {\n\t\tnx_close(x, 1); => if (0) {\n\t\tnx_close(x, 1);' \
    contract/on-native
mutant_expect "make run ends well"
mutant "native: make run's deps step requires docker.io again" GNUmakefile \
    '@sh tools/deps.sh -o => @sh tools/deps.sh' native/nodocker
mutant_expect "leaves OpenCode's current folder"
mutant "native: a fill prunes another profile's current folder" \
    worker-ns/ns_prune.c 'tools_keep_has(tk, de->d_name) || => ' native/agent
mutants_end
