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
	{ "status", "",
	    USAGE_LINE, 0, FAIL_TEXT, IMSG_CTL_STATUS, status_main },
	{ "privileges", "",
	    USAGE_NEXT, 0, FAIL_TEXT, IMSG_CTL_PRIVILEGES, privileges_main },
	{ "check", "",
	    USAGE_NEXT, 0, FAIL_TEXT, IMSG_CTL_CHECK, check_main },
	{ "probe", "docker|git|journal execve|open|socket|connect|fork",
	    USAGE_LINE, 0, FAIL_TEXT, IMSG_CTL_PROBE, probe_main },
	{ "ping", "docker|git|journal",
	    USAGE_LINE, 0, FAIL_TEXT, IMSG_CTL_PING, ping_main },
	{ "stream-test", "MiB [journal|client]",
	    USAGE_NEXT, 0, FAIL_TEXT, IMSG_CTL_STREAM_TEST, stream_test_main },
	{ "verbose", "level",
	    USAGE_LINE, 0, FAIL_TEXT, IMSG_CTL_VERBOSE, verbose_main },
	{ "create", "[-n name] [-m memory] [--code DIR]",
	    USAGE_LINE, 0, FAIL_SPACE, IMSG_CTL_CREATE, space_main },
	{ "list", "",
	    USAGE_NEXT, 0, FAIL_SPACE, IMSG_CTL_LIST, space_main },
	{ "show", "ID",
	    USAGE_LINE, 0, FAIL_SPACE, IMSG_CTL_SHOW, space_main },
	{ "verify", "ID",
	    USAGE_ALIAS, 0, FAIL_SPACE, IMSG_CTL_VERIFY, space_main },
	{ "stop", "ID",
	    USAGE_ALIAS, 0, FAIL_SPACE, IMSG_CTL_STOP, space_main },
	{ "start", "ID",
	    USAGE_ALIAS, 0, FAIL_SPACE, IMSG_CTL_START, space_main },
	{ "remove", "ID",
	    USAGE_ALIAS, 0, FAIL_SPACE, IMSG_CTL_REMOVE, space_main },
	{ "exec", "ID [-g] [-i] [-n] [-t] [-T seconds] -- command [arg ...]",
	    USAGE_LINE, 1, FAIL_TEXT, IMSG_CTL_EXEC, exec_main },
	{ "network", "ID allowlist|open [domain ...]",
	    USAGE_LINE, 2, FAIL_JSON, IMSG_CTL_NETWORK, network_main },
	{ "grant", "ID GRANT_ID UPSTREAM HEADER < secret",
	    USAGE_LINE, 2, FAIL_JSON, IMSG_CTL_GRANT, grant_main },
	{ "journal", "ID [-f]",
	    USAGE_LINE, 3, FAIL_JSON, IMSG_CTL_JOURNAL, journal_main },
	{ "files", "DIR",
	    USAGE_NEXT, 4, FAIL_JSON, IMSG_CTL_FILES, files_main },
	{ "limits", "DIR",
	    USAGE_NEXT, 5, FAIL_JSON, IMSG_CTL_LIMITS, limits_main },
	{ "code-in", "ID DIR [--clean]",
	    USAGE_LINE, 6, FAIL_JSON, IMSG_CTL_CODE_IN, codein_main },
	{ "history", "ID [DIR]",
	    USAGE_NEXT, 7, FAIL_JSON, IMSG_CTL_HISTORY, history_main },
	{ "server", "ID [-d] [-T type] METHOD PATH",
	    USAGE_LINE, 8, FAIL_JSON, IMSG_CTL_SERVER, server_main },
	{ "token", "ID",
	    USAGE_NEXT, 9, FAIL_JSON, IMSG_CTL_TOKEN, token_main },
	{ "tools", "[fill] [-a agent]",
	    USAGE_LINE, 10, FAIL_JSON, IMSG_CTL_TOOLS, tools_main },
	{ "attach", "ID",
	    USAGE_LINE, 11, FAIL_TEXT, IMSG_CTL_ATTACH, attach_main },
	{ "prompt", "ID [-s session] [-T seconds] [text]",
	    USAGE_LINE, 12, FAIL_JSON, IMSG_CTL_SERVER, prompt_main },
	{ "sessions", "ID",
	    USAGE_NEXT, 12, FAIL_JSON, IMSG_CTL_SERVER, sessions_main },
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

int
main(int argc, char *argv[])
{
	size_t	 i;
	int	 ch;

	env->sc_cmds = cmds;
	env->sc_ncmds = sizeof(cmds) / sizeof(cmds[0]);
	while ((ch = getopt(argc, argv, "+js:")) != -1) {
		switch (ch) {
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
	if (env->sc_socket == NULL)
		env->sc_socket = default_socket();
	for (i = 0; i < env->sc_ncmds; i++)
		if (strcmp(argv[0], cmds[i].cc_name) == 0) {
			env->sc_cmd = &cmds[i];
			return cmds[i].cc_main(argc, argv);
		}
	usage();
}
