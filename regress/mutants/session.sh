#!/bin/sh
# Mutation check of a person's session (issue 23): each mutant removes
# one protection of exec -t or attach, and regress/session/tty.sh (or
# session/agent.sh; the real engine, under tmux) must go red.  Built in a copy of the tree under a temp
# dir; the tree itself is never modified.  About a minute and a half a
# mutant.  Usage: sh regress/mutants/session.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]>
# [suite], session/tty by default
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/${4:-session/tty}.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""
mutant "$MUTANT_CONTROL" GNUmakefile "" session/agent

mutant_expect "another client's exec"
mutant "spaced passes on a resize for another client's exec" \
    supervisor/spaced/streams.c \
    "if (s->s_dst.ep_proc != PROC_MAX || s->s_dst.ep_cc != cc || => if (s->s_dst.ep_proc != PROC_MAX ||"
mutant_expect "a flood of 3000 resizes: the last size is seen inside"
mutant "the resize child ends after each call: a connection a resize" \
    worker-docker/docker_exec_resize.c \
    "t->busy = 0;\n\tif (t->want_rows == t->sent_rows => t->busy = 0;\n\treturn rz_fail(rq, \"\", 0, next);\n\tif (t->want_rows == t->sent_rows"
mutant_expect "SIGTERM: the local terminal"
mutant "a signal that ends spacectl leaves the terminal raw" \
    supervisor/spacectl/spacectl_tty.c \
    "(void)sigaction(fatal[i], &sa, NULL); => ;"
mutant_expect "stdin a pipe: its end ends cat"
mutant "exec -t does not pass a piped stdin's end on" \
    supervisor/spacectl/spacectl_exec.c \
    "if (xc->xc_eof_room > 0) => if (xc->xc_eof_room > 2)"
mutant_expect "the shell inside's, spacectl goes on"
mutant "Ctrl-C signals spacectl, not the command inside" \
    supervisor/spacectl/spacectl_tty.c \
    "cfmakeraw(&tty_rawmode); => cfmakeraw(&tty_rawmode);\n\ttty_rawmode.c_lflag |= ISIG;"
mutant_expect "SIGTSTP: the shell's terminal is as it was"
mutant "job control: SIGTSTP stops spacectl with the terminal raw" \
    supervisor/spacectl/spacectl_tty.c \
    "tty_raw = 0;\n\ttty_restore();\n\tmemset(&sa, => tty_raw = 0;\n\tmemset(&sa,"
mutant_expect "fg after SIGTSTP: the terminal is raw again"
mutant "job control: SIGCONT leaves the terminal as the shell set it" \
    supervisor/spacectl/spacectl_tty.c \
    "tty_on_cont(int sig)\n{\n\ttty_cont = 1; => tty_on_cont(int sig)\n{\n\t; @@ (void)sigtimedwait(&set, NULL, &now);\n\ttty_cont = 1; => (void)sigtimedwait(&set, NULL, &now);"
mutant_expect "the size set while it was stopped is seen inside"
mutant "job control: the size is not sent again after SIGCONT" \
    supervisor/spacectl/spacectl_tty.c \
    "tty_enter();\n\t\t\ttty_winch = 1; => tty_enter();"
mutant_expect "leaves the shell's terminal in its mode"
mutant "job control: continued in the background, spacectl takes the terminal" \
    supervisor/spacectl/spacectl_tty.c \
    "} else if (tty_cont && !tty_background()) { => } else if (tty_cont) {"
mutant_expect "started with &: spacectl runs|leaving the shell's terminal as it was"
mutant "job control: started in the background, spacectl takes the terminal" \
    supervisor/spacectl/spacectl_tty.c \
    "tty_cont = 1;\n\ttty_job();\n\ttty_winch = 0; => tty_enter();"
mutant_expect "spacectl's read in the background stops it"
mutant "job control: a read of the terminal in the background (EIO) ends the input" \
    supervisor/spacectl/spacectl_exec.c \
    "if (errno == EIO && xc->xc_tty && tty_read_background()) => if (0 && errno == EIO)"
mutant_expect "no read of the terminal while it is in the background"
mutant "job control: orphaned in the background, spacectl reads the terminal again and again" \
    supervisor/spacectl/spacectl_exec.c \
    "!(xc->xc_tty && tty_input_held()) => 1"
mutant_expect "an engine that closes each resize's connection"
mutant "spaced: a client's resizes raise its exec's engine connection cap without bound" \
    supervisor/spaced/streams.c \
    "if (r->r_conns_more < EXEC_RESIZE_CONNS_MAX)\n\t\tr->r_conns_more++; => r->r_conns_more++;"

mutant_expect "the host's prompt is at the start of the next line"
mutant "a failure of exec -t is printed while the terminal is raw" \
    supervisor/spacectl/spacectl_exec.c \
    "tty_stop();\n\tif (xc->xc_fail[0] => if (xc->xc_fail[0]"
mutant_expect "attach as the server starts again: the screen is drawn"
mutant "attach does not wait for a server being started again" \
    common/proto/space_agent.c \
    "attach_wait(ag, buf, size, &off) == -1 || => (0 && attach_wait(ag, buf, size, &off) == -1) ||" \
    session/agent

mutants_end
