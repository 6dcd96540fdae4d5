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
 * The "agent" lines of spaced.conf(5): one setting of one profile a
 * line, "agent NAME SETTING WORD...".  A word is bare, or quoted with
 * " or ' to hold spaces or the other quote.  The first line of a file
 * that names a profile starts it afresh, so a file that names the
 * built-in profile replaces it whole and never inherits half of it.
 * Pure (STYLE.md 18).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "spaced.h"

#define WORDS_MAX	(AGENT_SERVE_MAX + 3)
#define WORD_BUF	(AGENT_TEMPLATE_MAX + 1)

struct words {
	int	 w_n;
	char	 w_v[WORDS_MAX][WORD_BUF];
};

/* Splits p..end into words; -1 with *errstr. */
static int
split(const char *p, const char *end, struct words *w, const char **errstr)
{
	size_t	 n;
	char	 q;

	w->w_n = 0;
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end || *p == '#')
			return 0;
		if (w->w_n == WORDS_MAX) {
			*errstr = "too many words";
			return -1;
		}
		q = (*p == '"' || *p == '\'') ? *p++ : '\0';
		for (n = 0; p < end; p++) {
			if (q != '\0' ? *p == q : (*p == ' ' || *p == '\t' ||
			    *p == '#'))
				break;
			if (q == '\0' && (*p == '"' || *p == '\'')) {
				*errstr = "quote inside word";
				return -1;
			}
			if ((unsigned char)*p < 0x20 || *p == 0x7f) {
				*errstr = "control character in value";
				return -1;
			}
			if (n + 1 >= WORD_BUF) {
				*errstr = "value too long";
				return -1;
			}
			w->w_v[w->w_n][n++] = *p;
		}
		if (q != '\0') {
			if (p == end) {
				*errstr = "unterminated quote";
				return -1;
			}
			p++;
			if (p < end && *p != ' ' && *p != '\t' && *p != '#') {
				*errstr = "text after a quote";
				return -1;
			}
		}
		if (n == 0) {
			*errstr = "empty word";
			return -1;
		}
		w->w_v[w->w_n++][n] = '\0';
	}
}

/* Copies a word that fits, else -1: values are refused, never cut. */
static int
take(char *dst, size_t size, const char *src, int (*valid)(const char *),
    const char **errstr, const char *why)
{
	if (strlen(src) >= size || (valid != NULL && !valid(src))) {
		*errstr = why;
		return -1;
	}
	strlcpy(dst, src, size);
	return 0;
}

static int
user_valid(const char *s)
{
	size_t	 n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_.-");

	return n > 0 && s[n] == '\0';
}

static int
bin_name_valid(const char *s)
{
	return agent_word_valid(s) && s[0] != '.' && strchr(s, '/') == NULL;
}

static int
tarball_valid(const char *s)
{
	return s[0] == '/';
}

static int
package_add(struct agent_profile *ag, const struct words *w, int packed,
    const char **errstr)
{
	struct agent_package	*ap;
	uint32_t		 i;

	if (w->w_n != (packed ? 6 : 5)) {
		*errstr = packed ? "packed takes NAME VERSION PATH" :
		    "package takes NAME VERSION";
		return -1;
	}
	if (ag->ag_npackages == AGENT_PACKAGES_MAX) {
		*errstr = "too many packages";
		return -1;
	}
	for (i = 0; i < ag->ag_npackages; i++)
		if (strcmp(ag->ag_packages[i].ap_name, w->w_v[3]) == 0) {
			*errstr = "package named twice";
			return -1;
		}
	ap = &ag->ag_packages[ag->ag_npackages];
	memset(ap, 0, sizeof(*ap));
	if (take(ap->ap_name, sizeof(ap->ap_name), w->w_v[3],
	    npm_name_valid, errstr, "bad npm package name") == -1 ||
	    take(ap->ap_version, sizeof(ap->ap_version), w->w_v[4],
	    npm_version_valid, errstr,
	    "not an exact version (no range, tag or URL)") == -1 ||
	    (packed && take(ap->ap_tarball, sizeof(ap->ap_tarball),
	    w->w_v[5], tarball_valid, errstr,
	    "tarball path must be absolute and short") == -1))
		return -1;
	ag->ag_npackages++;
	return 0;
}

