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
 * The pure checks of the space operations (common/proto/space_parse.c):
 * what spacectl takes as a memory size, what spaced takes as a struct
 * ctl_space, and which error codes a place may answer.
 */

#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "common/proto/space_parse.h"

static uint64_t
mem(const char *s)
{
	const char	*errstr = "unset";
	uint64_t	 v = 0;

	cr_assert_eq(space_memory_parse(s, &v, &errstr), 0, "%s: %s", s,
	    errstr);
	cr_assert_null(errstr);
	return v;
}

static const char *
mem_bad(const char *s)
{
	const char	*errstr = NULL;
	uint64_t	 v = 42;

	cr_assert_eq(space_memory_parse(s, &v, &errstr), -1, "took %s", s);
	cr_assert_eq(v, 42, "%s: wrote the result", s);
	cr_assert_not_null(errstr);
	return errstr;
}

Test(memory, units_as_docker_takes_them)
{
	cr_assert_eq(mem("512m"), 512ULL << 20);
	cr_assert_eq(mem("512M"), 512ULL << 20);
	cr_assert_eq(mem("4g"), 4ULL << 30);
	cr_assert_eq(mem("4G"), 4ULL << 30);
	cr_assert_eq(mem("6144k"), 6ULL << 20);
	cr_assert_eq(mem("6144K"), 6ULL << 20);
	cr_assert_eq(mem("1073741824"), 1ULL << 30);
	cr_assert_eq(mem("1073741824b"), 1ULL << 30);
	cr_assert_eq(mem("1073741824B"), 1ULL << 30);
	cr_assert_eq(mem("0004g"), 4ULL << 30);
}

Test(memory, the_limits_are_inclusive)
{
	cr_assert_eq(mem("6m"), 6ULL << 20);
	cr_assert_eq(mem("6291456"), 6291456);
	cr_assert_eq(mem("1024g"), 1ULL << 40);
	cr_assert_eq(mem("1099511627776"), 1ULL << 40);
	cr_assert_str_eq(mem_bad("6291455"), "too small");
	cr_assert_str_eq(mem_bad("5m"), "too small");
	cr_assert_str_eq(mem_bad("0"), "too small");
	cr_assert_str_eq(mem_bad("1099511627777"), "too large");
	cr_assert_str_eq(mem_bad("1025g"), "too large");
}

Test(memory, overflow_is_refused_not_wrapped)
{
	/* 2^64 and beyond, as digits and through a unit. */
	cr_assert_str_eq(mem_bad("18446744073709551616"), "too large");
	cr_assert_str_eq(mem_bad("99999999999999999999999"), "too large");
	cr_assert_str_eq(mem_bad("18014398509481984k"), "too large");
	cr_assert_str_eq(mem_bad("17179869184g"), "too large");
	/* Would wrap to exactly 4 GiB with a 64-bit shift. */
	cr_assert_str_eq(mem_bad("4294967300g"), "too large");
}

Test(memory, junk_is_refused)
{
	static const char *bad[] = {
		"", "g", "m", "-1", "+4g", " 4g", "4g ", "4 g", "4gb", "4GB",
		"4g4", "1.5g", "0x10000000", "4t", "4p", "4e", "4i", "4kk",
		"12x", "4\n",
	};
	size_t	 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_str_eq(mem_bad(bad[i]), "invalid", "%s", bad[i]);
}

static struct ctl_space
space(const char *id, const char *name, const char *project, uint64_t m)
{
	struct ctl_space	 cs;

	memset(&cs, 0, sizeof(cs));
	strlcpy(cs.cs_id, id, sizeof(cs.cs_id));
	strlcpy(cs.cs_name, name, sizeof(cs.cs_name));
	strlcpy(cs.cs_project, project, sizeof(cs.cs_project));
	cs.cs_memory = m;
	return cs;
}

static const char *
refused(const struct ctl_space *cs, int id_wanted)
{
	const char	*errstr = NULL;

	cr_assert_eq(ctl_space_check(cs, id_wanted, &errstr), -1);
	cr_assert_not_null(errstr);
	return errstr;
}

static void
taken(const struct ctl_space *cs, int id_wanted)
{
	const char	*errstr = "unset";

	cr_assert_eq(ctl_space_check(cs, id_wanted, &errstr), 0, "%s",
	    errstr);
	cr_assert_null(errstr);
}

