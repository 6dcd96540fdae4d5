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
 * spaced.conf(5): one setting a line, "keyword [keyword] value", '#'
 * starts a comment, values may be quoted.  Pure: no I/O but config_print.
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_proto.h"
#include "labels.h"
#include "log.h"
#include "space_limits.h"
#include "spaced.h"

#define CONFIG_MAX	(64 * 1024)

void
config_defaults(struct spaced_conf *conf, uid_t uid, const char *runtime_dir,
    const char *state_dir)
{
	memset(conf, 0, sizeof(*conf));
	strlcpy(conf->sc_docker_socket, SPACED_DOCKER_SOCK,
	    sizeof(conf->sc_docker_socket));
	strlcpy(conf->sc_docker_group, SPACED_DOCKER_GROUP,
	    sizeof(conf->sc_docker_group));
	strlcpy(conf->sc_space_image, SPACED_SPACE_IMAGE,
	    sizeof(conf->sc_space_image));
	strlcpy(conf->sc_gk_image, SPACED_GK_IMAGE, sizeof(conf->sc_gk_image));
	strlcpy(conf->sc_space_uids, SPACED_SPACE_UIDS,
	    sizeof(conf->sc_space_uids));
	strlcpy(conf->sc_net_pool, SPACED_NET_POOL, sizeof(conf->sc_net_pool));
	strlcpy(conf->sc_net_size, SPACED_NET_SIZE, sizeof(conf->sc_net_size));
	strlcpy(conf->sc_spaces_max, SPACED_SPACES_PER_OWNER,
	    sizeof(conf->sc_spaces_max));
	strlcpy(conf->sc_disk_limit, SPACED_DISK_LIMIT,
	    sizeof(conf->sc_disk_limit));
	strlcpy(conf->sc_disk_sweep, SPACED_DISK_SWEEP,
	    sizeof(conf->sc_disk_sweep));
	agent_profile_default(&conf->sc_agents[0]);
	conf->sc_nagents = 1;
	strlcpy(conf->sc_agent, AGENT_DEFAULT_NAME, sizeof(conf->sc_agent));
	strlcpy(conf->sc_default_place, "auto", sizeof(conf->sc_default_place));
	strlcpy(conf->sc_native_accept, "none", sizeof(conf->sc_native_accept));
	strlcpy(conf->sc_journal_interval, SPACED_JOURNAL_INTERVAL,
	    sizeof(conf->sc_journal_interval));
	/* What spaced -n prints: every setting's value in force. */
	snprintf(conf->sc_codein_timeout, sizeof(conf->sc_codein_timeout),
	    "%d", CODEIN_TIMEOUT_DEFAULT);
	strlcpy(conf->sc_trust, "host", sizeof(conf->sc_trust));
	if (uid == 0) {
		strlcpy(conf->sc_socket, SPACED_SOCK_ROOT,
		    sizeof(conf->sc_socket));
		strlcpy(conf->sc_state, SPACED_STATE_ROOT,
		    sizeof(conf->sc_state));
		strlcpy(conf->sc_store, SPACED_STORE_ROOT,
		    sizeof(conf->sc_store));
		strlcpy(conf->sc_empty, SPACED_EMPTY_ROOT,
		    sizeof(conf->sc_empty));
		return;
	}
	/* A plain user: no chroot, so no empty directory either. */
	if (runtime_dir != NULL && *runtime_dir == '/')
		snprintf(conf->sc_socket, sizeof(conf->sc_socket),
		    "%s/spaced.sock", runtime_dir);
	if (state_dir != NULL && *state_dir == '/') {
		snprintf(conf->sc_state, sizeof(conf->sc_state),
		    "%s/spaced", state_dir);
		snprintf(conf->sc_store, sizeof(conf->sc_store),
		    "%s/spaced/journal", state_dir);
	}
}

/* Each check returns NULL when the value is fine, else why not. */
static const char *
check_path(const char *v)
{
	return v[0] == '/' ? NULL : "path must be absolute";
}

