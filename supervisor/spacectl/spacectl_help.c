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
 * spacectl's usage and help, both read from the command table: a usage
 * error on stderr (exit 64), help on stdout.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spacectl.h"
#include "spacectl_output.h"

/* The usage list, grouped as the table's rows say, on f. */
static void
usage_list(FILE *f)
{
	const struct ctl_cmd	*c;
	size_t			 i;

	fprintf(f, "usage: spacectl [-hj] [-s socket] command\n");
	for (i = 0; i < env->sc_ncmds; i++) {
		c = &env->sc_cmds[i];
		if (i == 0)
			fprintf(f, "commands: ");
		else if (c->cc_list == USAGE_LINE)
			fprintf(f, " |\n          ");
		else
			fprintf(f, c->cc_list == USAGE_ALIAS ? "|" : " | ");
		fprintf(f, "%s", c->cc_name);
		if (*c->cc_args != '\0' && (i + 1 == env->sc_ncmds ||
		    env->sc_cmds[i + 1].cc_list != USAGE_ALIAS))
			fprintf(f, " %s", c->cc_args);
	}
	fprintf(f, "\n");
}

/* The lines of cmd's group, the first one "usage:", on f. */
static void
usage_group(FILE *f, const struct ctl_cmd *cmd)
{
	const struct ctl_cmd	*c;
	size_t			 i;
	int			 first = 1;

	for (i = 0; i < env->sc_ncmds; i++) {
		c = &env->sc_cmds[i];
		if (c != cmd && (cmd->cc_group == 0 ||
		    c->cc_group != cmd->cc_group))
			continue;
		/* help asks spaced nothing, attach is a screen: no -j. */
		fprintf(f, "%s spacectl %s%s%s%s\n", first ? "usage:" :
		    "      ", c->cc_type == 0 || c->cc_type == IMSG_CTL_ATTACH ?
		    "" : "[-j] ", c->cc_name, *c->cc_args != '\0' ? " " : "",
		    c->cc_args);
		first = 0;
	}
}

/*
 * A usage error: the command's own lines (and its group's), or with no
 * command the whole list, on stderr; exit 64 (EX_USAGE).
 */
__dead void
usage(void)
{
	if (env->sc_cmd == NULL)
		usage_list(stderr);
	else
		usage_group(stderr, env->sc_cmd);
	exit(SPACECTL_USAGE);
}

/* A usage error that says first what was wrong with the arguments. */
__dead void
usage_why(const char *why)
{
	fprintf(stderr, "spacectl: %s\n", why);
	usage();
}

/*
 * help: every command with its line, one a row (the completion reads
 * the names from it), or one command's usage and line; on stdout.
 */
int
help_main(int argc, char *argv[])
{
	const struct ctl_cmd	*c;
	size_t			 i;

	if (argc > 2)
		usage();
	if (argc == 2) {
		for (i = 0; i < env->sc_ncmds; i++)
			if (strcmp(argv[1], env->sc_cmds[i].cc_name) == 0)
				break;
		if (i == env->sc_ncmds) {
			fprintf(stderr, "spacectl: no command %s\n", argv[1]);
			env->sc_cmd = NULL;
			usage();
		}
		c = &env->sc_cmds[i];
		usage_group(stdout, c);
		if (c->cc_help != NULL)
			printf("\n%s: %s\n", c->cc_name, c->cc_help);
		printf("See spacectl(8).\n");
		return 0;
	}
	printf("usage: spacectl [-hj] [-s socket] command [argument ...]\n"
	    "\ncommands:\n");
	for (i = 0; i < env->sc_ncmds; i++) {
		c = &env->sc_cmds[i];
		printf("  %-12s %s\n", c->cc_name, c->cc_help != NULL ?
		    c->cc_help : "");
	}
	printf("\nspacectl help COMMAND shows its arguments; "
	    "see spacectl(8).\n");
	return 0;
}