static int
bin_add(struct agent_profile *ag, const struct words *w, const char **errstr)
{
	struct agent_bin	*ab;
	int			 i;

	if (w->w_n < 4 || w->w_n - 4 > AGENT_ARGS_MAX) {
		*errstr = "binary takes NAME [ARG ...]";
		return -1;
	}
	if (ag->ag_nbins == AGENT_BINS_MAX) {
		*errstr = "too many binaries";
		return -1;
	}
	ab = &ag->ag_bins[ag->ag_nbins];
	memset(ab, 0, sizeof(*ab));
	if (take(ab->ab_name, sizeof(ab->ab_name), w->w_v[3],
	    bin_name_valid, errstr, "bad binary name") == -1)
		return -1;
	for (i = 4; i < w->w_n; i++)
		if (take(ab->ab_args[i - 4], sizeof(ab->ab_args[0]),
		    w->w_v[i], agent_word_valid, errstr,
		    "bad binary argument") == -1)
			return -1;
	ab->ab_nargs = (uint32_t)(w->w_n - 4);
	ag->ag_nbins++;
	return 0;
}

static int
number(const char *s, long long lo, long long hi, long long *v)
{
	const char	*errstr;

	*v = strtonum(s, lo, hi, &errstr);
	return errstr == NULL ? 0 : -1;
}

/* One setting of ag from words 2 and on. */
static int
setting(struct agent_profile *ag, const struct words *w, const char **errstr)
{
	const char	*s = w->w_v[2];
	long long	 v;
	int		 i;

	if (strcmp(s, "package") == 0 || strcmp(s, "packed") == 0)
		return package_add(ag, w, strcmp(s, "packed") == 0,
		    errstr);
	if (strcmp(s, "binary") == 0)
		return bin_add(ag, w, errstr);
	if (strcmp(s, "postinstall") == 0) {
		if (w->w_n == 4 && strcmp(w->w_v[3], "none") == 0) {
			ag->ag_post_package[0] = ag->ag_post_script[0] = '\0';
			return 0;
		}
		if (w->w_n != 5) {
			*errstr = "postinstall takes PACKAGE SCRIPT or none";
			return -1;
		}
		return take(ag->ag_post_package, sizeof(ag->ag_post_package),
		    w->w_v[3], npm_name_valid, errstr,
		    "bad npm package name") == -1 ||
		    take(ag->ag_post_script, sizeof(ag->ag_post_script),
		    w->w_v[4], agent_script_valid, errstr,
		    "script must be a relative path inside the package") ==
		    -1 ? -1 : 0;
	}
	if (strcmp(s, "serve") == 0) {
		if (w->w_n < 4 || w->w_n - 3 > AGENT_SERVE_MAX) {
			*errstr = "serve takes 1 to 16 words";
			return -1;
		}
		for (i = 3; i < w->w_n; i++)
			if (take(ag->ag_serve[i - 3], sizeof(ag->ag_serve[0]),
			    w->w_v[i], agent_word_valid, errstr,
			    "serve words are letters, digits and -._/:=@%+,")
			    == -1)
				return -1;
		ag->ag_nserve = (uint32_t)(w->w_n - 3);
		return 0;
	}
	if (strcmp(s, "attach") == 0) {
		if (w->w_n < 4 || w->w_n - 3 > AGENT_ATTACH_MAX) {
			*errstr = "attach takes 1 to 8 words";
			return -1;
		}
		for (i = 3; i < w->w_n; i++)
			if (take(ag->ag_attach[i - 3], sizeof(ag->ag_attach[0]),
			    w->w_v[i], agent_word_valid, errstr,
			    "attach words are letters, digits and -._/:=@%+,")
			    == -1)
				return -1;
		ag->ag_nattach = (uint32_t)(w->w_n - 3);
		return 0;
	}
	if (strcmp(s, "port") == 0) {
		if (w->w_n != 4 || number(w->w_v[3], 1024, 65535, &v) == -1) {
			*errstr = "port takes a number from 1024 to 65535";
			return -1;
		}
		ag->ag_port = (uint16_t)v;
		return 0;
	}
	if (strcmp(s, "password") == 0) {
		if (w->w_n != 5 || strcmp(w->w_v[3], "env") != 0) {
			*errstr = "password takes env VARIABLE";
			return -1;
		}
		return take(ag->ag_password_env, sizeof(ag->ag_password_env),
		    w->w_v[4], agent_env_valid, errstr,
		    "bad variable name");
	}
	if (strcmp(s, "auth") == 0) {
		if (w->w_n == 4 && strcmp(w->w_v[3], "none") == 0) {
			ag->ag_auth_user[0] = '\0';
			return 0;
		}
		if (w->w_n != 5 || strcmp(w->w_v[3], "basic") != 0) {
			*errstr = "auth takes basic USER or none";
			return -1;
		}
		return take(ag->ag_auth_user, sizeof(ag->ag_auth_user),
		    w->w_v[4], user_valid, errstr, "bad user name");
	}
	if (strcmp(s, "ready") == 0 && w->w_n == 5 &&
	    strcmp(w->w_v[3], "wait") == 0) {
		if (number(w->w_v[4], 1, AGENT_READY_WAIT_MAX, &v) == -1) {
			*errstr = "ready wait takes seconds, 1 to 600";
			return -1;
		}
		ag->ag_ready_wait = (uint16_t)v;
		return 0;
	}
	if (strcmp(s, "ready") == 0) {
		if (w->w_n != 7 || number(w->w_v[5], 100, 599, &v) == -1) {
			*errstr = "ready takes METHOD PATH STATUS FIELD";
			return -1;
		}
		if (take(ag->ag_ready_method, sizeof(ag->ag_ready_method),
		    w->w_v[3], agent_method_valid, errstr,
		    "bad method") == -1 ||
		    take(ag->ag_ready_path, sizeof(ag->ag_ready_path),
		    w->w_v[4], agent_http_path_valid, errstr,
		    "bad path") == -1)
			return -1;
		ag->ag_ready_status = (uint16_t)v;
		/* "-": the status alone says ready. */
		if (strcmp(w->w_v[6], "-") == 0) {
			ag->ag_ready_field[0] = '\0';
			return 0;
		}
		return take(ag->ag_ready_field, sizeof(ag->ag_ready_field),
		    w->w_v[6], agent_field_valid, errstr, "bad field name");
	}
	if (strcmp(s, "model") == 0) {
		if (w->w_n == 4 && strcmp(w->w_v[3], "none") == 0) {
			ag->ag_model_env[0] = ag->ag_model_template[0] = '\0';
			return 0;
		}
		if (w->w_n != 6 || strcmp(w->w_v[3], "env") != 0) {
			*errstr = "model takes env VARIABLE TEMPLATE or none";
			return -1;
		}
		return take(ag->ag_model_env, sizeof(ag->ag_model_env),
		    w->w_v[4], agent_env_valid, errstr,
		    "bad variable name") == -1 ||
		    take(ag->ag_model_template,
		    sizeof(ag->ag_model_template), w->w_v[5],
		    agent_template_valid, errstr,
		    "template must hold %u once and no other %") == -1 ?
		    -1 : 0;
	}
	if (strcmp(s, "env") == 0) {
		if (w->w_n != 4) {
			*errstr = "env takes NAME=value or none";
			return -1;
		}
		if (strcmp(w->w_v[3], "none") == 0) {
			ag->ag_nenv = 0;
			return 0;
		}
		if (ag->ag_nenv == AGENT_ENVS_MAX) {
			*errstr = "too many env lines";
			return -1;
		}
		return take(ag->ag_env[ag->ag_nenv], sizeof(ag->ag_env[0]),
		    w->w_v[3], agent_env_entry_valid, errstr,
		    "bad NAME=value") == -1 ? -1 : (ag->ag_nenv++, 0);
	}
	if (strcmp(s, "revision") == 0) {
		if (w->w_n != 4) {
			*errstr = "revision takes one word";
			return -1;
		}
		return take(ag->ag_revision, sizeof(ag->ag_revision),
		    w->w_v[3], agent_revision_valid, errstr,
		    "bad revision");
	}
	*errstr = "unknown agent setting";
	return -1;
}