/* A unix socket: -n refuses what the bind or connect at start would. */
static const char *
check_socket(const char *v)
{
	if (v[0] != '/')
		return "path must be absolute";
	return strlen(v) >= sizeof(((struct sockaddr_un *)0)->sun_path) ?
	    "longer than a unix socket's path holds (107 bytes)" : NULL;
}

static const char *
check_install_id(const char *v)
{
	return install_id_valid(v) ? NULL :
	    "not 16 to 64 lowercase hex characters";
}

/* An image reference: printable ASCII, no space; docker checks the rest. */
static const char *
check_image(const char *v)
{
	for (; *v != '\0'; v++)
		if (*v <= ' ' || *v > '~')
			return "not printable ASCII without spaces";
	return NULL;
}

/* Whole seconds, as code in's request takes them (ctl_proto.h). */
static const char *
check_seconds(const char *v)
{
	const char	*errstr;

	(void)strtonum(v, 1, CODEIN_TIMEOUT_MAX, &errstr);
	return errstr != NULL ? "not a number of seconds from 1 to 3600" :
	    NULL;
}

/* FIRST-LAST, both decimal; 0 or -1 when v is not one. */
static int
uid_range(const char *v, uint32_t *first, uint32_t *last)
{
	const char	*errstr;
	char		 a[16];
	const char	*dash = strchr(v, '-');

	if (dash == NULL || (size_t)(dash - v) >= sizeof(a))
		return -1;
	memcpy(a, v, dash - v);
	a[dash - v] = '\0';
	*first = strtonum(a, 1, UINT32_MAX - 1, &errstr);
	if (errstr != NULL)
		return -1;
	*last = strtonum(dash + 1, 1, UINT32_MAX - 1, &errstr);
	return errstr != NULL || *last < *first ? -1 : 0;
}

/*
 * Never root, a system or account uid, nobody (65534) or the images'
 * own users (10000, 10100), which other spaces' one-shots and every
 * gatekeeper run as.
 */
static const char *
check_uids(const char *v)
{
	uint32_t	 first, last;

	if (uid_range(v, &first, &last) == -1)
		return "not FIRST-LAST, two uids, FIRST at most LAST";
	if (first < 65536)
		return "FIRST below 65536 (accounts and the images' users)";
	return NULL;
}

void
config_space_uids(const struct spaced_conf *conf, uint32_t *first,
    uint32_t *count)
{
	uint32_t	 last;

	if (uid_range(conf->sc_space_uids, first, &last) == -1)
		fatalx("%s: unchecked \"%s\"", __func__, conf->sc_space_uids);
	*count = last - *first + 1;
}

/* An IPv4 network a.b.c.d/p, 8 <= p <= 29, no host bits. */
static int
net_pool(const char *v, uint32_t *base, uint8_t *prefix)
{
	char		 a[INET_ADDRSTRLEN];
	const char	*slash = strchr(v, '/'), *errstr;
	struct in_addr	 in;
	uint32_t	 mask;

	if (slash == NULL || (size_t)(slash - v) >= sizeof(a))
		return -1;
	memcpy(a, v, slash - v);
	a[slash - v] = '\0';
	*prefix = strtonum(slash + 1, 8, 29, &errstr);
	if (errstr != NULL || inet_pton(AF_INET, a, &in) != 1)
		return -1;
	*base = ntohl(in.s_addr);
	mask = 0xffffffffU << (32 - *prefix);
	return (*base & ~mask) != 0 ? -1 : 0;
}

static const char *
check_net_pool(const char *v)
{
	uint32_t	 base;
	uint8_t		 prefix;

	return net_pool(v, &base, &prefix) == -1 ?
	    "not an IPv4 network a.b.c.d/8..29 without host bits" : NULL;
}

static const char *
check_net_size(const char *v)
{
	const char	*errstr;

	(void)strtonum(v, 8, 29, &errstr);
	return errstr != NULL ? "not a prefix length from 8 to 29" : NULL;
}