Test(ctl_space, good_requests)
{
	struct ctl_space	 cs;
	size_t			 i;

	cs = space("", "", "", 0);		/* list, a bare create */
	taken(&cs, 0);
	cs = space("", "my space", "0123456789abcdef", 4ULL << 30);
	taken(&cs, 0);
	cs = space("0123456789ab", "", "", 0);	/* show and the others */
	taken(&cs, 1);
	cs = space("", "", "", 6ULL << 20);
	taken(&cs, 0);
	cs = space("", "", "", 1ULL << 40);
	taken(&cs, 0);
	/* 64 bytes of UTF-8: 32 times U+00E9 */
	cs = space("", "", "", 0);
	for (i = 0; i < 64; i += 2)
		memcpy(cs.cs_name + i, "\xc3\xa9", 2);
	taken(&cs, 0);
	/* 64 bytes that are not UTF-8 (a list could not print them) */
	memset(cs.cs_name, 0xc3, 64);
	cr_assert_str_eq(refused(&cs, 0), "bad name");
}

Test(ctl_space, every_string_must_end_in_its_field)
{
	struct ctl_space	 cs;

	cs = space("", "", "", 0);
	memset(cs.cs_id, 'a', sizeof(cs.cs_id));
	cr_assert_str_eq(refused(&cs, 1), "unterminated string");
	cs = space("", "", "", 0);
	memset(cs.cs_name, 'a', sizeof(cs.cs_name));
	cr_assert_str_eq(refused(&cs, 0), "unterminated string");
	cs = space("", "", "", 0);
	memset(cs.cs_project, 'a', sizeof(cs.cs_project));
	cr_assert_str_eq(refused(&cs, 0), "unterminated string");
}

Test(ctl_space, the_id_is_wanted_or_absent)
{
	static const char *bad_ids[] = {
		"", "0123456789a", "0123456789AB", "0123456789ag", "-123456789ab",
		"0123 56789ab",
	};
	struct ctl_space	 cs;
	size_t			 i;

	for (i = 0; i < sizeof(bad_ids) / sizeof(bad_ids[0]); i++) {
		cs = space(bad_ids[i], "", "", 0);
		cr_assert_str_eq(refused(&cs, 1), "bad id", "%s", bad_ids[i]);
	}
	cs = space("0123456789ab", "", "", 0);
	cr_assert_str_eq(refused(&cs, 0), "id given");
}

Test(ctl_space, name_project_memory)
{
	struct ctl_space	 cs;

	cs = space("", "a\x01" "b", "", 0);
	cr_assert_str_eq(refused(&cs, 0), "bad name");
	cs = space("", "a\x7f", "", 0);
	cr_assert_str_eq(refused(&cs, 0), "bad name");
	cs = space("", "", "0123456789abcde", 0);
	cr_assert_str_eq(refused(&cs, 0), "bad project");
	cs = space("", "", "0123456789ABCDEF", 0);
	cr_assert_str_eq(refused(&cs, 0), "bad project");
	cs = space("", "", "", (6ULL << 20) - 1);
	cr_assert_str_eq(refused(&cs, 0), "memory out of range");
	cs = space("", "", "", (1ULL << 40) + 1);
	cr_assert_str_eq(refused(&cs, 0), "memory out of range");
	cs = space("", "", "", UINT64_MAX);
	cr_assert_str_eq(refused(&cs, 0), "memory out of range");
}

Test(codes, a_place_answers_short_lowercase_codes)
{
	char	 full[CTL_CODE_MAX];

	cr_assert(space_code_valid("space_name_taken", CTL_CODE_MAX));
	cr_assert(space_code_valid("e2", CTL_CODE_MAX));
	cr_assert_not(space_code_valid("", CTL_CODE_MAX));
	cr_assert_not(space_code_valid("Bad", CTL_CODE_MAX));
	cr_assert_not(space_code_valid("a-b", CTL_CODE_MAX));
	cr_assert_not(space_code_valid("a b", CTL_CODE_MAX));
	cr_assert_not(space_code_valid("a\n", CTL_CODE_MAX));
	memset(full, 'a', sizeof(full));
	cr_assert_not(space_code_valid(full, sizeof(full)));
	full[sizeof(full) - 1] = '\0';
	cr_assert(space_code_valid(full, sizeof(full)));
}
