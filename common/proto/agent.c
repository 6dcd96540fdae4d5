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
 * Agent profiles: the default one and the checks every value passes,
 * in spaced (when it reads spaced.conf) and again in the worker that
 * receives a profile.  Pure (STYLE.md 18).
 */

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "agent.h"
#include "imsg.h"

/* A profile goes to a worker as one message. */
_Static_assert(sizeof(struct agent_profile) <= IMSG_MAX_PAYLOAD,
    "an agent profile must fit one message");

static int
in_set(int c, const char *set)
{
	return c != '\0' && strchr(set, c) != NULL;
}

#define LOWER	"abcdefghijklmnopqrstuvwxyz"
#define UPPER	"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#define DIGIT	"0123456789"

/* s is 1 to max characters, each of set. */
static int
all_of(const char *s, size_t max, const char *set)
{
	size_t	 n;

	for (n = 0; s[n] != '\0'; n++)
		if (n >= max || !in_set((unsigned char)s[n], set))
			return 0;
	return n > 0;
}

int
agent_name_valid(const char *s)
{
	return in_set(s[0], LOWER) && all_of(s, AGENT_NAME_MAX,
	    LOWER DIGIT "-");
}

/* One part of a package name: npm's "URL-safe", no leading . or _. */
static int
npm_part_valid(const char *s, size_t len)
{
	size_t	 i;

	if (len == 0 || s[0] == '.' || s[0] == '_')
		return 0;
	for (i = 0; i < len; i++)
		if (!in_set((unsigned char)s[i], LOWER DIGIT "-._~"))
			return 0;
	return 1;
}

int
npm_name_valid(const char *s)
{
	const char	*slash;
	size_t		 len = strlen(s);

	if (len == 0 || len > NPM_NAME_MAX)
		return 0;
	if (s[0] != '@')
		return npm_part_valid(s, len);
	if ((slash = strchr(s, '/')) == NULL)
		return 0;
	return npm_part_valid(s + 1, slash - s - 1) &&
	    npm_part_valid(slash + 1, len - (slash - s) - 1);
}

/* A numeric identifier: digits, no leading zero; advances *p. */
static int
semver_num(const char **p)
{
	const char	*s = *p;

	if (!in_set(*s, DIGIT))
		return 0;
	if (*s == '0' && in_set(s[1], DIGIT))
		return 0;
	while (in_set(*s, DIGIT))
		s++;
	*p = s;
	return 1;
}

/* Dot-separated identifiers of [0-9A-Za-z-]; numeric: no leading 0. */
static int
semver_ids(const char **p, int numeric_rule)
{
	const char	*s = *p, *start;
	int		 digits;

	for (;;) {
		start = s;
		digits = 1;
		while (in_set(*s, DIGIT UPPER LOWER "-")) {
			if (!in_set(*s, DIGIT))
				digits = 0;
			s++;
		}
		if (s == start)
			return 0;
		if (numeric_rule && digits && *start == '0' && s - start > 1)
			return 0;
		if (*s != '.')
			break;
		s++;
	}
	*p = s;
	return 1;
}

int
npm_version_valid(const char *s)
{
	const char	*p = s;

	if (strlen(s) > NPM_VERSION_MAX)
		return 0;
	/* MAJOR.MINOR.PATCH: a range, a tag or a URL fails right here. */
	if (!semver_num(&p) || *p++ != '.' || !semver_num(&p) ||
	    *p++ != '.' || !semver_num(&p))
		return 0;
	if (*p == '-') {
		p++;
		if (!semver_ids(&p, 1))
			return 0;
	}
	if (*p == '+') {
		p++;
		if (!semver_ids(&p, 0))
			return 0;
	}
	return *p == '\0';
}

/* No quoting needed in sh, no "$", "`", glob or separator characters. */
int
agent_word_valid(const char *s)
{
	return all_of(s, AGENT_WORD_MAX, UPPER LOWER DIGIT "-._/:=@%+,");
}

/* Parts of names that no variable of a space may carry: a secret's. */
static const char *const agent_secret_words[] = {
	"TOKEN", "SECRET", "PASSWORD", "PASSWD", "KEY", "AUTH", "CREDENTIAL",
	"PRIVATE", "COOKIE", "SESSION", NULL
};

/*
 * Names that hold a word of the list and name no secret: git's identity
 * of the agent's commits ("AUTH" of AUTHOR).  Exact names in git's own
 * case, never a prefix: GIT_AUTH_TOKEN, GIT_AUTHORIZATION stay refused.
 */
static const char *const agent_env_not_secret[] = {
	"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", NULL
};

