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
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "log.h"
#include "proc.h"

const struct proc procs[PROC_MAX] = {
	[PROC_PARENT] = { PROC_PARENT, "parent", "spaced", NULL, 0, 0 },
	[PROC_DOCKER] = { PROC_DOCKER, "docker", "spaced-docker",
	    "_spaced-docker", 1, 1 },	/* connected Docker sockets */
	[PROC_GIT] = { PROC_GIT, "git", "spaced-git", "_spaced-git", 1, 0 },
	[PROC_JOURNAL] = { PROC_JOURNAL, "journal", "spaced-journal",
	    "_spaced-journal", 1, 0 },
	/* stays root: it starts spaced-git as each repository's owner */
	[PROC_LAUNCH] = { PROC_LAUNCH, "launch", "spaced-launch", NULL, 0,
	    1 },	/* the channels of the spaced-git it starts */
	/* runs inside a gatekeeper container, never under spaced */
	[PROC_GATEKEEPER] = { PROC_GATEKEEPER, "gatekeeper",
	    "spaced-gatekeeper", NULL, 0, 0 },
	/* stays root: it makes namespaces, groups and mounts */
	[PROC_NS] = { PROC_NS, "ns", "spaced-ns", NULL, 0, 1 },	/* tools' */
	/* spaced-git in a space's quarantine, started by spaced-launch */
	[PROC_QUARANTINE] = { PROC_QUARANTINE, "quarantine", "spaced-git",
	    "_spaced-quarantine", 1, 0 },
};

static const char	*store_dir;
static const char	*serve_dir;
static const char	*conf_file;

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

const char *
worker_dir(void)
{
	return serve_dir;
}

const char *
worker_conf(void)
{
	return conf_file;
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
worker_ping(struct imsgev *iev, struct imsg *imsg)
{
	imsg_compose_event(iev, IMSG_WORKER_PING, imsg_get_peerid(imsg), 0,
	    -1, NULL, 0);
}

static const struct worker	*worker_self;

/* Acknowledged only when something was still held for the request. */
static void
worker_cancel(struct imsgev *iev, struct imsg *imsg)
{
	uint32_t	 id = imsg_get_peerid(imsg);
	int		 held;

	held = worker_stream_test_cancel(id);
	if (worker_self->w_cancel != NULL)
		held |= worker_self->w_cancel(id) > 0;
	if (held)
		imsg_compose_event(iev, IMSG_WORKER_CANCEL, id, 0, -1, NULL,
		    0);
}

static struct {
	uint32_t	 id;
	void		(*handler)(struct imsgev *, struct imsg *, void *);
	void		*arg;
} wstreams[WORKER_STREAMS_MAX];
/*
 * Streams over here: what spaced sent on them before it read our last
 * word may still come (a credit that crossed our END, stdin of an exec
 * whose command ended).  spaced closes a request's streams at its last
 * word, so what comes late was sent while at most its table's 64
 * streams were open, each ending here once: four times that is room.
 */
#define WORKER_STREAMS_ENDED	(4 * WORKER_STREAMS_MAX)
static uint32_t	 wstreams_ended[WORKER_STREAMS_ENDED];
static size_t	 wstreams_ended_next;

int
worker_stream_register(uint32_t id, void (*handler)(struct imsgev *,
    struct imsg *, void *), void *arg)
{
	size_t	 i, free_slot = WORKER_STREAMS_MAX;

	for (i = 0; i < WORKER_STREAMS_MAX; i++) {
		if (wstreams[i].id == id) {
			errno = EEXIST;
			return -1;
		}
		if (wstreams[i].id == 0 && free_slot == WORKER_STREAMS_MAX)
			free_slot = i;
	}
	if (id == 0 || free_slot == WORKER_STREAMS_MAX) {
		errno = ENOSPC;
		return -1;
	}
	wstreams[free_slot].id = id;
	wstreams[free_slot].handler = handler;
	wstreams[free_slot].arg = arg;
	return 0;
}

void
worker_stream_unregister(uint32_t id)
{
	size_t	 i;

	for (i = 0; i < WORKER_STREAMS_MAX; i++)
		if (wstreams[i].id == id)
			memset(&wstreams[i], 0, sizeof(wstreams[i]));
	wstreams_ended[wstreams_ended_next++ % WORKER_STREAMS_ENDED] = id;
}

int
worker_stream_ended(uint32_t id)
{
	size_t	 i;

	for (i = 0; i < WORKER_STREAMS_MAX; i++)
		if (wstreams[i].id == id && id != 0) {
			errno = EEXIST;
			return -1;
		}
	wstreams_ended[wstreams_ended_next++ % WORKER_STREAMS_ENDED] = id;
	return 0;
}

static void
worker_stream_msg(struct imsgev *iev, struct imsg *imsg)
{
	uint32_t	 id = imsg_get_peerid(imsg);
	size_t		 i;

	for (i = 0; i < WORKER_STREAMS_MAX; i++)
		if (wstreams[i].id == id && id != 0) {
			wstreams[i].handler(iev, imsg, wstreams[i].arg);
			return;
		}
	/*
	 * A credit crosses our END in flight, or data a sink stopped
	 * taking (an exec whose command exited before its stdin ended):
	 * nothing is owed for it.
	 */
	for (i = 0; i < WORKER_STREAMS_ENDED; i++)
		if (wstreams_ended[i] == id && id != 0)
			return;
	/* Only spaced's bug: it routes a stream between its two ends. */
	fatalx("%s: message %u for no stream of ours (%u)", __func__,
	    imsg_get_type(imsg), id);
}

/*
 * The messages every worker takes, whatever its job; anything else goes
 * to the worker's own dispatcher.  LEN_ANY: the handler checks.
 */
#define LEN_ANY		((size_t)-1)
static const struct {
	uint32_t	 type;
	size_t		 len;
	void		(*handler)(struct imsgev *, struct imsg *);
} worker_messages[] = {
	{ IMSG_WORKER_PROBE,	 sizeof(struct probe_msg), worker_probe },
	{ IMSG_WORKER_PING,	 0, worker_ping },
	{ IMSG_WORKER_CANCEL,	 0, worker_cancel },
	{ IMSG_STREAM_TEST_RECV, sizeof(struct stream_test_msg),
	    worker_stream_test },
	{ IMSG_STREAM_TEST_SEND, sizeof(struct stream_test_msg),
	    worker_stream_test },
	{ IMSG_STREAM_DATA,	 LEN_ANY, worker_stream_msg },
	{ IMSG_STREAM_CREDIT,	 LEN_ANY, worker_stream_msg },
	{ IMSG_STREAM_END,	 LEN_ANY, worker_stream_msg },
};

static void
worker_dispatch_parent(int fd, short event, void *arg)
{
	struct imsgev		*iev = arg;
	const struct worker	*w = worker_self;
	struct imsg		 imsg;
	size_t			 i;
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
		for (i = 0; i < sizeof(worker_messages) /
		    sizeof(worker_messages[0]); i++)
			if (worker_messages[i].type == imsg_get_type(&imsg))
				break;
		if (i == sizeof(worker_messages) / sizeof(worker_messages[0]))
			w->w_dispatch(iev, &imsg);
		else if (worker_messages[i].len != LEN_ANY &&
		    imsg_get_len(&imsg) != worker_messages[i].len)
			fatalx("%s: message %u of %zu bytes", __func__,
			    imsg_get_type(&imsg), imsg_get_len(&imsg));
		else
			worker_messages[i].handler(iev, &imsg);
		imsg_free(&imsg);
	}
	imsg_event_add(iev);
}

