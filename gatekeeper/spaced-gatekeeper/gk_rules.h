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

/* The gatekeeper's decisions as pure functions, which the program asks. */

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

int	 gk_name_normalize(const char *in, size_t inlen, char *out,
	    size_t outsz);

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

enum gk_refusal gk_refuse_target(const char *target, size_t len,
	    enum gk_mode, const struct gk_allowlist *, char *name,
	    size_t namesz);

int	 gk_addr_blocked(const struct sockaddr *);

/*
 * From the answers of one lookup: GK_DENY_BLOCKED_ADDRESS when any is
 * blocked; otherwise GK_ALLOW with *chosen the index of the first IPv4
 * answer, or of the first answer when there is none.  n == 0 is
 * GK_DENY_MALFORMED (the caller journals it as unresolved).
 */
enum gk_refusal gk_choose_address(const struct sockaddr_storage *answers,
	    size_t n, size_t *chosen);

int	 gk_path_walks_out(const char *rest, size_t len);

int	 gk_grant_id_ok(const char *id, size_t len);

int	 gk_window_split(const char *path, size_t len, char *id, size_t idsz,
	    const char **rest, size_t *restlen);

#endif /* GK_RULES_H */
