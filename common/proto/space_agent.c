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

#include <stdio.h>
#include <string.h>

#include "space_agent.h"

/* Appends s to buf at *off; -1 when it does not fit. */
static int
put(char *buf, size_t size, size_t *off, const char *s, size_t len)
{
	if (len >= size - *off)
		return -1;
	memcpy(buf + *off, s, len);
	*off += len;
	buf[*off] = '\0';
	return 0;
}

static int
puts_(char *buf, size_t size, size_t *off, const char *s)
{
	return put(buf, size, off, s, strlen(s));
}

/* A serve word with "%p" as the port; words are shell-inert (agent.c). */
static int
put_word(char *buf, size_t size, size_t *off, const char *w, uint16_t port)
{
	char		 num[8];
	const char	*p;

	snprintf(num, sizeof(num), "%u", port);
	while ((p = strstr(w, "%p")) != NULL) {
		if (put(buf, size, off, w, p - w) == -1 ||
		    puts_(buf, size, off, num) == -1)
			return -1;
		w = p + 2;
	}
	return puts_(buf, size, off, w);
}

static int
env_add(struct space_agent *sa, const char *a, const char *b, size_t blen)
{
	size_t	 off = sa->sa_envlen, alen = strlen(a);

	if (alen + blen + 1 > sizeof(sa->sa_env) - off)
		return -1;
	memcpy(sa->sa_env + off, a, alen);
	memcpy(sa->sa_env + off + alen, b, blen);
	sa->sa_env[off + alen + blen] = '\0';
	sa->sa_envlen += alen + blen + 1;
	sa->sa_nenv++;
	return 0;
}

/*
 * The profile's command and variables into sa (its sa_tools is left
 * alone); 0, or -1 when the profile is not valid or a field is short.
 */
int
space_agent_build(const struct agent_profile *ag, struct space_agent *sa)
{
	char		 var[AGENT_ENV_MAX + 2], val[AGENT_TEMPLATE_MAX + 128];
	const char	*u;
	size_t		 off = 0;
	uint32_t	 i;
	int		 n;

	if (agent_profile_check(ag) != NULL)
		return -1;
	strlcpy(sa->sa_name, ag->ag_name, sizeof(sa->sa_name));
	sa->sa_command[0] = '\0';
	sa->sa_nenv = sa->sa_envlen = 0;
	memset(sa->sa_env, 0, sizeof(sa->sa_env));
	/*
	 * Builtins and absolute paths only, but the server itself, which
	 * only the tools volume has (PATH has it last).  The wait ends
	 * when the host's mv put the whole token in place.
	 */
	if (puts_(sa->sa_command, sizeof(sa->sa_command), &off,
	    "while [ ! -s " SPACE_TOKEN_FILE " ]; do /bin/sleep 0.2; done; ")
	    == -1 ||
	    puts_(sa->sa_command, sizeof(sa->sa_command), &off,
	    ag->ag_password_env) == -1 ||
	    puts_(sa->sa_command, sizeof(sa->sa_command), &off,
	    "=\"$(/bin/cat " SPACE_TOKEN_FILE ")\"; export ") == -1 ||
	    puts_(sa->sa_command, sizeof(sa->sa_command), &off,
	    ag->ag_password_env) == -1 ||
	    puts_(sa->sa_command, sizeof(sa->sa_command), &off, "; exec")
	    == -1)
		return -1;
	for (i = 0; i < ag->ag_nserve; i++)
		if (puts_(sa->sa_command, sizeof(sa->sa_command), &off, " ") ==
		    -1 || put_word(sa->sa_command, sizeof(sa->sa_command), &off,
		    ag->ag_serve[i], ag->ag_port) == -1)
			return -1;

	for (i = 0; i < ag->ag_nenv; i++)
		if (env_add(sa, ag->ag_env[i], "", 0) == -1)
			return -1;
	if (ag->ag_model_env[0] != '\0') {
		/* "%u" once: the model grant's base URL at the window */
		u = strstr(ag->ag_model_template, "%u");
		n = snprintf(val, sizeof(val), "%.*s%s%s%s",
		    (int)(u - ag->ag_model_template), ag->ag_model_template,
		    SPACE_WINDOW_URL, SPACE_MODEL_GRANT, u + 2);
		snprintf(var, sizeof(var), "%s=", ag->ag_model_env);
		if (n < 0 || (size_t)n >= sizeof(val) ||
		    env_add(sa, var, val, n) == -1)
			return -1;
	}
	return 0;
}

/*
 * Before the screen: the server answers its ready request, as create's
 * readiness asks it (60 s at most), so that a server the relay starts
 * again after it died is waited for, not failed to connect to.  curl
 * takes the password on stdin from the shell's printf (a builtin): it
 * is in no argv.
 */