static const char *
check_spaces_max(const char *v)
{
	const char	*errstr;

	(void)strtonum(v, 1, 10000, &errstr);
	return errstr != NULL ? "not a number from 1 to 10000" : NULL;
}

/* The pool holds 1 to 8192 networks of the size (a bitmap's worth). */
int
config_space_net(const struct spaced_conf *conf, uint32_t *base,
    uint8_t *pool_prefix, uint8_t *prefix)
{
	const char	*errstr;

	if (net_pool(conf->sc_net_pool, base, pool_prefix) == -1)
		return -1;
	*prefix = strtonum(conf->sc_net_size, 8, 29, &errstr);
	return errstr != NULL || *prefix < *pool_prefix ||
	    *prefix - *pool_prefix > 13 ? -1 : 0;
}

uint16_t
config_spaces_max(const struct spaced_conf *conf)
{
	const char	*errstr;
	uint16_t	 n;

	n = strtonum(conf->sc_spaces_max, 1, 10000, &errstr);
	if (errstr != NULL)
		fatalx("%s: unchecked \"%s\"", __func__, conf->sc_spaces_max);
	return n;
}

int
config_journal_interval(const struct spaced_conf *conf)
{
	const char	*errstr;
	int		 n;

	n = strtonum(conf->sc_journal_interval, 1, CODEIN_TIMEOUT_MAX,
	    &errstr);
	if (errstr != NULL)
		fatalx("%s: unchecked \"%s\"", __func__,
		    conf->sc_journal_interval);
	return n;
}

/* N, NK, NM, NG or NT (powers of 1024), at most 1 PiB; "0": off. */
static int
disk_size(const char *v, uint64_t *bytes)
{
	static const char	 units[] = "KMGTkmgt";	/* either case */
	const char		*u, *errstr;
	char			 num[24];
	size_t			 n = strspn(v, "0123456789");
	long long		 x;
	int			 shift = 0;

	if (n == 0 || n >= sizeof(num))
		return -1;
	if (v[n] != '\0') {
		if (v[n + 1] != '\0' || (u = strchr(units, v[n])) == NULL)
			return -1;
		shift = 10 * (int)((u - units) % 4 + 1);
	}
	memcpy(num, v, n);
	num[n] = '\0';
	x = strtonum(num, 0, 1LL << 50, &errstr);
	if (errstr != NULL || (uint64_t)x > (1ULL << 50) >> shift)
		return -1;
	*bytes = (uint64_t)x << shift;
	return 0;
}

static const char *
check_disk_limit(const char *v)
{
	uint64_t	 b;

	return disk_size(v, &b) == -1 || (b != 0 && b < (1ULL << 20)) ?
	    "not 0 or a size from 1M to 1024T (K, M, G, T, either case)" :
	    NULL;
}

static const char *
check_disk_sweep(const char *v)
{
	const char	*errstr;

	(void)strtonum(v, 1, 86400, &errstr);
	return errstr != NULL ? "not a number of seconds from 1 to 86400" :
	    NULL;
}

uint64_t
config_disk_limit(const struct spaced_conf *conf)
{
	uint64_t	 b;

	if (disk_size(conf->sc_disk_limit, &b) == -1)
		fatalx("%s: unchecked \"%s\"", __func__, conf->sc_disk_limit);
	return b;
}

int
config_disk_sweep(const struct spaced_conf *conf)
{
	const char	*errstr;
	int		 n;

	n = strtonum(conf->sc_disk_sweep, 1, 86400, &errstr);
	if (errstr != NULL)
		fatalx("%s: unchecked \"%s\"", __func__, conf->sc_disk_sweep);
	return n;
}

static const char *
check_agent(const char *v)
{
	return agent_name_valid(v) ? NULL :
	    "not a profile name ([a-z][a-z0-9-]*, at most 31)";
}

static const char *
check_trust(const char *v)
{
	return strcmp(v, "host") == 0 || strcmp(v, "images") == 0 ? NULL :
	    "not host or images";
}

