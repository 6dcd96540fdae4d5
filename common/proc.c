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


#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "log.h"
#include "proc.h"

const struct proc procs[PROC_MAX] = {
	[PROC_PARENT] = { PROC_PARENT, "parent", "spaced", NULL, 0 },
	[PROC_DOCKER] = { PROC_DOCKER, "docker", "spaced-docker",
	    "_spaced-docker", 1 },
	[PROC_GIT] = { PROC_GIT, "git", "spaced-git", "_spaced-git", 0 },
	[PROC_JOURNAL] = { PROC_JOURNAL, "journal", "spaced-journal",
	    "_spaced-journal", 1 },
	/* runs inside a gatekeeper container, never under spaced */
	[PROC_GATEKEEPER] = { PROC_GATEKEEPER, "gatekeeper",
	    "spaced-gatekeeper", NULL, 0 },
};

static const char	*store_dir;

const char *
proc_title(enum procid id)
{
	if (id >= PROC_MAX)
		return "unknown";
	return procs[id].p_title;
}

enum procid
proc_by_title(const char *title)
{
	enum procid	 id;

	for (id = 0; id < PROC_MAX; id++)
		if (strcmp(procs[id].p_title, title) == 0)
			return id;
	return PROC_MAX;
}

const char *
worker_store(void)
{
	return store_dir;
}

static void
worker_probe(struct imsgev *iev, struct imsg *imsg)
{
	struct probe_msg	 pm;

	if (imsg_get_data(imsg, &pm, sizeof(pm)) == -1)
		fatalx("%s: bad probe message", __func__);
	log_info("probe: attempting call %u", pm.pr_call);
	/* If the filter forbids the call, the kernel ends us here. */
	pm.pr_errno = sandbox_probe(pm.pr_call) == 0 ? 0 : errno;
	if (pm.pr_errno == 0)
		log_warnx("probe: call %u was allowed", pm.pr_call);
	imsg_compose_event(iev, IMSG_WORKER_PROBE, imsg_get_peerid(imsg),
	    0, -1, &pm, sizeof(pm));
}

/* What Landlock does to this process, for the audit table. */
static void
worker_landlock_describe(const struct sandbox_spec *sb, char *buf,
    size_t len)
{
	int	 abi = sandbox_landlock_abi();

	if (sb->sb_landlock_optional)
		snprintf(buf, len, "not used");
	else if (abi <= 0)
		snprintf(buf, len, "unavailable (kernel)");
	else if (sb->sb_landlock_dir == NULL)
		snprintf(buf, len, "ABI %d, no filesystem", abi);
	else
		snprintf(buf, len, "ABI %d, store only", abi);
}

static void
worker_dispatch_parent(int fd, short event, void *arg)
{
	struct imsgev		*iev = arg;
	const struct worker	*w = iev->data;
	struct imsg		 imsg;
	int			 n;

	if (imsgev_handle(iev, event) == -1) {
		if (errno == 0)
			exit(0);	/* the parent is gone: so are we */
		fatal("%s: channel", __func__);
	}
	for (;;) {
		if ((n = imsgbuf_get(&iev->ibuf, &imsg)) == -1)
			fatal("%s: imsgbuf_get", __func__);
		if (n == 0)
			break;
		switch (imsg_get_type(&imsg)) {
		case IMSG_WORKER_PROBE:
			worker_probe(iev, &imsg);
			break;
		case IMSG_WORKER_PING:
			if (imsg_get_len(&imsg) != 0)
				fatalx("%s: bad ping", __func__);
			imsg_compose_event(iev, IMSG_WORKER_PING,
			    imsg_get_peerid(&imsg), 0, -1, NULL, 0);
			break;
		case IMSG_STREAM_TEST_SEND:
		case IMSG_STREAM_DATA:
		case IMSG_STREAM_CREDIT:
		case IMSG_STREAM_END:
			worker_stream_test(iev, &imsg);
			break;
		default:
			w->w_dispatch(iev, &imsg);
		}
		imsg_free(&imsg);
	}
	imsg_event_add(iev);
}

static __dead void
worker_usage(const char *name)
{
	fprintf(stderr, "usage: %s [-dv] [-u user] [-r root] [-s store]\n"
	    "(started by spaced(8), not by hand)\n", name);
	exit(2);
}

__dead void
worker_main(int argc, char *argv[], const struct worker *w)
{
	struct imsgev		 iev;
	struct event_base	*base;
	struct worker_ready_info wi;
	struct stat		 sb;
	const char		*user = NULL, *root = NULL;
	pid_t			 parent = getppid();
	int			 ch, debug = 0, verbose = 0;

	while ((ch = getopt(argc, argv, "dr:s:u:v")) != -1) {
		switch (ch) {
		case 'd':
			debug = 1;
			break;
		case 'r':
			root = optarg;
			break;
		case 's':
			store_dir = optarg;
			break;
		case 'u':
			user = optarg;
			break;
		case 'v':
			verbose++;
			break;
		default:
			worker_usage(argv[0]);
		}
	}
	if (optind != argc)
		worker_usage(argv[0]);
	/* Refuse to run by hand: the channel must be a socket on fd 3. */
	if (fstat(PROC_PARENT_FD, &sb) == -1 || !S_ISSOCK(sb.st_mode))
		worker_usage(argv[0]);

	log_init(debug, LOG_DAEMON);
	log_setverbose(verbose + debug);
	log_procinit(proc_title(w->w_id));
	signal(SIGPIPE, SIG_IGN);

	if (w->w_prewarm != NULL)
		w->w_prewarm();
	if ((base = event_base_new()) == NULL)
		fatalx("event_base_new");
	/* Seed arc4random now: getrandom may not be allowed later. */
	if (arc4random() == 0)
		log_debug("arc4random seeded");

	sandbox_drop_privileges(user, root);
	/*
	 * A change of credentials clears the parent-death signal that spaced
	 * set before exec; set it again and check the parent did not go in
	 * between.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		fatal("prctl(PR_SET_PDEATHSIG)");
	if (getppid() != parent)
		exit(0);
	if (store_dir != NULL && root == NULL && chdir(store_dir) == -1)
		fatal("chdir %s", store_dir);

	memset(&wi, 0, sizeof(wi));
	wi.wi_pid = getpid();
	/* Asked before the filter, which does not allow the question. */
	worker_landlock_describe(w->w_sandbox, wi.wi_landlock,
	    sizeof(wi.wi_landlock));
	sandbox_enter(w->w_sandbox);

	imsgev_init(&iev, base, PROC_PARENT_FD, worker_dispatch_parent,
	    (void *)w);
	/* The channel carries fds (both ways) only if the filter lets them. */
	if (w->w_sandbox->sb_groups & (SB_RECVFD | SB_SENDFD))
		imsgbuf_allow_fdpass(&iev.ibuf);
	if (imsg_compose_event(&iev, IMSG_WORKER_READY, 0, 0, -1, &wi,
	    sizeof(wi)) == -1)
		fatal("imsg_compose_event");
	log_debug("ready");
	event_base_dispatch(base);
	exit(0);
}
