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
 * The arguments many commands share, checked before anything reaches
 * spaced: a space ID, a project folder.
 */

#include <sys/types.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "labels.h"
#include "spacectl.h"
#include "spacectl_output.h"

/* A project folder that cannot be resolved: which, and why. */
__dead void
folder_failed(const char *dir)
{
	char	 why[PATH_MAX + 128];

	snprintf(why, sizeof(why), "%s: %s", dir, strerror(errno));
	failed("project_folder_missing", why);
}

/*
 * An option's value refused: the value, why, and what is taken (it said
 * "too small" or "invalid" alone, which left the caller to the manual).
 */
__dead void
bad_value(const char *code, const char *opt, const char *value,
    const char *errstr, const char *takes)
{
	char	 why[256];

	snprintf(why, sizeof(why), "%s %.64s is %s: it takes %s", opt, value,
	    errstr, takes);
	failed(code, why);
}

/*
 * A space ID argument into dst, or the failure every command gives for
 * one that is not: checked here, so a bad id never reaches spaced.
 */
void
take_space_id(char *dst, size_t len, const char *id)
{
	check_space_id(id);
	strlcpy(dst, id, len);
}

/* An option where the ID goes (exec -i ID) is told where the ID goes. */
void
check_space_id(const char *id)
{
	if (space_id_valid(id))
		return;
	failed("invalid_space_id", id[0] == '-' ? "an ID is 12 lowercase "
	    "hex characters, and comes before the command's options "
	    "(spacectl help COMMAND)" : "an ID is 12 lowercase hex "
	    "characters");
}
