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
 * The pure checks of the space operations (space_parse.h): what spaced
 * takes from a client and what spacectl takes from a user, so the two
 * refuse the same things.
 */

#include <string.h>

#include "labels.h"
#include "place_proto.h"
#include "space_parse.h"

static int
terminated(const char *s, size_t len)
{
	return memchr(s, '\0', len) != NULL;
}

/*
 * 0 if every string of cs is NUL-terminated within its field, cs_id is
 * a space id when id_wanted and empty otherwise, cs_name is empty or a
 * valid name, cs_project empty or a valid project, and cs_memory 0 or
 * within HARDEN_MEMORY_MIN..HARDEN_MEMORY_MAX.  Else -1 and *errstr
 * says which.
 */
int
ctl_space_check(const struct ctl_space *cs, int id_wanted,
    const char **errstr)
{
	if (!terminated(cs->cs_id, sizeof(cs->cs_id)) ||
	    !terminated(cs->cs_name, sizeof(cs->cs_name)) ||
	    !terminated(cs->cs_project, sizeof(cs->cs_project))) {
		*errstr = "unterminated string";
		return -1;
	}
	if (id_wanted ? !space_id_valid(cs->cs_id) : cs->cs_id[0] != '\0') {
		*errstr = id_wanted ? "bad id" : "id given";
		return -1;
	}
	if (cs->cs_name[0] != '\0' && !space_name_valid(cs->cs_name)) {
		*errstr = "bad name";
		return -1;
	}
	if (cs->cs_project[0] != '\0' && !space_project_valid(cs->cs_project)) {
		*errstr = "bad project";
		return -1;
	}
	if (!terminated(cs->cs_place, sizeof(cs->cs_place)) ||
	    (cs->cs_place[0] != '\0' && strcmp(cs->cs_place, "docker") != 0 &&
	    strcmp(cs->cs_place, "native") != 0)) {
		*errstr = "bad place";
		return -1;
	}
	if (cs->cs_memory != 0 && (cs->cs_memory < HARDEN_MEMORY_MIN ||
	    cs->cs_memory > HARDEN_MEMORY_MAX)) {
		*errstr = "memory out of range";
		return -1;
	}
	*errstr = NULL;
	return 0;
}

/*
 * A size as docker takes it: digits, then an optional unit b, k, m or
 * g (either case; powers of 1024).  Refuses junk, an overflow, and a
 * result outside HARDEN_MEMORY_MIN..HARDEN_MEMORY_MAX; -1 with *errstr
 * "invalid", "too small" or "too large".
 */
int
space_memory_parse(const char *s, uint64_t *bytes, const char **errstr)
{
	uint64_t	 v = 0;
	int		 shift = 0;
	size_t		 n = 0;

	*errstr = "invalid";
	for (; s[n] >= '0' && s[n] <= '9'; n++) {
		if (v > (UINT64_MAX - (uint64_t)(s[n] - '0')) / 10) {
			*errstr = "too large";
			return -1;
		}
		v = v * 10 + (uint64_t)(s[n] - '0');
	}
	if (n == 0)
		return -1;
	switch (s[n]) {
	case '\0':
		break;
	case 'b': case 'B':
		break;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	default:
		return -1;
	}
	if (s[n] != '\0' && s[n + 1] != '\0')
		return -1;
	if (shift > 0 && v > (UINT64_MAX >> shift)) {
		*errstr = "too large";
		return -1;
	}
	v <<= shift;
	if (v < HARDEN_MEMORY_MIN) {
		*errstr = "too small";
		return -1;
	}
	if (v > HARDEN_MEMORY_MAX) {
		*errstr = "too large";
		return -1;
	}
	*bytes = v;
	*errstr = NULL;
	return 0;
}

int
space_code_valid(const char *s, size_t len)
{
	size_t	 i;

	for (i = 0; i < len && s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return i > 0 && i < len;
}