/*
 * The last words of a worker whose stderr goes nowhere (a spaced-git
 * that spaced-launch started): its fatal line, on the channel, through
 * the channel's own buffer once there is one (never inside a message
 * half written).  A parent that reads nothing for a few seconds misses
 * them; the death is not held up for it.
 */
static struct imsgbuf	*worker_chan;

static void
worker_last_words(const char *line)
{
	struct worker_fatal	 wf;
	struct imsgbuf		 own, *ib = worker_chan;
	struct pollfd		 pfd = { PROC_PARENT_FD, POLLOUT, 0 };
	int			 tries;

	if (ib == NULL) {
		imsgbuf_init(&own, PROC_PARENT_FD);
		ib = &own;
	}
	memset(&wf, 0, sizeof(wf));
	strlcpy(wf.wf_line, line, sizeof(wf.wf_line));
	if (imsg_compose(ib, IMSG_WORKER_FATAL, 0, 0, -1, &wf, sizeof(wf)) ==
	    -1)
		return;
	for (tries = 0; tries < 5 && imsgbuf_queuelen(ib) > 0; tries++) {
		if (imsgbuf_write(ib) == -1 && errno != EAGAIN &&
		    errno != EINTR)
			return;
		if (imsgbuf_queuelen(ib) > 0)
			(void)poll(&pfd, 1, 1000);
	}
}

void
worker_tell_fatal(void)
{
	log_setlast(worker_last_words);
}

static __dead void
worker_usage(const char *name)
{
	fprintf(stderr, "usage: %s [-dv] [-c file] [-g dir] [-u user] "
	    "[-r root] [-s store]\n"
	    "(started by spaced(8), not by hand)\n", name);
	exit(2);
}

/*
 * Takes "[-dv] [-g dir] [-u user] [-r root] [-s store]", drops
 * privileges, confines itself, tells the parent it is ready, and serves
 * the channel until the parent goes.  Never returns.
 */
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

	while ((ch = getopt(argc, argv, "c:dg:r:s:u:v")) != -1) {
		switch (ch) {
		case 'c':
			conf_file = optarg;
			break;
		case 'd':
			debug = 1;
			break;
		case 'g':
			serve_dir = optarg;
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

	/*
	 * Without -u a worker keeps the uid it was started with:
	 * spaced-launch (root, to start others as their owner) and the
	 * spaced-git it starts, already the owner of its repository.
	 */
	if (user != NULL || root != NULL)
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

	worker_self = w;
	memset(&wi, 0, sizeof(wi));
	wi.wi_pid = getpid();
	/* Asked before the filter, which does not allow the question. */
	worker_landlock_describe(w->w_sandbox, wi.wi_landlock,
	    sizeof(wi.wi_landlock));
	/* spaced-ns confines itself: its spaces inherit what it has. */
	if (w->w_confine != NULL)
		w->w_confine();
	else
		sandbox_enter(w->w_sandbox);

	imsgev_init(&iev, base, PROC_PARENT_FD, worker_dispatch_parent,
	    NULL);
	worker_chan = &iev.ibuf;
	/* The channel carries fds (both ways) only where procs[] says. */
	if (procs[w->w_id].p_fdpass)
		imsgbuf_allow_fdpass(&iev.ibuf);
	if (imsg_compose_event(&iev, IMSG_WORKER_READY, 0, 0, -1, &wi,
	    sizeof(wi)) == -1)
		fatal("imsg_compose_event");
	log_debug("ready");
	if (w->w_serve != NULL)
		w->w_serve(base);
	event_base_dispatch(base);
	exit(0);
}