/* NAME of NAME=value holds one of them, in any case, and is no exception. */
int
agent_env_secret(const char *entry)
{
	size_t	 i, j, w, n = strcspn(entry, "=");

	for (j = 0; agent_env_not_secret[j] != NULL; j++)
		if (strlen(agent_env_not_secret[j]) == n &&
		    strncmp(entry, agent_env_not_secret[j], n) == 0)
			return 0;
	for (i = 0; i < n; i++)
		for (j = 0; agent_secret_words[j] != NULL; j++) {
			w = strlen(agent_secret_words[j]);
			if (w <= n - i && strncasecmp(entry + i,
			    agent_secret_words[j], w) == 0)
				return 1;
		}
	return 0;
}

int
agent_env_entry_valid(const char *s)
{
	char		 name[AGENT_ENV_MAX + 1];
	const char	*eq;

	if (memchr(s, '\0', AGENT_ENV_ENTRY_MAX + 1) == NULL ||
	    (eq = strchr(s, '=')) == NULL || eq == s ||
	    (size_t)(eq - s) > AGENT_ENV_MAX)
		return 0;
	memcpy(name, s, eq - s);
	name[eq - s] = '\0';
	return agent_env_valid(name) && eq[1] != '\0' &&
	    agent_word_valid(eq + 1);
}

int
path_parts_plain(const char *p)
{
	for (;;) {
		size_t	 n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		if (p[n] == '\0')
			return 1;
		p += n + 1;
	}
}

int
agent_script_valid(const char *s)
{
	return all_of(s, AGENT_SCRIPT_MAX, UPPER LOWER DIGIT "-._/") &&
	    s[0] != '/' && path_parts_plain(s);
}

int
agent_env_valid(const char *s)
{
	return in_set(s[0], UPPER "_") && all_of(s, AGENT_ENV_MAX,
	    UPPER DIGIT "_");
}

int
agent_method_valid(const char *s)
{
	return all_of(s, AGENT_METHOD_MAX, UPPER);
}

/* RFC 3986 path and query characters, without quotes or backslash. */
int
agent_http_path_valid(const char *s)
{
	return s[0] == '/' && all_of(s, AGENT_HTTP_PATH_MAX,
	    UPPER LOWER DIGIT "-._~/?=&%:@+!$,;*()");
}

int
agent_field_valid(const char *s)
{
	return all_of(s, AGENT_FIELD_MAX, UPPER LOWER DIGIT "_.-");
}

int
agent_revision_valid(const char *s)
{
	return all_of(s, AGENT_REVISION_MAX, UPPER LOWER DIGIT "_.-");
}

int
agent_template_valid(const char *s)
{
	size_t	 n, u = 0;

	for (n = 0; s[n] != '\0'; n++) {
		if (n >= AGENT_TEMPLATE_MAX || (unsigned char)s[n] < 0x20 ||
		    (unsigned char)s[n] > 0x7e)
			return 0;
		if (s[n] == '%') {
			if (s[n + 1] != 'u')
				return 0;
			u++;
		}
	}
	return u == 1;
}