int
config_agent_line(const char *p, const char *eol, struct spaced_conf *conf,
    uint32_t *named, const char **errstr)
{
	struct words		*w;
	struct agent_profile	*ag = NULL;
	uint32_t		 i;
	int			 rc = -1;

	/* Words are large (a template each): off the stack. */
	if ((w = malloc(sizeof(*w))) == NULL) {
		*errstr = "out of memory";
		return -1;
	}
	if (split(p, eol, w, errstr) == -1)
		goto done;
	if (w->w_n < 3) {
		*errstr = "agent takes NAME SETTING ...";
		goto done;
	}
	if (!agent_name_valid(w->w_v[1]) || strcmp(w->w_v[1], AGENT_NONE) == 0) {
		*errstr = "bad agent name";
		goto done;
	}
	for (i = 0; i < conf->sc_nagents; i++)
		if (strcmp(conf->sc_agents[i].ag_name, w->w_v[1]) == 0)
			break;
	if (i == conf->sc_nagents) {
		if (i == AGENT_PROFILES_MAX) {
			*errstr = "too many agent profiles";
			goto done;
		}
		conf->sc_nagents++;
	}
	ag = &conf->sc_agents[i];
	if ((*named & (1U << i)) == 0) {
		memset(ag, 0, sizeof(*ag));
		strlcpy(ag->ag_name, w->w_v[1], sizeof(ag->ag_name));
		ag->ag_ready_wait = AGENT_READY_WAIT;
		*named |= 1U << i;
	}
	rc = setting(ag, w, errstr);
 done:
	free(w);
	return rc;
}

