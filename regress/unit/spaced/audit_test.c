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

#include <criterion/criterion.h>
#include <string.h>

#include "supervisor/spaced/spaced.h"

static const char status[] =
    "Name:\tspaced-docker\nUmask:\t0022\nState:\tS (sleeping)\n"
    "Uid:\t999\t999\t999\t999\nGid:\t995\t995\t995\t995\n"
    "CapInh:\t0000000000000000\nCapEff:\t0000000000000000\n"
    "NoNewPrivs:\t1\nSeccomp:\t2\nSeccomp_filters:\t1\n";

Test(audit, parses_status)
{
	struct ctl_privileges	 cv;

	memset(&cv, 0, sizeof(cv));
	cr_assert_eq(audit_parse_status(status, strlen(status), &cv), 0);
	cr_assert_str_eq(cv.cv_uid, "999 999 999 999");
	cr_assert_str_eq(cv.cv_gid, "995 995 995 995");
	cr_assert_str_eq(cv.cv_capeff, "0000000000000000");
	cr_assert_eq(cv.cv_seccomp, 2);
	cr_assert_eq(cv.cv_nnp, 1);
}

Test(audit, refuses_missing_and_junk)
{
	struct ctl_privileges	 cv;
	char			 buf[sizeof(status)];
	char			*p;

	/* Seccomp_filters must not be read as Seccomp. */
	memcpy(buf, status, sizeof(status));
	p = strstr(buf, "Seccomp:\t2\n");
	memcpy(p, "Seccomx", 7);
	cr_assert_eq(audit_parse_status(buf, strlen(buf), &cv), -1);
	memcpy(buf, status, sizeof(status));
	p = strstr(buf, "NoNewPrivs:\t1");
	p[12] = 'x';
	cr_assert_eq(audit_parse_status(buf, strlen(buf), &cv), -1);
	cr_assert_eq(audit_parse_status("", 0, &cv), -1);
}

Test(kmsg, finds_the_seccomp_record_of_a_pid)
{
	static const char rec[] = "6,1234,5678,-;audit: type=1326 "
	    "audit(1.2:3): auid=4294967295 uid=999 gid=995 ses=4294967295 "
	    "pid=4242 comm=\"spaced-docker\" exe=\"/x\" sig=31 "
	    "arch=c000003e syscall=59 compat=0 ip=0x1 code=0x80000000";
	long	 nr = -1;

	cr_assert_eq(kmsg_parse_seccomp(rec, strlen(rec), 4242, &nr), 0);
	cr_assert_eq(nr, 59);
	/* Another pid, a prefix of the pid, another record type. */
	cr_assert_eq(kmsg_parse_seccomp(rec, strlen(rec), 424, &nr), -1);
	cr_assert_eq(kmsg_parse_seccomp(rec, strlen(rec), 42420, &nr), -1);
	cr_assert_eq(kmsg_parse_seccomp("type=1300 pid=4242 syscall=59", 29,
	    4242, &nr), -1);
	cr_assert_eq(kmsg_parse_seccomp("type=1326 pid=4242 syscall=x", 28,
	    4242, &nr), -1);
}
