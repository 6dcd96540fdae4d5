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

#ifndef GK_RULES_H
#define GK_RULES_H

/*
 * The gatekeeper's decisions as pure functions: const input, no I/O, no
 * globals.  The program (gatekeeper.c and friends) only asks these; the
 * unit tests in regress/unit/gatekeeper/ call them directly.
 */

#include <sys/types.h>
#include <sys/socket.h>

#include <stddef.h>

#define GK_NAME_MAX		253	/* a DNS name, without the trailing dot */
#define GK_JOURNAL_HOST_MAX	256	/* journal cuts a host to this */
#define GK_JOURNAL_DECISION_MAX	64
#define GK_CORRIDOR_PORT	443
#define GK_ALWAYS_REFUSED	"auth.openai.com"
#define GK_GRANT_ID_MAX		64	/* bytes of [A-Za-z0-9_-] */
#define GK_PATH_REST_MAX	8192	/* a longer window rest is refused */

enum gk_mode {
	GK_MODE_ALLOWLIST = 0,
	GK_MODE_OPEN
};

/* Why a target is refused; the journal decision is gk_refusal_str(). */
enum gk_refusal {
	GK_ALLOW = 0,
	GK_DENY_MALFORMED,		/* "deny:malformed" */
	GK_DENY_NOT_A_NAME,		/* "deny:not-a-name" */
	GK_DENY_PORT,			/* "deny:port" */
	GK_DENY_ALWAYS_REFUSED,		/* "deny:always-refused" */
	GK_DENY_NOT_ON_ALLOWLIST,	/* "deny:not-on-allowlist" */
	GK_DENY_BLOCKED_ADDRESS,	/* "deny:blocked-address" */
};

const char	*gk_refusal_str(enum gk_refusal);

/*
 * A name the corridor takes, and the only thing an allowlist may hold:
 * labels of letters, digits and hyphens (no leading/trailing hyphen, 1-63
 * bytes), at least two labels, the last neither all digits nor starting
 * with 0x (what inet_aton(3) would read as an address), so
 * "example.cafe" is a name and "a.0x1f" and "a.0177" are not; exactly
 * one trailing dot stripped, at most GK_NAME_MAX bytes without it.  On
 * success writes the lowercase name to out (outsz >= GK_NAME_MAX + 1)
 * and returns 0; -1 otherwise.
 */
int	 gk_name_normalize(const char *in, size_t inlen, char *out,
	    size_t outsz);

/*
 * Split a CONNECT request target "host:port" at the last colon.  A
 * bracketed IPv6 literal "[v6]:port" is split after the "]", the host
 * keeping its brackets (so the caller refuses it as not a name, and
 * "[example.com]:443" with it).  Returns 0 and NUL-terminated host and
 * port strings, -1 when the target has no port (no colon, or nothing
 * after it), an empty host, a NUL byte, or does not fit.
 */
int	 gk_split_target(const char *target, size_t len, char *host,
	    size_t hostsz, char *port, size_t portsz);

/* 1 when port is written exactly "443", else 0. */
int	 gk_port_ok(const char *port);

/* An allowlist: normalized names, sorted for bsearch. */
struct gk_allowlist {
	char		**al_names;
	size_t		  al_count;
};
/* Exact match of a normalized name; NULL or empty list matches nothing. */
int	 gk_allowlist_has(const struct gk_allowlist *, const char *name);
/* Sort al_names (strcmp order) so gk_allowlist_has can bsearch them. */
void	 gk_allowlist_sort(struct gk_allowlist *);

/*
 * Every rule that needs no lookup, in order: split (malformed), name
 * (not-a-name), port, always refused, allowlist (in allowlist mode).  On
 * GK_ALLOW the normalized name is in name (GK_NAME_MAX + 1 bytes); on a
 * refusal name is the empty string.  The host for the journal, cut to
 * GK_JOURNAL_HOST_MAX, is the caller's.
 */
enum gk_refusal gk_refuse_target(const char *target, size_t len,
	    enum gk_mode, const struct gk_allowlist *, char *name,
	    size_t namesz);

/*
 * 1 when the address is in a blocked range: every IPv4 range of the
 * spec; any IPv6 address outside 2000::/3 (which takes in the spec's
 * ::, ::1, fc00::/7, fe80::/10, ff00::/8, and refuses ::ffff:0:0/96,
 * 64:ff9b::/96, 64:ff9b:1::/48 and fec0::/10 whole); Teredo 2001::/32
 * whole; 2002::/16 when the IPv4 in it is blocked.  A family other than
 * AF_INET and AF_INET6 is blocked.  0 when allowed.
 */
int	 gk_addr_blocked(const struct sockaddr *);

/*
 * From the answers of one lookup: GK_DENY_BLOCKED_ADDRESS when any is
 * blocked; otherwise GK_ALLOW with *chosen the index of the first IPv4
 * answer, or of the first answer when there is none.  n == 0 is
 * GK_DENY_MALFORMED (the caller journals it as unresolved).
 */
enum gk_refusal gk_choose_address(const struct sockaddr_storage *answers,
	    size_t n, size_t *chosen);

/*
 * The window's path rule on <rest> of /model/<grant>/<rest>: decode
 * %XX until a round decodes to itself; at every round, split on / \ ; ? #
 * and refuse a ".." segment.  1 when it walks out, will not decode (a
 * bad escape; so is a literal '%' sent as "%25"), holds a NUL (raw or
 * decoded) or is longer than GK_PATH_REST_MAX; 0 when it stays inside.
 */
int	 gk_path_walks_out(const char *rest, size_t len);

/*
 * The one rule for a grant id, asked by the control channel before it
 * takes a grant and by gk_window_split before it routes one, so that no
 * grant is taken that the window could never reach: 1 to
 * GK_GRANT_ID_MAX bytes of [A-Za-z0-9_-], compared exactly (case
 * matters).  1 when id is one, else 0.
 */
int	 gk_grant_id_ok(const char *id, size_t len);

/*
 * Split a window path "/model/<grant id>/<rest>".  The id is one that
 * gk_grant_id_ok takes, and the slash after it is
 * required ("/model/<id>" alone is -1).  Returns 0 with the id copied
 * to id (NUL-terminated) and *rest pointing into path (the part after
 * the id's slash, may be empty); -1 when the path is not of that shape
 * or the id does not fit.
 */
int	 gk_window_split(const char *path, size_t len, char *id, size_t idsz,
	    const char **rest, size_t *restlen);

#endif /* GK_RULES_H */