void
agent_profile_default(struct agent_profile *ag)
{
	memset(ag, 0, sizeof(*ag));
	strlcpy(ag->ag_name, AGENT_DEFAULT_NAME, sizeof(ag->ag_name));
	ag->ag_npackages = 1;
	strlcpy(ag->ag_packages[0].ap_name, AGENT_OPENCODE_PACKAGE,
	    sizeof(ag->ag_packages[0].ap_name));
	strlcpy(ag->ag_packages[0].ap_version, AGENT_OPENCODE_VERSION,
	    sizeof(ag->ag_packages[0].ap_version));
	/*
	 * Its launcher bin/opencode.exe is a stub until postinstall.mjs
	 * links the binary of this CPU and libc (an optional dependency)
	 * into its place; the fill runs it and no other script.
	 */
	strlcpy(ag->ag_post_package, AGENT_OPENCODE_PACKAGE,
	    sizeof(ag->ag_post_package));
	strlcpy(ag->ag_post_script, "postinstall.mjs",
	    sizeof(ag->ag_post_script));
	ag->ag_nbins = 1;
	strlcpy(ag->ag_bins[0].ab_name, "opencode",
	    sizeof(ag->ag_bins[0].ab_name));
	/* The stub exits 1: "--version" proves the link was made. */
	ag->ag_bins[0].ab_nargs = 1;
	strlcpy(ag->ag_bins[0].ab_args[0], "--version",
	    sizeof(ag->ag_bins[0].ab_args[0]));
	ag->ag_nserve = 6;
	strlcpy(ag->ag_serve[0], "opencode", sizeof(ag->ag_serve[0]));
	strlcpy(ag->ag_serve[1], "serve", sizeof(ag->ag_serve[1]));
	strlcpy(ag->ag_serve[2], "--hostname", sizeof(ag->ag_serve[2]));
	strlcpy(ag->ag_serve[3], "127.0.0.1", sizeof(ag->ag_serve[3]));
	strlcpy(ag->ag_serve[4], "--port", sizeof(ag->ag_serve[4]));
	strlcpy(ag->ag_serve[5], "%p", sizeof(ag->ag_serve[5]));
	ag->ag_port = AGENT_DEFAULT_PORT;
	/* Its TUI against the server; the password from the variable. */
	ag->ag_nattach = 3;
	strlcpy(ag->ag_attach[0], "opencode", sizeof(ag->ag_attach[0]));
	strlcpy(ag->ag_attach[1], "attach", sizeof(ag->ag_attach[1]));
	strlcpy(ag->ag_attach[2], "http://127.0.0.1:%p",
	    sizeof(ag->ag_attach[2]));
	strlcpy(ag->ag_password_env, "OPENCODE_SERVER_PASSWORD",
	    sizeof(ag->ag_password_env));
	strlcpy(ag->ag_auth_user, "opencode", sizeof(ag->ag_auth_user));
	strlcpy(ag->ag_ready_method, "GET", sizeof(ag->ag_ready_method));
	strlcpy(ag->ag_ready_path, "/global/health",
	    sizeof(ag->ag_ready_path));
	ag->ag_ready_status = 200;
	ag->ag_ready_wait = AGENT_READY_WAIT;
	strlcpy(ag->ag_ready_field, "healthy", sizeof(ag->ag_ready_field));
	/*
	 * OpenCode reads inline configuration from this variable.  An
	 * OpenAI-compatible provider (its SDK is in the binary) whose base
	 * is the window's place for the grant, no key (the window adds
	 * it), no other provider offered, and every tool allowed: the
	 * space is the sandbox (docs/agent-opencode.md).  The model's id
	 * is the upstream's; "default" until a profile names another.
	 */
	strlcpy(ag->ag_model_env, "OPENCODE_CONFIG_CONTENT",
	    sizeof(ag->ag_model_env));
	strlcpy(ag->ag_model_template, AGENT_OPENCODE_MODEL_TEMPLATE,
	    sizeof(ag->ag_model_template));
	/* The catalog and the update check would spend corridor attempts. */
	ag->ag_nenv = 4;
	strlcpy(ag->ag_env[0], "OPENCODE_DISABLE_MODELS_FETCH=1",
	    sizeof(ag->ag_env[0]));
	strlcpy(ag->ag_env[1], "OPENCODE_DISABLE_AUTOUPDATE=1",
	    sizeof(ag->ag_env[1]));
	/* Nothing a turn needs downloads a language server or shares. */
	strlcpy(ag->ag_env[2], "OPENCODE_DISABLE_LSP_DOWNLOAD=1",
	    sizeof(ag->ag_env[2]));
	strlcpy(ag->ag_env[3], "OPENCODE_DISABLE_SHARE=1",
	    sizeof(ag->ag_env[3]));
}

#define TERM(f)	(memchr((f), '\0', sizeof(f)) != NULL)

static const char *
package_check(const struct agent_package *ap)
{
	if (!TERM(ap->ap_name) || !npm_name_valid(ap->ap_name))
		return "bad package name";
	if (!TERM(ap->ap_version) || !npm_version_valid(ap->ap_version))
		return "version is not exact";
	if (!TERM(ap->ap_tarball) || !TERM(ap->ap_sha256))
		return "unterminated tarball";
	if (ap->ap_tarball[0] != '\0' && ap->ap_tarball[0] != '/')
		return "tarball path must be absolute";
	if (ap->ap_tarball[0] == '\0' && ap->ap_sha256[0] != '\0')
		return "hash without a tarball";
	if (ap->ap_sha256[0] != '\0' && (strlen(ap->ap_sha256) !=
	    SHA256_HEX_LEN || strspn(ap->ap_sha256, DIGIT "abcdef") !=
	    SHA256_HEX_LEN))
		return "bad tarball hash";
	return NULL;
}

/*
 * The whole profile, as a worker receiving it checks it: every string
 * terminated and valid, counts in range, no package twice, the install
 * script's package among the packages.  NULL when fine, else why not.
 */
