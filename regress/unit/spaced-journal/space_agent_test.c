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
 * What a profile makes of a space (common/proto/space_agent.c): the command
 * line the relay starts, its variables, and the shape check a place
 * applies to what spaced sent.
 */

#include <criterion/criterion.h>
#include <string.h>

#include "agent.h"
#include "space_agent.h"

static struct space_agent	 sa;

Test(space_agent, default_profile_command_and_env)
{
	struct agent_profile	 ag;

	agent_profile_default(&ag);
	strlcpy(sa.sa_tools, "spaced-tools-x", sizeof(sa.sa_tools));
	cr_assert_eq(space_agent_build(&ag, &sa), 0);
	cr_assert_str_eq(sa.sa_command,
	    "while [ ! -s /home/space/.spaced-space/token ]; do /bin/sleep 0.2;"
	    " done; OPENCODE_SERVER_PASSWORD=\"$(/bin/cat "
	    "/home/space/.spaced-space/token)\"; export "
	    "OPENCODE_SERVER_PASSWORD; exec opencode serve --hostname "
	    "127.0.0.1 --port 27600");
	cr_assert_eq(sa.sa_nenv, 5);
	cr_assert_str_eq(space_agent_env(&sa, 0),
	    "OPENCODE_DISABLE_MODELS_FETCH=1");
	/* the model's base is the window's place for grant "model" */
	cr_assert(strstr(space_agent_env(&sa, 4), "OPENCODE_CONFIG_CONTENT="
	    "{") == space_agent_env(&sa, 4));
	cr_assert(strstr(space_agent_env(&sa, 4),
	    "\"baseURL\":\"http://gatekeeper:8080/model/model/v1\"") != NULL);
	cr_assert_null(space_agent_env(&sa, 5));
	cr_assert_null(space_agent_check(&sa));
	/* the token itself is in none of it */
	cr_assert_null(strstr(sa.sa_env, "PASSWORD="));
}

Test(space_agent, shapes_a_place_refuses)
{
	struct agent_profile	 ag;
	struct space_agent	 bad;

	agent_profile_default(&ag);
	strlcpy(sa.sa_tools, "spaced-tools-x", sizeof(sa.sa_tools));
	cr_assert_eq(space_agent_build(&ag, &sa), 0);

	memset(&bad, 0, sizeof(bad));
	cr_assert_null(space_agent_check(&bad), "all empty: an idle space");
	bad = sa;
	bad.sa_tools[0] = '\0';
	cr_assert_not_null(space_agent_check(&bad), "an agent without tools");
	bad = sa;
	bad.sa_nenv++;
	cr_assert_not_null(space_agent_check(&bad), "one variable too many");
	bad = sa;
	bad.sa_envlen--;
	cr_assert_not_null(space_agent_check(&bad), "a length short");
	bad = sa;
	memset(bad.sa_command, 'x', sizeof(bad.sa_command));
	cr_assert_not_null(space_agent_check(&bad), "unterminated");
	memset(&bad, 0, sizeof(bad));
	strlcpy(bad.sa_command, "x", sizeof(bad.sa_command));
	cr_assert_not_null(space_agent_check(&bad), "fields without an agent");
}

Test(space_agent, port_in_every_word)
{
	struct agent_profile	 ag;

	agent_profile_default(&ag);
	ag.ag_port = 31337;
	strlcpy(ag.ag_serve[5], "x%py%p", sizeof(ag.ag_serve[5]));
	cr_assert_eq(space_agent_build(&ag, &sa), 0);
	cr_assert(strstr(sa.sa_command, "--port x31337y31337") != NULL);
}

Test(space_agent, a_password_variable_among_the_fixed_ones_is_refused)
{
	struct agent_profile	 ag;

	agent_profile_default(&ag);
	strlcpy(ag.ag_env[ag.ag_nenv++], "OPENCODE_SERVER_PASSWORD=x",
	    sizeof(ag.ag_env[0]));
	cr_assert_not_null(agent_profile_check(&ag));
	cr_assert_eq(space_agent_build(&ag, &sa), -1);
}
