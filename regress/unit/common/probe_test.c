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
 * sandbox_probe: every probe works unconfined (the positive control
 * spacectl probe relies on), and a confined probe either returns an
 * error or dies by SIGSYS, never "worked".
 */

#include <errno.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "proto.h"
#include "sandbox.h"
#include "sbt.h"

static int	 probe_call;

static int
try_probe(void)
{
	return sandbox_probe(probe_call) == -1 ? errno : 0;
}

static const int all_probes[] = {
	PROBE_EXECVE, PROBE_OPEN, PROBE_SOCKET, PROBE_CONNECT, PROBE_FORK
};

Test(probe, each_probe_works_unconfined)
{
	size_t i;

	for (i = 0; i < sizeof(all_probes) / sizeof(all_probes[0]); i++) {
		probe_call = all_probes[i];
		SBT_EXITS(NULL, try_probe, 0);
	}
}

Test(probe, each_probe_is_refused_in_a_stdio_worker)
{
	struct sandbox_spec spec = sbt_seccomp_spec(SB_STDIO | SB_RECVFD |
	    SB_SENDFD, NULL);
	size_t i;
	int st;

	spec.sb_landlock_optional = sandbox_landlock_abi() == 0;
	for (i = 0; i < sizeof(all_probes) / sizeof(all_probes[0]); i++) {
		probe_call = all_probes[i];
		st = sbt_run(&spec, try_probe);
		cr_assert(sbt_sigsys(st) || (sbt_exit(st) > 0 &&
		    sbt_exit(st) != SBT_BROKEN), "probe %d: %s", probe_call,
		    sbt_describe(st));
	}
	/* Path lookups are refused softly, the rest kills. */
	probe_call = PROBE_OPEN;
	SBT_EXITS(&spec, try_probe, EACCES);
	probe_call = PROBE_FORK;
	SBT_KILLED(&spec, try_probe);
}

Test(probe, unknown_probe_is_einval)
{
	cr_assert_eq(sandbox_probe(0), -1);
	cr_assert_eq(errno, EINVAL);
}