/* A group name as groupadd takes it. */
static const char *
check_group(const char *v)
{
	if (*v == '-')
		return "bad group name";
	for (; *v != '\0'; v++)
		if (!isalnum((unsigned char)*v) && *v != '_' && *v != '-' &&
		    *v != '.')
			return "bad group name";
	return NULL;
}

static const char *
check_place(const char *v)
{
	if (strcmp(v, "auto") != 0 && strcmp(v, "docker") != 0 &&
	    strcmp(v, "native") != 0)
		return "not auto, docker or native";
	return NULL;
}

static const char *
check_limits(const char *v)
{
	const char	*errstr;
	uint8_t		 set;

	return space_limits_parse(v, &set, &errstr) == -1 ? errstr : NULL;
}

uint8_t
config_native_accept(const struct spaced_conf *conf)
{
	const char	*errstr;
	uint8_t		 set;

	if (space_limits_parse(conf->sc_native_accept, &set, &errstr) == -1)
		fatalx("%s: unchecked \"%s\"", __func__,
		    conf->sc_native_accept);
	return set;
}

/*
 * live: a reload (SIGHUP) takes the new value, since spaced reads it at
 * each request; the others are read or opened once at start.
 */
static const struct {
	const char	*kw;
	size_t		 off;
	size_t		 size;
	const char	*(*check)(const char *);
	int		 live;
} config_keywords[] = {
#define KW(k, f, c, l)	{ k, offsetof(struct spaced_conf, f), \
			    sizeof(((struct spaced_conf *)0)->f), c, l }
	KW("socket",		sc_socket,		check_socket, 0),
	KW("docker socket",	sc_docker_socket,	check_socket, 0),
	KW("docker group",	sc_docker_group,	check_group, 0),
	KW("state directory",	sc_state,		check_path, 0),
	KW("journal store",	sc_store,		check_path, 0),
	KW("empty directory",	sc_empty,		check_path, 0),
	KW("install id",	sc_install_id,		check_install_id, 0),
	KW("space image",	sc_space_image,		check_image, 0),
	KW("gatekeeper image",	sc_gk_image,		check_image, 1),
	KW("default agent",	sc_agent,		check_agent, 0),
	KW("tools ca bundle",	sc_tools_ca,		check_path, 0),
	KW("space ca bundle",	sc_space_ca,		check_path, 0),
	KW("code in timeout",	sc_codein_timeout,	check_seconds, 1),
	KW("space uid range",	sc_space_uids,		check_uids, 0),
	KW("space network pool", sc_net_pool,		check_net_pool, 0),
	KW("space network size", sc_net_size,		check_net_size, 0),
	KW("spaces per owner",	sc_spaces_max,		check_spaces_max, 1),
	KW("default place",	sc_default_place,	check_place, 1),
	KW("trust",		sc_trust,		check_trust, 0),
	KW("journal interval",	sc_journal_interval,	check_seconds, 1),
	KW("native accept missing limits", sc_native_accept, check_limits, 0),
	KW("space disk limit",	sc_disk_limit,		check_disk_limit, 0),
	KW("space disk sweep",	sc_disk_sweep,		check_disk_sweep, 0),
#undef KW
};
#define NKEYWORDS	(sizeof(config_keywords) / sizeof(config_keywords[0]))
/*
 * "line N: " into err when keyword kw was set on line N of the file (a
 * check after the whole file names it), else "".
 */
static void
config_line(char *err, size_t errlen, const int *lines, const char *kw)
{
	size_t	 i;

	if (errlen > 0)
		err[0] = '\0';
	for (i = 0; i < NKEYWORDS; i++)
		if (strcmp(config_keywords[i].kw, kw) == 0 && lines[i] > 0)
			snprintf(err, errlen, "line %d: ", lines[i]);
}