static int
attach_wait(const struct agent_profile *ag, char *buf, size_t size,
    size_t *off)
{
	char	 line[512];
	int	 n;

	n = snprintf(line, sizeof(line), "i=0; until %s%s%s%s%s/usr/bin/curl "
	    "--disable --noproxy '*' -s -m 3 -o /dev/null -w '%%{http_code}' %s -X %s "
	    "'http://127.0.0.1:%u%s' | grep -qx %u; do [ $i = 0 ] && echo "
	    "'spaced: waiting for the server of the agent' >&2; "
	    "i=$((i+1)); [ $i -le 120 ] || { echo 'spaced: the server of "
	    "the agent is not ready (spacectl show)' >&2; exit 69; }; "
	    "sleep 0.5; done; ",
	    ag->ag_auth_user[0] != '\0' ? "printf 'user = \"%s:%s\"\\n' '" : "",
	    ag->ag_auth_user, ag->ag_auth_user[0] != '\0' ? "' \"$" : "",
	    ag->ag_auth_user[0] != '\0' ? ag->ag_password_env : "",
	    ag->ag_auth_user[0] != '\0' ? "\" | " : "",
	    ag->ag_auth_user[0] != '\0' ? "-K -" : "",
	    ag->ag_ready_method, (unsigned)ag->ag_port, ag->ag_ready_path,
	    (unsigned)ag->ag_ready_status);
	if (n < 0 || (size_t)n >= sizeof(line))
		return -1;
	return puts_(buf, size, off, line);
}

/*
 * The agent's own screen: a /bin/sh -c line that takes the password from
 * the token file into the profile's variable (never out of the space)
 * and execs the attach words, "%p" the port.  -1 when there is none.
 */
int
space_agent_attach(const struct agent_profile *ag, char *buf, size_t size)
{
	size_t		 off = 0;
	uint32_t	 i;

	if (agent_profile_check(ag) != NULL || ag->ag_nattach == 0 ||
	    size == 0)
		return -1;
	buf[0] = '\0';
	if (puts_(buf, size, &off, "[ -s " SPACE_TOKEN_FILE " ] || { "
	    "echo 'spaced: the space has no server token' >&2; exit 69; }; ")
	    == -1 || puts_(buf, size, &off, ag->ag_password_env) == -1 ||
	    puts_(buf, size, &off, "=\"$(/bin/cat " SPACE_TOKEN_FILE ")\"; "
	    "export ") == -1 ||
	    puts_(buf, size, &off, ag->ag_password_env) == -1 ||
	    puts_(buf, size, &off, "; ") == -1 ||
	    attach_wait(ag, buf, size, &off) == -1 ||
	    puts_(buf, size, &off, "exec") == -1)
		return -1;
	for (i = 0; i < ag->ag_nattach; i++)
		if (puts_(buf, size, &off, " ") == -1 ||
		    put_word(buf, size, &off, ag->ag_attach[i], ag->ag_port) ==
		    -1)
			return -1;
	return 0;
}

const char *
space_agent_env(const struct space_agent *sa, uint32_t i)
{
	const char	*p = sa->sa_env;

	if (i >= sa->sa_nenv)
		return NULL;
	while (i-- > 0)
		p += strlen(p) + 1;
	return p;
}

/*
 * As a place checks what it was sent: all terminated, the counts true,
 * a command only with a tools volume and a name.  NULL or why not.
 */
const char *
space_agent_check(const struct space_agent *sa)
{
	size_t		 off = 0, n;
	uint32_t	 i;

	if (memchr(sa->sa_name, '\0', sizeof(sa->sa_name)) == NULL ||
	    memchr(sa->sa_tools, '\0', sizeof(sa->sa_tools)) == NULL ||
	    memchr(sa->sa_command, '\0', sizeof(sa->sa_command)) == NULL)
		return "unterminated agent field";
	if (sa->sa_name[0] == '\0')
		return sa->sa_tools[0] == '\0' && sa->sa_command[0] == '\0' &&
		    sa->sa_nenv == 0 && sa->sa_envlen == 0 ? NULL :
		    "an agent's fields without an agent";
	if (!agent_name_valid(sa->sa_name) || sa->sa_tools[0] == '\0' ||
	    sa->sa_command[0] == '\0')
		return "an agent without its tools or command";
	if (sa->sa_envlen > sizeof(sa->sa_env) ||
	    sa->sa_nenv > SPACE_AGENT_ENVS_MAX)
		return "bad variables";
	for (i = 0; i < sa->sa_nenv; i++) {
		if (off >= sa->sa_envlen || (n = strnlen(sa->sa_env + off,
		    sa->sa_envlen - off)) == sa->sa_envlen - off ||
		    strchr(sa->sa_env + off, '=') == NULL ||
		    sa->sa_env[off] == '=')
			return "bad variables";
		off += n + 1;
	}
	return off == sa->sa_envlen ? NULL : "bad variables";
}

int
space_token_valid(const char *tok, size_t size)
{
	size_t	 i;

	if (size <= SPACE_TOKEN_LEN || strnlen(tok, size) != SPACE_TOKEN_LEN)
		return 0;
	for (i = 0; i < SPACE_TOKEN_LEN; i++)
		if (!((tok[i] >= 'a' && tok[i] <= 'z') ||
		    (tok[i] >= 'A' && tok[i] <= 'Z') ||
		    (tok[i] >= '0' && tok[i] <= '9') ||
		    tok[i] == '-' || tok[i] == '_'))
			return 0;
	return 1;
}
