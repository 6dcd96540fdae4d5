/*
 * Copyright (c) 2026 The spaced developers
 *
 * Permission to use, copy, modify, and distribute this software for any
 * purpose with or without fee is hereby granted, provided that the above
 * copyright notice and this permission notice appear in all copies.
 *
 * THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
 * WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
 * MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
 * ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
 * WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
 * ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
 * OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
 */

/*
 * spacectl: talks to spaced over its control socket.  Holds nothing,
 * parses only the fixed structs spaced answers with.  This file is the
 * command table: dispatch, and the usage it prints, come from it alone.
 */

#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "spacectl.h"
#include "spacectl_output.h"

#define SPACED_SOCK_DEFAULT	"/run/spaced/spaced.sock"	/* root's */

/*
 * In the order of the usage list.  Who may run a command is spaced's
 * decision (control.c), never the client's.
 */
static const struct ctl_cmd cmds[] = {
	{ "help", "[command]",
	    USAGE_LINE, 11, FAIL_TEXT, 0, help_main,
	    "this list, or one command's usage and what it does" },
	{ "status", "",
	    USAGE_LINE, 0, FAIL_JSON, IMSG_CTL_STATUS, status_main,
	    "each process of spaced: its pid, its state and a detail" },
	{ "privileges", "",
	    USAGE_NEXT, 0, FAIL_JSON, IMSG_CTL_PRIVILEGES, privileges_main,
	    "the audit table: uids, seccomp, capabilities, Landlock, fds" },
	{ "check", "",
	    USAGE_NEXT, 0, FAIL_JSON, IMSG_CTL_CHECK, check_main,
	    "whether each place answers: the Docker engine, the native place" },
	{ "probe", "docker|git|journal execve|open|socket|connect|fork",
	    USAGE_LINE, 0, FAIL_JSON, IMSG_CTL_PROBE, probe_main,
	    "try a forbidden call in a worker; its filter must refuse it" },
	{ "ping", "docker|git|journal",
	    USAGE_LINE, 0, FAIL_JSON, IMSG_CTL_PING, ping_main,
	    "a round trip to a worker" },
	{ "stream-test", "MiB [journal|client]",
	    USAGE_NEXT, 0, FAIL_JSON, IMSG_CTL_STREAM_TEST, stream_test_main,
	    "send MiB through the stream table, for the tests" },
	{ "verbose", "level",
	    USAGE_LINE, 0, FAIL_JSON, IMSG_CTL_VERBOSE, verbose_main,
	    "set spaced's own log level, 0 to 3 (not its workers')" },
	{ "create", "[-n name] [-m memory] [-p docker | native] [--code DIR]",
	    USAGE_LINE, 0, FAIL_SPACE, IMSG_CTL_CREATE, space_main,
	    "create a space (and its gatekeeper) on a place, DIR's code in; "
	    "prints its ID" },
	{ "list", "",
	    USAGE_NEXT, 0, FAIL_SPACE, IMSG_CTL_LIST, space_main,
	    "the caller's spaces, one a line" },
	{ "show", "ID",
	    USAGE_LINE, 0, FAIL_SPACE, IMSG_CTL_SHOW, space_main,
	    "one space: state, gatekeeper, readiness of its server, memory" },
	{ "verify", "ID",
	    USAGE_ALIAS, 0, FAIL_SPACE, IMSG_CTL_VERIFY, space_main,
	    "check a space's hardening against what it must be" },
	{ "stop", "ID",
	    USAGE_ALIAS, 0, FAIL_SPACE, IMSG_CTL_STOP, space_main,
	    "stop a space and its gatekeeper" },
	{ "start", "ID",
	    USAGE_ALIAS, 0, FAIL_SPACE, IMSG_CTL_START, space_main,
	    "start a stopped space; waits for its server" },
	{ "remove", "ID",
	    USAGE_ALIAS, 0, FAIL_SPACE, IMSG_CTL_REMOVE, space_main,
	    "remove a space, its gatekeeper, volumes and network" },
	{ "exec", "ID [-g] [-i] [-n] [-t] [-T seconds] -- command [arg ...]",
	    USAGE_LINE, 1, FAIL_JSON, IMSG_CTL_EXEC, exec_main,
	    "run a command inside a space (-t: a terminal; -T: a timeout)" },
	{ "network", "ID allowlist|open [domain ...]",
	    USAGE_LINE, 2, FAIL_JSON, IMSG_CTL_NETWORK, network_main,
	    "the gatekeeper's corridor: an allowlist of domains, or open" },
	{ "grant", "ID GRANT_ID UPSTREAM HEADER < secret",
	    USAGE_LINE, 2, FAIL_JSON, IMSG_CTL_GRANT, grant_main,
	    "a secret header for an upstream, read from stdin, for the window" },
	{ "journal", "ID [-f] [-j] [--since T] [--verify]",
	    USAGE_LINE, 3, FAIL_JSON, IMSG_CTL_JOURNAL, journal_main,
	    "what the space tried to reach (-f: follow; --verify: the chain)" },
	{ "files", "DIR",
	    USAGE_NEXT, 4, FAIL_JSON, IMSG_CTL_FILES, files_main,
	    "which files of DIR would travel into a space" },
	{ "limits", "DIR",
	    USAGE_NEXT, 5, FAIL_JSON, IMSG_CTL_LIMITS, limits_main,
	    "what of DIR arrives incomplete: submodules, Git LFS files" },
	{ "code-in", "ID DIR [--clean]",
	    USAGE_LINE, 6, FAIL_JSON, IMSG_CTL_CODE_IN, codein_main,
	    "bring DIR's code into a space as git objects" },
	{ "history", "ID [DIR]",
	    USAGE_NEXT, 7, FAIL_JSON, IMSG_CTL_HISTORY, history_main,
	    "send the history behind the code brought in (code-in is "
	    "shallow)" },
	{ "server", "ID [-d] [-T type] METHOD PATH",
	    USAGE_LINE, 8, FAIL_JSON, IMSG_CTL_SERVER, server_main,
	    "an HTTP request to the agent's server inside, with its token" },
	{ "token", "ID",
	    USAGE_NEXT, 9, FAIL_JSON, IMSG_CTL_TOKEN, token_main,
	    "the token of the agent's server inside" },
	{ "tools", "[fill] [-a agent]",
	    USAGE_LINE, 10, FAIL_JSON, IMSG_CTL_TOOLS, tools_main,
	    "the agent's tools volume (fill: fill it now)" },
	{ "attach", "ID",
	    USAGE_LINE, 12, FAIL_TEXT, IMSG_CTL_ATTACH, attach_main,
	    "the agent's own screen inside, against its running server" },
	{ "prompt", "ID [-s session] [-T seconds] [text]",
	    USAGE_LINE, 13, FAIL_EVENT, IMSG_CTL_SERVER, prompt_main,
	    "one turn of the agent from here (text from stdin when absent)" },
	{ "sessions", "ID",
	    USAGE_NEXT, 13, FAIL_JSON, IMSG_CTL_SERVER, sessions_main,
	    "the agent server's sessions" },
	{ "events", "[-f] [-j]",
	    USAGE_LINE, 0, FAIL_TEXT, IMSG_CTL_EVENTS, events_main,
	    "what spaced did to the caller's spaces (root: all); -f follows" },
	{ "review", "ID [DIR] [-p]",
	    USAGE_LINE, 14, FAIL_JSON, IMSG_CTL_REVIEW, review_main,
	    "the space's work, checked in its quarantine (-p: the patch)" },
	{ "apply", "ID [DIR] [-b BRANCH | -w] [--allow REASON ...]",
	    USAGE_NEXT, 14, FAIL_JSON, IMSG_CTL_APPLY, apply_main,
	    "the checked work into DIR: a branch (spaced/NAME), or -w" },
};