/* Reads one value: a quoted string or a bare word, to the end of line. */
static int
config_value(const char *p, const char *end, char *out, size_t outsz,
    const char **errstr)
{
	size_t		 n = 0;
	int		 quoted = 0;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && *p == '"') {
		quoted = 1;
		p++;
	}
	for (; p < end; p++) {
		if (quoted && *p == '"')
			break;
		if (!quoted && (*p == ' ' || *p == '\t' || *p == '#'))
			break;
		if (!quoted && *p == '"') {
			*errstr = "quote inside value";
			return -1;
		}
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			*errstr = "control character in value";
			return -1;
		}
		if (n + 1 >= outsz) {
			*errstr = "value too long";
			return -1;
		}
		out[n++] = *p;
	}
	if (quoted) {
		if (p >= end) {
			*errstr = "unterminated quote";
			return -1;
		}
		p++;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && *p != '#') {
		*errstr = "trailing text after value";
		return -1;
	}
	out[n] = '\0';
	if (n == 0) {
		*errstr = "missing value";
		return -1;
	}
	return 0;
}

/*
 * A line no keyword starts: its words up to the value, so a typo is seen
 * at once; 40 bytes at most, a byte that is not printable ASCII as '?'
 * (the error goes to a terminal and the log).
 */
static void
unknown_setting(const char *p, const char *eol, int lineno, char *err,
    size_t errlen)
{
	char	 words[41];
	size_t	 n = 0;

	for (; p < eol && *p != '"' && n < sizeof(words) - 1; p++)
		words[n++] = *p == '\t' ? ' ' : *p >= 0x20 && *p < 0x7f ?
		    *p : '?';
	while (n > 0 && words[n - 1] == ' ')
		n--;
	words[n] = '\0';
	snprintf(err, errlen, "line %d: unknown setting \"%s\"", lineno,
	    words);
}

int
config_parse(const char *buf, size_t len, struct spaced_conf *conf,
    char *err, size_t errlen)
{
	const char	*line = buf, *end = buf + len, *eol, *p, *errstr;
	char		 value[PATH_MAX];
	int		 lines[NKEYWORDS];	/* where each was set; 0 */
	size_t		 i, kwlen;
	uint32_t	 named = 0, base;
	uint8_t		 pool_prefix = 0, prefix;
	int		 lineno = 0;

	if (len > CONFIG_MAX) {
		snprintf(err, errlen, "file larger than %d bytes", CONFIG_MAX);
		return -1;
	}
	memset(lines, 0, sizeof(lines));
	for (; line < end; line = eol + 1) {
		lineno++;
		if ((eol = memchr(line, '\n', end - line)) == NULL)
			eol = end;
		if (memchr(line, '\0', eol - line) != NULL) {
			snprintf(err, errlen, "line %d: NUL byte", lineno);
			return -1;
		}
		for (p = line; p < eol && isspace((unsigned char)*p); p++)
			;
		if (p == eol || *p == '#')
			continue;
		if (eol - p > 5 && strncmp(p, "agent", 5) == 0 &&
		    (p[5] == ' ' || p[5] == '\t')) {
			if (config_agent_line(p, eol, conf, &named,
			    &errstr) == -1) {
				snprintf(err, errlen, "line %d: agent: %s",
				    lineno, errstr);
				return -1;
			}
			if (eol == end)
				break;
			continue;
		}
		for (i = 0; i < NKEYWORDS; i++) {
			kwlen = strlen(config_keywords[i].kw);
			if ((size_t)(eol - p) > kwlen &&
			    strncmp(p, config_keywords[i].kw, kwlen) == 0 &&
			    (p[kwlen] == ' ' || p[kwlen] == '\t'))
				break;
		}
		if (i == NKEYWORDS) {
			unknown_setting(p, eol, lineno, err, errlen);
			return -1;
		}
		/*
		 * Each value is refused, never cut, when it does not fit;
		 * its own rule first, which says the range.
		 */
		if (config_value(p + kwlen, eol, value, sizeof(value),
		    &errstr) == -1 ||
		    (errstr = config_keywords[i].check(value)) != NULL) {
			snprintf(err, errlen, "line %d: %s: %s", lineno,
			    config_keywords[i].kw, errstr);
			return -1;
		}
		if (strlen(value) >= config_keywords[i].size) {
			snprintf(err, errlen, "line %d: %s: value too long "
			    "(at most %zu bytes)", lineno,
			    config_keywords[i].kw, config_keywords[i].size - 1);
			return -1;
		}
		lines[i] = lineno;
		strlcpy((char *)conf + config_keywords[i].off, value,
		    config_keywords[i].size);
		if (eol == end)
			break;
	}
	/* The pool and the size only make sense together. */
	if (config_space_net(conf, &base, &pool_prefix, &prefix) == -1) {
		config_line(err, errlen, lines, "space network size");
		if (err[0] == '\0')
			config_line(err, errlen, lines, "space network pool");
		snprintf(err + strlen(err), errlen - strlen(err), "space "
		    "network size %s: takes %u (the prefix of the pool %s) "
		    "to %u", conf->sc_net_size, (unsigned)pool_prefix,
		    conf->sc_net_pool, pool_prefix + 13 < 29 ?
		    (unsigned)pool_prefix + 13 : 29);
		return -1;
	}
	/* "none": spaces run an idle command and get no tools. */
	if (strcmp(conf->sc_agent, AGENT_NONE) != 0 &&
	    config_agent(conf, conf->sc_agent) == NULL) {
		config_line(err, errlen, lines, "default agent");
		snprintf(err + strlen(err), errlen - strlen(err), "default "
		    "agent %s: no such profile (none, or an agent NAME the "
		    "file defines)", conf->sc_agent);
		return -1;
	}
	/* A profile is whole only once the file is read. */
	return config_agent_finish(conf, err, errlen);
}

