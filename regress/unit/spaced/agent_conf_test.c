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

/* spaced.conf(5) "agent" profiles: the grammar and what it refuses. */

#include <criterion/criterion.h>
#include <string.h>

#include "supervisor/spaced/spaced.h"

static int
parse(const char *text, struct spaced_conf *c, char *err, size_t errlen)
{
	config_defaults(c, 0, NULL, NULL);
	return config_parse(text, strlen(text), c, err, errlen);
}

#define FULL(n) \
	"agent " n " package @acme/agent 2.0.1\n" \
	"agent " n " binary acme\n" \
	"agent " n " serve acme-server --listen 127.0.0.1:%p\n" \
	"agent " n " port 31000\n" \
	"agent " n " password env ACME_TOKEN\n" \
	"agent " n " ready GET /healthz 204 -\n"

Test(agent_conf, default_profile_is_opencode)
{
	struct spaced_conf		 c;
	const struct agent_profile	*ag;
	char				 err[128];

	cr_assert_eq(parse("", &c, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(c.sc_agent, "opencode");
	cr_assert_not_null(ag = config_agent(&c, "opencode"));
	cr_assert_null(agent_profile_check(ag));
	cr_assert_str_eq(ag->ag_packages[0].ap_name, "opencode-ai");
	cr_assert(npm_version_valid(ag->ag_packages[0].ap_version));
	cr_assert_str_eq(ag->ag_post_script, "postinstall.mjs");
	cr_assert_str_eq(ag->ag_ready_path, "/global/health");
	cr_assert_str_eq(ag->ag_ready_field, "healthy");
	cr_assert_str_eq(ag->ag_auth_user, "opencode");
	cr_assert_str_eq(ag->ag_password_env, "OPENCODE_SERVER_PASSWORD");
	cr_assert_eq(ag->ag_port, 27600);
}

Test(agent_conf, another_agent_needs_no_code)
{
	struct spaced_conf		 c;
	const struct agent_profile	*ag;
	char				 err[128];

	cr_assert_eq(parse(FULL("acme") "default agent acme\n", &c, err,
	    sizeof(err)), 0, "%s", err);
	cr_assert_eq(c.sc_nagents, 2);
	cr_assert_not_null(ag = config_agent(&c, "acme"));
	cr_assert_str_eq(ag->ag_packages[0].ap_name, "@acme/agent");
	cr_assert_str_eq(ag->ag_serve[2], "127.0.0.1:%p");
	cr_assert_eq(ag->ag_ready_status, 204);
	cr_assert_str_eq(ag->ag_ready_field, "");
	cr_assert_str_eq(ag->ag_auth_user, "");
	cr_assert_str_eq(c.sc_agent, "acme");
	/* the built-in one is still there */
	cr_assert_not_null(config_agent(&c, "opencode"));
}

Test(agent_conf, naming_the_builtin_replaces_it_whole)
{
	struct spaced_conf	 c;
	char			 err[128];

	/* Half a profile is refused, never completed from the default. */
	cr_assert_eq(parse("agent opencode package opencode-ai 1.0.0\n", &c,
	    err, sizeof(err)), -1);
	cr_assert(strstr(err, "agent opencode:") != NULL, "%s", err);
	cr_assert_eq(parse(FULL("opencode"), &c, err, sizeof(err)), 0, "%s",
	    err);
	cr_assert_eq(c.sc_agents[0].ag_npackages, 1);
	cr_assert_str_eq(c.sc_agents[0].ag_packages[0].ap_name,
	    "@acme/agent");
	cr_assert_str_eq(c.sc_agents[0].ag_post_package, "");
}

Test(agent_conf, versions_must_be_exact)
{
	static const char	*bad[] = { "^1.2.3", "~1.2.3", ">=1.0.0",
	    "1.x", "1.2", "latest", "v1.2.3", "01.2.3", "1.2.3 || 2.0.0",
	    "*", "https://example.com/a.tgz", "git+ssh://x/y", "file:../a",
	    "1.2.3-01", "1.2.3-", "1.2.3+", "1.2.3-a..b", "" };
	static const char	*good[] = { "0.0.0", "1.18.33", "10.20.30",
	    "1.0.0-alpha.1", "1.0.0-0.3.7", "1.0.0+build.01", "1.0.0-x-y" };
	size_t			 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert(!npm_version_valid(bad[i]), "%s", bad[i]);
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		cr_assert(npm_version_valid(good[i]), "%s", good[i]);
}

Test(agent_conf, package_names)
{
	cr_assert(npm_name_valid("opencode-ai"));
	cr_assert(npm_name_valid("@opencode-ai/plugin"));
	cr_assert(!npm_name_valid("Opencode"));
	cr_assert(!npm_name_valid(".hidden"));
	cr_assert(!npm_name_valid("_x"));
	cr_assert(!npm_name_valid("@scope"));
	cr_assert(!npm_name_valid("@/x"));
	cr_assert(!npm_name_valid("a/b"));
	cr_assert(!npm_name_valid("../x"));
	cr_assert(!npm_name_valid("a b"));
}

Test(agent_conf, refusals_name_their_line)
{
	static const char	*bad[] = {
		"agent opencode package opencode-ai ^1.0.0\n",
		"agent opencode package opencode-ai latest\n",
		"agent opencode package opencode-ai https://x/y.tgz\n",
		"agent opencode packed opencode-ai 1.0.0 rel/a.tgz\n",
		"agent opencode postinstall opencode-ai ../evil.js\n",
		"agent opencode postinstall opencode-ai /abs.js\n",
		"agent opencode serve 'opencode; rm -rf /'\n",
		"agent opencode serve op$(id)\n",
		"agent opencode port 80\n",
		"agent opencode port 70000\n",
		"agent opencode password env lower\n",
		"agent opencode ready GET health 200 ok\n",
		"agent opencode ready get /h 200 ok\n",
		"agent opencode ready GET /h 999 ok\n",
		"agent opencode ready GET /h\"x 200 ok\n",
		"agent opencode model env X 'no placeholder'\n",
		"agent opencode model env X '%u and %u'\n",
		"agent opencode model env X '%s %u'\n",
		"agent opencode binary ../bin\n",
		"agent opencode binary a/b\n",
		"agent Bad package a 1.0.0\n",
		"agent opencode unknown x\n",
		"agent opencode\n",
		"agent opencode revision 'a b'\n",
		"agent opencode serve \"unterminated\n",
		"default agent nosuch\n",
		"tools ca bundle relative.pem\n",
	};
	struct spaced_conf	 c;
	char			 err[128];
	size_t			 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(parse(bad[i], &c, err, sizeof(err)), -1, "%s",
		    bad[i]);
		cr_assert(err[0] != '\0');
	}
	/* A line number where there is one. */
	cr_assert_eq(parse("\nagent opencode port 80\n", &c, err,
	    sizeof(err)), -1);
	cr_assert_str_eq(err, "line 2: agent: port takes a number from "
	    "1024 to 65535");
}

/*
 * The password is the space's command's to export, from the token file:
 * a profile that sets it would put it in the container's environment.
 */
Test(agent_conf, password_variable_never_set_by_the_host)
{
	struct spaced_conf	 c;
	char			 err[128];

	/* Control: a variable of another name is taken. */
	cr_assert_eq(parse(FULL("acme") "agent acme env ACME_OTHER=x\n"
	    "default agent acme\n", &c, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(parse(FULL("acme") "agent acme env ACME_TOKEN=x\n"
	    "default agent acme\n", &c, err, sizeof(err)), -1);
	cr_assert(strstr(err, "password") != NULL, "%s", err);
	/* Either order of the lines. */
	cr_assert_eq(parse("agent acme env ACME_TOKEN=x\n" FULL("acme")
	    "default agent acme\n", &c, err, sizeof(err)), -1);
}

/*
 * A variable whose name looks like a secret: every create's checker
 * refuses the space, so spaced -n (and a reload) refuse the file.
 */
Test(agent_conf, secret_looking_variable_refused)
{
	struct spaced_conf	 c;
	char			 err[128];

	cr_assert_eq(parse(FULL("acme") "agent acme env ACME_API_KEY=x\n"
	    "default agent acme\n", &c, err, sizeof(err)), -1);
	cr_assert(strstr(err, "looks like a secret") != NULL, "%s", err);
	cr_assert_eq(parse(FULL("acme") "agent acme env ACME_SESSION_DIR=x\n"
	    "default agent acme\n", &c, err, sizeof(err)), -1);
	/* Control: a name of no secret's word is taken. */
	cr_assert_eq(parse(FULL("acme") "agent acme env ACME_AUTOUPDATE=0\n"
	    "default agent acme\n", &c, err, sizeof(err)), 0, "%s", err);
}

/*
 * git's names of the author of a commit hold "AUTH" and are no secret:
 * a profile names the author of the agent's commits.  The exception is
 * those exact names; every other name of a secret's word stays refused.
 */
Test(agent_conf, author_named_secrets_still_refused)
{
	static const char *const refused[] = {
		"GITHUB_AUTH=x", "X_AUTH_TOKEN=x", "AUTHKEY=x", "OAUTH_TOKEN=x",
		"NPM_AUTH=x", "APIKEY=x", "GIT_TOKEN=x", "GIT_AUTH_TOKEN=x",
		"GIT_AUTHORIZATION=x", "GIT_AUTHOR_TOKEN=x", "GIT_AUTHOR=x",
		"GIT_AUTHOR_NAME_TOKEN=x", "GIT_AUTHOR_NAMEKEY=x",
		"XGIT_AUTHOR_NAME=x", "git_author_name=x", "Git_Author_Email=x",
		"GIT_ASKPASS_PASSWORD=x", "GIT_COMMITTER_TOKEN=x",
		"GIT_HTTP_COOKIEFILE=x", "SSH_PRIVATE=x", "AWS_SECRET=x",
		"SESSION=x", "Session_ID=1", "GIT_CREDENTIAL_HELPER=x",
		"GH_PASSWD=x", "AUTH=x", NULL
	};
	static const char *const taken[] = {
		"GIT_AUTHOR_NAME=Agent", "GIT_AUTHOR_EMAIL=agent@a.invalid",
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_AUTHOR_NAME=",
		"GIT_COMMITTER_NAME=Agent", "GIT_COMMITTER_EMAIL=a@a.invalid",
		"LANG=C.UTF-8", NULL
	};
	struct spaced_conf	 c;
	char			 err[128];
	size_t			 i;

	for (i = 0; refused[i] != NULL; i++)
		cr_expect(agent_env_secret(refused[i]), "taken: %s",
		    refused[i]);
	for (i = 0; taken[i] != NULL; i++)
		cr_expect_not(agent_env_secret(taken[i]), "refused: %s",
		    taken[i]);
	/* What spaced -n and a reload say of a profile naming the author. */
	cr_assert_eq(parse(FULL("acme") "agent acme env GIT_AUTHOR_NAME=Agent\n"
	    "agent acme env GIT_AUTHOR_EMAIL=agent@a.invalid\n"
	    "default agent acme\n", &c, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(c.sc_agents[1].ag_env[1],
	    "GIT_AUTHOR_EMAIL=agent@a.invalid");
	cr_assert_eq(parse(FULL("acme") "agent acme env GIT_AUTH_TOKEN=x\n"
	    "default agent acme\n", &c, err, sizeof(err)), -1);
	cr_assert(strstr(err, "looks like a secret") != NULL, "%s", err);
}

Test(agent_conf, packed_and_revision_and_ca)
{
	struct spaced_conf	 c;
	char			 err[128];

	cr_assert_eq(parse(FULL("acme")
	    "agent acme packed acme-core 2.0.1 \"/var/cache/spaced/acme core.tgz\"\n"
	    "agent acme revision 2\n"
	    "agent acme model env ACME_CONFIG '{\"base\":\"%u\"}'\n"
	    "tools ca bundle /etc/spaced/ca.pem\n", &c, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(c.sc_agents[1].ag_npackages, 2);
	cr_assert_str_eq(c.sc_agents[1].ag_packages[1].ap_tarball,
	    "/var/cache/spaced/acme core.tgz");
	cr_assert_str_eq(c.sc_agents[1].ag_revision, "2");
	cr_assert_str_eq(c.sc_agents[1].ag_model_template,
	    "{\"base\":\"%u\"}");
	cr_assert_str_eq(c.sc_tools_ca, "/etc/spaced/ca.pem");
	/* the same package twice */
	cr_assert_eq(parse(FULL("acme")
	    "agent acme package @acme/agent 2.0.2\n", &c, err, sizeof(err)),
	    -1);
	/* an install script of a package the profile does not install */
	cr_assert_eq(parse(FULL("acme")
	    "agent acme postinstall other x.js\n", &c, err, sizeof(err)), -1);
}

Test(agent_conf, printed_form_reads_back)
{
	struct spaced_conf	 c, d;
	char			 err[128], buf[16384];
	int			 p[2];
	ssize_t			 n;

	cr_assert_eq(parse(FULL("acme")
	    "agent acme model env ACME_CONFIG '{\"base\":\"%u\"}'\n", &c, err,
	    sizeof(err)), 0, "%s", err);
	cr_assert_eq(pipe(p), 0);
	config_print(&c, p[1]);
	close(p[1]);
	n = read(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	cr_assert_gt(n, 0);
	config_defaults(&d, 0, NULL, NULL);
	cr_assert_eq(config_parse(buf, (size_t)n, &d, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(memcmp(c.sc_agents, d.sc_agents, sizeof(c.sc_agents)), 0);
}
