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
 * spaced.conf's "native accept missing limits": the names, all and
 * none, and what is refused (an unknown name, one twice, an empty
 * part).
 */

#include <criterion/criterion.h>
#include <string.h>

#include "space_limits.h"
#include "supervisor/spaced/spaced.h"

static int
parse(const char *text, struct spaced_conf *c, char *err, size_t errlen)
{
	config_defaults(c, 0, NULL, NULL);
	return config_parse(text, strlen(text), c, err, errlen);
}

Test(native_accept, default_none)
{
	struct spaced_conf	 c;

	config_defaults(&c, 0, NULL, NULL);
	cr_assert_eq(config_native_accept(&c), 0);
}

Test(native_accept, names_all_and_none)
{
	struct spaced_conf	 c;
	char			 err[256];

	cr_assert_eq(parse("native accept missing limits swap,cpu\n", &c, err,
	    sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_native_accept(&c),
	    SPACE_LIMIT_SWAP | SPACE_LIMIT_CPU);
	cr_assert_eq(parse("native accept missing limits \"all\"\n", &c, err,
	    sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_native_accept(&c), SPACE_LIMITS_ALL);
	cr_assert_eq(parse("native accept missing limits pids\n", &c, err,
	    sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_native_accept(&c), SPACE_LIMIT_PIDS);
	cr_assert_eq(parse("native accept missing limits none\n", &c, err,
	    sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_native_accept(&c), 0);
}

Test(native_accept, refused)
{
	static const char *const bad[] = { "disk", "swap,swap", "swap,",
	    ",cpu", "memory,,cpu", "Memory", "all,cpu", "" };
	struct spaced_conf	 c;
	char			 text[128], err[256];
	size_t			 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text),
		    "native accept missing limits \"%s\"\n", bad[i]);
		cr_assert_eq(parse(text, &c, err, sizeof(err)), -1,
		    "\"%s\" was taken", bad[i]);
	}
}

Test(native_accept, names_by_bit)
{
	cr_assert_str_eq(space_limit_name(SPACE_LIMIT_MEMORY), "memory");
	cr_assert_str_eq(space_limit_name(SPACE_LIMIT_CPU), "cpu");
	cr_assert_null(space_limit_name(SPACE_LIMIT_SWAP | SPACE_LIMIT_CPU));
}
