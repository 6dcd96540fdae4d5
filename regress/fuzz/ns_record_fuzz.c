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
 * The native place's records under its state directory
 * (worker-ns/ns_record.c), on any bytes the files could hold: the input
 * is a space's record file (read at most RECORD_MAX), and its first 63
 * bytes a pid file.  Invariants: a record read has every string ended
 * in its field, its id the one asked for, its numbers within their caps,
 * and written back it reads back the same; a pid read is 0 or above 1.
 * fuzz-link: worker-ns/ns_record.c common/proto/labels.c common/lib/log.c
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/proto/labels.h"
#include "common/proto/place_proto.h"
#include "worker-ns/ns.h"

#define ID	"0123456789ab"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char	 state[64];

/* spaced-ns's -s, which proc.c holds in the program. */
const char *
worker_store(void)
{
	return state;
}

static void
put(const char *leaf, const uint8_t *data, size_t size)
{
	char	 path[PATH_MAX];
	int	 fd;

	snprintf(path, sizeof(path), "%s/%s/%s", state, ID, leaf);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) == -1 ||
	    (size > 0 && write(fd, data, size) != (ssize_t)size) ||
	    close(fd) == -1)
		abort();
}

/* The state directory goes with the process (libFuzzer ends by exit). */
static void
cleanup(void)
{
	ns_rm_tree(state);
}

static int
ended(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int	 ready;
	struct ns_space	 ns, again;
	char		 dir[PATH_MAX];
	pid_t		 pid;

	if (!ready) {
		strlcpy(state, "/tmp/ns_record_fuzz.XXXXXX", sizeof(state));
		if (mkdtemp(state) == NULL)
			abort();
		snprintf(dir, sizeof(dir), "%s/%s", state, ID);
		if (mkdir(dir, 0700) == -1)
			abort();
		atexit(cleanup);
		ready = 1;
	}
	put("record", data, size);
	if (ns_record_read(ID, &ns) == 0) {
		if (!ended(ns.ns_id, sizeof(ns.ns_id)) ||
		    strcmp(ns.ns_id, ID) != 0 ||
		    !ended(ns.ns_owner, sizeof(ns.ns_owner)) ||
		    !ended(ns.ns_name, sizeof(ns.ns_name)) ||
		    !ended(ns.ns_project, sizeof(ns.ns_project)) ||
		    !ended(ns.ns_created, sizeof(ns.ns_created)) ||
		    ns.ns_memory > HARDEN_MEMORY_MAX || ns.ns_cpus < 0 ||
		    ns.ns_port > 65535)
			abort();
		/* What was taken is what the writer keeps. */
		if (ns_record_write(&ns) != 0 ||
		    ns_record_read(ID, &again) != 0 ||
		    memcmp(&ns, &again, sizeof(ns)) != 0)
			abort();
	}
	/* A bad id never reaches a path. */
	if (ns_record_read("../" ID, &ns) != -1)
		abort();
	put("pid", data, size > 63 ? 63 : size);
	pid = ns_pid_read(ID, "pid");
	if (pid != 0 && pid <= 1)
		abort();
	return 0;
}