static const char *
default_socket(void)
{
	const char	*dir = getenv("XDG_RUNTIME_DIR");

	if (geteuid() == 0)
		return SPACED_SOCK_DEFAULT;
	if (dir == NULL)
		failed("no_socket", "set XDG_RUNTIME_DIR or use -s");
	if ((size_t)snprintf(env->sc_sockbuf, sizeof(env->sc_sockbuf),
	    "%s/spaced.sock", dir) >= sizeof(env->sc_sockbuf))
		failed("bad_socket_path", "XDG_RUNTIME_DIR is too long");
	return env->sc_sockbuf;
}

/*
 * Standard input, output and error open, on /dev/null where the caller
 * closed one: else the control socket takes the lowest free number, and
 * a command's output (bytes of the space) is written into spaced's
 * control connection as our requests, or our stdin reads the socket.
 * Unable to, we refuse: nothing may run with a socket at 0, 1 or 2.
 */
static void
stdfds_open(void)
{
	int	 fd;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		if (open("/dev/null", O_RDWR) != fd)
			_exit(1);
	}
}

int
main(int argc, char *argv[])
{
	size_t	 i;
	int	 ch;

	stdfds_open();
	if (atexit(out_close) != 0)
		return 1;
	env->sc_cmds = cmds;
	env->sc_ncmds = sizeof(cmds) / sizeof(cmds[0]);
	while ((ch = getopt(argc, argv, "+hjs:")) != -1) {
		switch (ch) {
		case 'h':
			return help_main(1, (char *[]){ "help", NULL });
		case 'j':
			env->sc_json = 1;
			break;
		case 's':
			env->sc_socket = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	for (i = 0; i < env->sc_ncmds; i++)
		if (strcmp(argv[0], cmds[i].cc_name) == 0) {
			env->sc_cmd = &cmds[i];
			/* COMMAND -h: its help, as everywhere else. */
			if (argc > 1 && (strcmp(argv[1], "-h") == 0 ||
			    strcmp(argv[1], "--help") == 0))
				return help_main(2, (char *[]){ "help",
				    argv[0], NULL });
			/* Help reaches no socket, so it needs none. */
			if (env->sc_socket == NULL && cmds[i].cc_type != 0)
				env->sc_socket = default_socket();
			return cmds[i].cc_main(argc, argv);
		}
	fprintf(stderr, "spacectl: no command %s\n", argv[0]);
	usage();
}