/*
 * Trust what the host trusts unless told "trust images": the filler's
 * and the spaces' bundles not named are the host's, when it has one.
 */
void
config_trust(struct spaced_conf *conf, const char *host_ca, int usable)
{
	if (strcmp(conf->sc_trust, "images") == 0 || !usable)
		return;
	if (conf->sc_tools_ca[0] == '\0')
		strlcpy(conf->sc_tools_ca, host_ca, sizeof(conf->sc_tools_ca));
	if (conf->sc_space_ca[0] == '\0')
		strlcpy(conf->sc_space_ca, host_ca, sizeof(conf->sc_space_ca));
}

/* Every setting: those not set (no default) as a comment. */
void
config_print(const struct spaced_conf *conf, int fd)
{
	size_t		 i;
	const char	*v;

	for (i = 0; i < NKEYWORDS; i++) {
		v = (const char *)conf + config_keywords[i].off;
		if (*v != '\0')
			dprintf(fd, "%s \"%s\"\n", config_keywords[i].kw, v);
		else
			dprintf(fd, "# %s: not set\n", config_keywords[i].kw);
	}
	config_agent_print(conf, fd);
}

/*
 * A reload: the live settings of next go into cur; a setting that only
 * a restart changes and that next changes is named in why (its first
 * such keyword) and keeps cur's value.  Returns how many were refused.
 */
int
config_reload(struct spaced_conf *cur, const struct spaced_conf *next,
    char *why, size_t whylen)
{
	size_t		 i;
	const char	*a, *b;
	int		 refused = 0;

	why[0] = '\0';
	for (i = 0; i < NKEYWORDS; i++) {
		a = (const char *)cur + config_keywords[i].off;
		b = (const char *)next + config_keywords[i].off;
		if (strcmp(a, b) == 0)
			continue;
		if (config_keywords[i].live) {
			strlcpy((char *)cur + config_keywords[i].off, b,
			    config_keywords[i].size);
			continue;
		}
		if (refused++ == 0)
			snprintf(why, whylen, "%s", config_keywords[i].kw);
	}
	if (cur->sc_nagents != next->sc_nagents ||
	    memcmp(cur->sc_agents, next->sc_agents,
	    sizeof(cur->sc_agents)) != 0) {
		if (refused++ == 0)
			snprintf(why, whylen, "agent");
	}
	return refused;
}