const char *
agent_profile_check(const struct agent_profile *ag)
{
	const char	*why;
	uint32_t	 i, j;
	size_t		 n;
	int		 post = 0;

	if (!TERM(ag->ag_name) || !agent_name_valid(ag->ag_name))
		return "bad profile name";
	if (ag->ag_npackages == 0 || ag->ag_npackages > AGENT_PACKAGES_MAX)
		return "no package, or too many";
	for (i = 0; i < ag->ag_npackages; i++) {
		if ((why = package_check(&ag->ag_packages[i])) != NULL)
			return why;
		for (j = 0; j < i; j++)
			if (strcmp(ag->ag_packages[i].ap_name,
			    ag->ag_packages[j].ap_name) == 0)
				return "package named twice";
		if (strcmp(ag->ag_packages[i].ap_name,
		    ag->ag_post_package) == 0)
			post = 1;
	}
	if (!TERM(ag->ag_post_package) || !TERM(ag->ag_post_script))
		return "unterminated post-install";
	if (ag->ag_post_package[0] != '\0' &&
	    (!post || !agent_script_valid(ag->ag_post_script)))
		return "post-install not in a listed package";
	if (ag->ag_post_package[0] == '\0' && ag->ag_post_script[0] != '\0')
		return "post-install script without a package";
	if (ag->ag_nbins == 0 || ag->ag_nbins > AGENT_BINS_MAX)
		return "no binary, or too many";
	for (i = 0; i < ag->ag_nbins; i++) {
		const struct agent_bin	*ab = &ag->ag_bins[i];

		if (!TERM(ab->ab_name) || !agent_word_valid(ab->ab_name) ||
		    ab->ab_name[0] == '.' || strchr(ab->ab_name, '/') != NULL)
			return "bad binary name";
		if (ab->ab_nargs > AGENT_ARGS_MAX)
			return "too many binary arguments";
		for (j = 0; j < ab->ab_nargs; j++)
			if (!TERM(ab->ab_args[j]) ||
			    !agent_word_valid(ab->ab_args[j]))
				return "bad binary argument";
	}
	if (ag->ag_nserve == 0 || ag->ag_nserve > AGENT_SERVE_MAX)
		return "no serve command, or too long";
	for (i = 0; i < ag->ag_nserve; i++)
		if (!TERM(ag->ag_serve[i]) ||
		    !agent_word_valid(ag->ag_serve[i]))
			return "bad serve word";
	if (ag->ag_nattach > AGENT_ATTACH_MAX)
		return "attach command too long";
	for (i = 0; i < ag->ag_nattach; i++)
		if (!TERM(ag->ag_attach[i]) ||
		    !agent_word_valid(ag->ag_attach[i]))
			return "bad attach word";
	if (ag->ag_port < 1024)
		return "port below 1024";
	if (!TERM(ag->ag_password_env) ||
	    !agent_env_valid(ag->ag_password_env))
		return "bad password variable";
	if (!TERM(ag->ag_auth_user) || (ag->ag_auth_user[0] != '\0' &&
	    !all_of(ag->ag_auth_user, AGENT_USER_MAX,
	    UPPER LOWER DIGIT "_.-")))
		return "bad auth user";
	if (!TERM(ag->ag_ready_method) ||
	    !agent_method_valid(ag->ag_ready_method) ||
	    !TERM(ag->ag_ready_path) ||
	    !agent_http_path_valid(ag->ag_ready_path))
		return "bad ready request";
	if (ag->ag_ready_status < 100 || ag->ag_ready_status > 599)
		return "bad ready status";
	if (!TERM(ag->ag_ready_field) || (ag->ag_ready_field[0] != '\0' &&
	    !agent_field_valid(ag->ag_ready_field)))
		return "bad ready field";
	if (!TERM(ag->ag_model_env) || !TERM(ag->ag_model_template))
		return "unterminated model setting";
	if (ag->ag_model_env[0] != '\0' &&
	    (!agent_env_valid(ag->ag_model_env) ||
	    !agent_template_valid(ag->ag_model_template)))
		return "bad model setting";
	if (ag->ag_model_env[0] == '\0' && ag->ag_model_template[0] != '\0')
		return "model template without a variable";
	if (!TERM(ag->ag_revision) || (ag->ag_revision[0] != '\0' &&
	    !agent_revision_valid(ag->ag_revision)))
		return "bad revision";
	if (ag->ag_ready_wait == 0 || ag->ag_ready_wait > AGENT_READY_WAIT_MAX)
		return "bad ready wait";
	if (ag->ag_nenv > AGENT_ENVS_MAX)
		return "too many variables";
	for (i = 0; i < ag->ag_nenv; i++) {
		n = strcspn(ag->ag_env[i], "=");
		if (!agent_env_entry_valid(ag->ag_env[i]))
			return "bad variable";
		/* The password is the command's to export, from the file. */
		if (n == strlen(ag->ag_password_env) &&
		    strncmp(ag->ag_env[i], ag->ag_password_env, n) == 0)
			return "the password variable is set from the token";
		/* spaced -n says what every create's checker would. */
		if (agent_env_secret(ag->ag_env[i]))
			return "a variable's name looks like a secret";
	}
	return NULL;
}