int
config_agent_finish(const struct spaced_conf *conf, char *err, size_t errlen)
{
	const char	*why;
	uint32_t	 i;

	for (i = 0; i < conf->sc_nagents; i++)
		if ((why = agent_profile_check(&conf->sc_agents[i])) != NULL) {
			snprintf(err, errlen, "agent %s: %s",
			    conf->sc_agents[i].ag_name, why);
			return -1;
		}
	return 0;
}

const struct agent_profile *
config_agent(const struct spaced_conf *conf, const char *name)
{
	uint32_t	 i;

	for (i = 0; i < conf->sc_nagents && i < AGENT_PROFILES_MAX; i++)
		if (strcmp(conf->sc_agents[i].ag_name, name) == 0)
			return &conf->sc_agents[i];
	return NULL;
}

/* A word as it was read: quoted with the quote it does not hold. */
static void
word_print(int fd, const char *s)
{
	if (strpbrk(s, " \t#\"'") == NULL)
		dprintf(fd, " %s", s);
	else if (strchr(s, '\'') == NULL)
		dprintf(fd, " '%s'", s);
	else
		dprintf(fd, " \"%s\"", s);
}

void
config_agent_print(const struct spaced_conf *conf, int fd)
{
	const struct agent_profile	*ag;
	const struct agent_package	*ap;
	const struct agent_bin		*ab;
	uint32_t			 i, j, k;

	for (i = 0; i < conf->sc_nagents; i++) {
		ag = &conf->sc_agents[i];
		for (j = 0; j < ag->ag_npackages; j++) {
			ap = &ag->ag_packages[j];
			if (ap->ap_tarball[0] == '\0')
				dprintf(fd, "agent %s package %s %s\n",
				    ag->ag_name, ap->ap_name, ap->ap_version);
			else
				dprintf(fd, "agent %s packed %s %s \"%s\"\n",
				    ag->ag_name, ap->ap_name, ap->ap_version,
				    ap->ap_tarball);
		}
		if (ag->ag_post_package[0] != '\0')
			dprintf(fd, "agent %s postinstall %s %s\n",
			    ag->ag_name, ag->ag_post_package,
			    ag->ag_post_script);
		for (j = 0; j < ag->ag_nbins; j++) {
			ab = &ag->ag_bins[j];
			dprintf(fd, "agent %s binary %s", ag->ag_name,
			    ab->ab_name);
			for (k = 0; k < ab->ab_nargs; k++)
				dprintf(fd, " %s", ab->ab_args[k]);
			dprintf(fd, "\n");
		}
		dprintf(fd, "agent %s serve", ag->ag_name);
		for (j = 0; j < ag->ag_nserve; j++)
			dprintf(fd, " %s", ag->ag_serve[j]);
		if (ag->ag_nattach > 0) {
			dprintf(fd, "\nagent %s attach", ag->ag_name);
			for (j = 0; j < ag->ag_nattach; j++)
				dprintf(fd, " %s", ag->ag_attach[j]);
		}
		dprintf(fd, "\nagent %s port %u\n", ag->ag_name, ag->ag_port);
		dprintf(fd, "agent %s password env %s\n", ag->ag_name,
		    ag->ag_password_env);
		if (ag->ag_auth_user[0] != '\0')
			dprintf(fd, "agent %s auth basic %s\n", ag->ag_name,
			    ag->ag_auth_user);
		else
			dprintf(fd, "agent %s auth none\n", ag->ag_name);
		dprintf(fd, "agent %s ready %s %s %u %s\n", ag->ag_name,
		    ag->ag_ready_method, ag->ag_ready_path,
		    ag->ag_ready_status, ag->ag_ready_field[0] != '\0' ?
		    ag->ag_ready_field : "-");
		if (ag->ag_model_env[0] != '\0') {
			dprintf(fd, "agent %s model env %s", ag->ag_name,
			    ag->ag_model_env);
			word_print(fd, ag->ag_model_template);
			dprintf(fd, "\n");
		}
		dprintf(fd, "agent %s ready wait %u\n", ag->ag_name,
		    ag->ag_ready_wait);
		for (j = 0; j < ag->ag_nenv; j++)
			dprintf(fd, "agent %s env %s\n", ag->ag_name,
			    ag->ag_env[j]);
		if (ag->ag_revision[0] != '\0')
			dprintf(fd, "agent %s revision %s\n", ag->ag_name,
			    ag->ag_revision);
	}
}
