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
 * A compromised worker, for regress/integration/spaced-requests.sh: it
 * stands in for spaced-git (the test copies it over the binary), says
 * READY like a real one, answers PING and status honestly (the positive
 * control: spaced talks to it normally), and attacks when probed:
 *
 *   probe git open     answers with the wrong type for its own request
 *   probe git socket   answers the request just before its own as if it
 *                      were spaced-docker answering a check: another
 *                      client's answer, if that one is pending
 *   probe git connect  answers its own request twice
 *   probe git fork     passes an fd with its answer
 *   stream-test        sends twice the credit window without credit
 *   stream-test 7      holds the stream: sends nothing, writes its id
 *                      to hostile-held beside the binary, and sends its
 *                      END at the next ping (its own, late END)
 *   files              (a repository's instance) sends END for the
 *                      stream in hostile-held: another instance's stream
 *
 * A repository's instance for a folder whose name begins "sigsys"
 * makes a socket before READY: spaced-launch's filter, which it
 * inherits, kills it (SIGSYS), for plain-spaced.sh; not killed (run
 * outside the filter, the control), it exits 3.
 *
 * A spaced that takes any of these is the bug the test looks for.
 *
 * Run as spaced-docker (argv[0]), it also answers the space operations
 * with canned records, for regress/integration/spaced-spaces.sh: each
 * request is logged on stderr (spaced's log), with the owner and images
 * spaced put in it, and the create's name picks what it does:
 *
 *   owner        a good answer whose name is the request's owner
 *   fail         a rollback failure, then DONE gatekeeper_not_ready
 *   slow         a good answer after 22 s, past spacectl's 20 s of
 *                silence: only PROGRESS keeps it waiting
 *   connflood    10 CONN_REQ, then a good answer naming what came back
 *   unterminated a record whose name has no NUL: spaced must stop
 *   badkind      an info record that says it is a violation
 *   badcode      a DONE whose code is not [a-z0-9_]+
 *   unsolicited  a CONN_REQ for a request it was never given
 *   anything else a good answer with that name
 */

#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "git_proto.h"
#include "imsg.h"
#include "place_proto.h"
#include "proto.h"
#include "stream.h"

static struct imsgbuf	 ibuf;

static void
send_msg(uint32_t type, uint32_t peerid, int fd, const void *data,
    size_t len)
{
	if (imsg_compose(&ibuf, type, peerid, getpid(), fd, data, len) == -1 ||
	    imsgbuf_flush(&ibuf) == -1)
		exit(1);
}

static void
attack(uint32_t id, struct probe_msg *pm)
{
	struct git_version_msg	 gv;
	struct docker_check_msg	 dc;

	memset(&gv, 0, sizeof(gv));
	switch (pm->pr_call) {
	case PROBE_OPEN:
		send_msg(IMSG_GIT_VERSION_REP, id, -1, &gv, sizeof(gv));
		break;
	case PROBE_SOCKET:
		/* Someone else's request: the newest before ours first. */
		memset(&dc, 0, sizeof(dc));
		dc.dc_available = 1;
		strlcpy(dc.dc_version, "forged", sizeof(dc.dc_version));
		send_msg(IMSG_DOCKER_CHECK_REP, id - 1, -1, &dc, sizeof(dc));
		break;
	case PROBE_CONNECT:
		send_msg(IMSG_WORKER_PROBE, id, -1, pm, sizeof(*pm));
		send_msg(IMSG_WORKER_PROBE, id, -1, pm, sizeof(*pm));
		break;
	case PROBE_FORK:
		imsgbuf_allow_fdpass(&ibuf);
		send_msg(IMSG_WORKER_PROBE, id, open("/", O_RDONLY), pm,
		    sizeof(*pm));
		break;
	default:
		/* execve: answered honestly, as a refused call */
		pm->pr_errno = EPERM;
		send_msg(IMSG_WORKER_PROBE, id, -1, pm, sizeof(*pm));
	}
}

/* --- spaced-docker: the space operations ------------------------------ */

#define FLOOD_CONNS	10
#define SLOW_SECONDS	22

static uint32_t		 flood_id, slow_id;
static int		 flood_with, flood_without;
static time_t		 slow_at;
static char		 slow_name[SPACE_NAME_MAX + 1];

static void
info(uint32_t id, const char *sid, const char *name, const char *project,
    uint64_t memory)
{
	struct space_info	 si;

	memset(&si, 0, sizeof(si));
	si.si_kind = SPACE_REC_INFO;
	strlcpy(si.si_id, sid, sizeof(si.si_id));
	strlcpy(si.si_name, name, sizeof(si.si_name));
	strlcpy(si.si_project, project, sizeof(si.si_project));
	strlcpy(si.si_created, "2026-01-31T12:00:00Z", sizeof(si.si_created));
	si.si_memory = memory;
	strlcpy(si.si_state, "running", sizeof(si.si_state));
	strlcpy(si.si_gk_state, "running", sizeof(si.si_gk_state));
	send_msg(IMSG_SPACE_INFO, id, -1, &si, sizeof(si));
}

static void
resource(uint32_t id, uint32_t state, const char *sid, const char *type,
    const char *suffix)
{
	struct space_resource	 sr;

	memset(&sr, 0, sizeof(sr));
	sr.sr_kind = SPACE_REC_RESOURCE;
	sr.sr_state = state;
	strlcpy(sr.sr_id, sid, sizeof(sr.sr_id));
	strlcpy(sr.sr_type, type, sizeof(sr.sr_type));
	snprintf(sr.sr_name, sizeof(sr.sr_name), "spaced-space-%s-%s", sid,
	    suffix);
	send_msg(IMSG_SPACE_RESOURCE, id, -1, &sr, sizeof(sr));
}

static void
violation(uint32_t id, const char *check, const char *message)
{
	struct space_violation	 sv;

	memset(&sv, 0, sizeof(sv));
	sv.sv_kind = SPACE_REC_VIOLATION;
	strlcpy(sv.sv_check, check, sizeof(sv.sv_check));
	strlcpy(sv.sv_message, message, sizeof(sv.sv_message));
	send_msg(IMSG_SPACE_VIOLATION, id, -1, &sv, sizeof(sv));
}

static void
done(uint32_t id, const char *code, int uncertain, const char *message)
{
	struct space_done	 sd;

	memset(&sd, 0, sizeof(sd));
	strlcpy(sd.sd_code, code, sizeof(sd.sd_code));
	sd.sd_uncertain = uncertain;
	strlcpy(sd.sd_message, message, sizeof(sd.sd_message));
	send_msg(IMSG_SPACE_DONE, id, -1, &sd, sizeof(sd));
}

static void
create(uint32_t id, const struct space_req *sq)
{
	struct space_info	 si;
	struct space_done	 sd;
	uint64_t		 mem = sq->sq_memory ? sq->sq_memory : 4ULL << 30;

	if (strcmp(sq->sq_name, "owner") == 0)
		info(id, "0123456789ab", sq->sq_owner, sq->sq_project, mem);
	else if (strcmp(sq->sq_name, "fail") == 0) {
		resource(id, SPACE_RES_FAILED, "0123456789ab", "volume",
		    "work");
		resource(id, SPACE_RES_FAILED, "0123456789ab", "network",
		    "net");
		done(id, "gatekeeper_not_ready", 1, "the gatekeeper's "
		    "corridor did not accept within 30 s");
		return;
	} else if (strcmp(sq->sq_name, "slow") == 0) {
		slow_id = id;
		slow_at = time(NULL) + SLOW_SECONDS;
		strlcpy(slow_name, sq->sq_name, sizeof(slow_name));
		return;
	} else if (strcmp(sq->sq_name, "connflood") == 0) {
		int	 i;

		flood_id = id;
		for (i = 0; i < FLOOD_CONNS; i++)
			send_msg(IMSG_SPACE_CONN_REQ, id, -1, NULL, 0);
		return;
	} else if (strcmp(sq->sq_name, "unterminated") == 0) {
		memset(&si, 0, sizeof(si));
		si.si_kind = SPACE_REC_INFO;
		strlcpy(si.si_id, "0123456789ab", sizeof(si.si_id));
		memset(si.si_name, 'A', sizeof(si.si_name));
		send_msg(IMSG_SPACE_INFO, id, -1, &si, sizeof(si));
	} else if (strcmp(sq->sq_name, "badkind") == 0) {
		memset(&si, 0, sizeof(si));
		si.si_kind = SPACE_REC_VIOLATION;
		send_msg(IMSG_SPACE_INFO, id, -1, &si, sizeof(si));
	} else if (strcmp(sq->sq_name, "badcode") == 0) {
		memset(&sd, 0, sizeof(sd));
		strlcpy(sd.sd_code, "Bad-Code!", sizeof(sd.sd_code));
		send_msg(IMSG_SPACE_DONE, id, -1, &sd, sizeof(sd));
		return;
	} else if (strcmp(sq->sq_name, "unsolicited") == 0) {
		send_msg(IMSG_SPACE_CONN_REQ, id + 1000, -1, NULL, 0);
		return;
	} else
		info(id, "0123456789ab", sq->sq_name, sq->sq_project, mem);
	done(id, "", 0, "");
}

static void
space_request(uint32_t type, uint32_t id, struct imsg *imsg)
{
	struct space_create_req	 cq;
	struct space_req	 sq;
	int			 fd;

	/* A create carries its token besides (spaced checks the size). */
	if (type == IMSG_SPACE_CREATE_REQ) {
		if (imsg_get_data(imsg, &cq, sizeof(cq)) == -1)
			exit(1);
		sq = cq.cq_space;
	} else if (imsg_get_data(imsg, &sq, sizeof(sq)) == -1)
		exit(1);
	fd = imsg_get_fd(imsg);
	fprintf(stderr, "hostile: request %u type %u owner %s runtime owner "
	    "%s key %s id \"%s\" name \"%s\" memory %llu images %s %s "
	    "socket %s\n", id, type, sq.sq_owner, sq.sq_runtime_owner,
	    sq.sq_runtime_key, sq.sq_id, sq.sq_name,
	    (unsigned long long)sq.sq_memory, sq.sq_space_image,
	    sq.sq_gk_image, fd == -1 ? "none" : "yes");
	if (fd != -1)
		close(fd);
	switch (type) {
	case IMSG_SPACE_CREATE_REQ:
		create(id, &sq);
		return;
	case IMSG_SPACE_LIST_REQ:
		/* Its owner and runtime key, for the test to see. */
		info(id, "0123456789ab", sq.sq_owner, sq.sq_runtime_key,
		    4ULL << 30);
		{
			struct space_info	 si;

			memset(&si, 0, sizeof(si));
			si.si_kind = SPACE_REC_INFO;
			strlcpy(si.si_id, "ba9876543210", sizeof(si.si_id));
			strlcpy(si.si_name, sq.sq_runtime_owner,
			    sizeof(si.si_name));
			strlcpy(si.si_created, "2026-02-01T08:30:00Z",
			    sizeof(si.si_created));
			strlcpy(si.si_state, "missing", sizeof(si.si_state));
			strlcpy(si.si_gk_state, "exited",
			    sizeof(si.si_gk_state));
			si.si_damaged = 1;
			si.si_nmissing = 2;
			strlcpy(si.si_missing[0], "network",
			    sizeof(si.si_missing[0]));
			strlcpy(si.si_missing[1], "gatekeeper_stopped",
			    sizeof(si.si_missing[1]));
			si.si_norphans = 2;
			send_msg(IMSG_SPACE_INFO, id, -1, &si, sizeof(si));
		}
		resource(id, SPACE_RES_ORPHAN, "ba9876543210", "volume",
		    "work");
		resource(id, SPACE_RES_ORPHAN, "ba9876543210", "container",
		    "gatekeeper");
		break;
	case IMSG_SPACE_SHOW_REQ:
		if (strcmp(sq.sq_id, "ffffffffffff") == 0) {
			done(id, "space_not_found", 0, "no such space of "
			    "yours");
			return;
		}
		info(id, sq.sq_id, "shown", "", 4ULL << 30);
		break;
	case IMSG_SPACE_VERIFY_REQ:
		if (strcmp(sq.sq_id, "000000000000") != 0) {
			violation(id, "read_only_rootfs",
			    "ReadonlyRootfs is false");
			violation(id, "gatekeeper_missing",
			    "the gatekeeper container is gone");
		}
		break;
	case IMSG_SPACE_STOP_REQ:
		break;
	case IMSG_SPACE_START_REQ:
		info(id, sq.sq_id, "started", "", 4ULL << 30);
		break;
	case IMSG_SPACE_REMOVE_REQ:
		resource(id, SPACE_RES_REMOVED, sq.sq_id, "container",
		    "space");
		resource(id, SPACE_RES_REMOVED, sq.sq_id, "volume", "work");
		resource(id, SPACE_RES_FAILED, sq.sq_id, "network", "net");
		break;
	}
	done(id, "", 0, "");
}

/* One answer to our CONN_REQ flood. */
static void
space_conn(uint32_t id, struct imsg *imsg)
{
	char	 name[SPACE_NAME_MAX + 1];
	int	 fd;

	if (id != flood_id || imsg_get_len(imsg) != 0)
		exit(1);
	if ((fd = imsg_get_fd(imsg)) != -1) {
		flood_with++;
		close(fd);
	} else
		flood_without++;
	if (flood_with + flood_without < FLOOD_CONNS)
		return;
	snprintf(name, sizeof(name), "conns %d with %d without", flood_with,
	    flood_without);
	info(id, "0123456789ab", name, "", 4ULL << 30);
	done(id, "", 0, "");
	flood_id = 0;
}

static void
runtime(struct imsg *imsg)
{
	struct docker_runtime_msg	 dr;
	struct stat			 sb;
	int				 fd;

	if (imsg_get_data(imsg, &dr, sizeof(dr)) == -1)
		exit(1);
	fd = imsg_get_fd(imsg);
	dr.dr_key[sizeof(dr.dr_key) - 1] = '\0';
	fprintf(stderr, "hostile: runtime key %s size %llu fd size %lld\n",
	    dr.dr_key, (unsigned long long)dr.dr_size,
	    fd != -1 && fstat(fd, &sb) == 0 ? (long long)sb.st_size : -1LL);
	if (fd != -1)
		close(fd);
}

#define HOLD_BYTES	(7ULL << 20)

static uint32_t		 held_stream;

/* hostile-held beside this binary: both instances find it there. */
static void
held_path(char *path, size_t len)
{
	ssize_t	 n;
	char	*slash;

	if ((n = readlink("/proc/self/exe", path, len - 32)) <= 0)
		exit(1);
	path[n] = '\0';
	if ((slash = strrchr(path, '/')) == NULL)
		exit(1);
	strlcpy(slash + 1, "hostile-held", len - (slash + 1 - path));
}

static void
send_end(uint32_t stream)
{
	struct stream_end	 se;

	memset(&se, 0, sizeof(se));
	send_msg(IMSG_STREAM_END, stream, -1, &se, sizeof(se));
}

/* A repository's instance ends a stream that is not its own. */
static void
end_foreign_stream(void)
{
	char		 path[512];
	FILE		*f;
	unsigned	 id;

	held_path(path, sizeof(path));
	if ((f = fopen(path, "r")) == NULL)
		return;
	if (fscanf(f, "%u", &id) == 1) {
		fprintf(stderr, "hostile: END for stream %u\n", id);
		send_end(id);
	}
	fclose(f);
}

/* A source that ignores credit: two windows at once; or one that holds. */
static void
flood_stream(struct imsg *imsg)
{
	static uint8_t		 chunk[STREAM_CHUNK];
	struct stream_test_msg	 tm;
	char			 path[512];
	FILE			*f;
	size_t			 i;

	if (imsg_get_data(imsg, &tm, sizeof(tm)) == -1)
		exit(1);
	if (tm.tm_bytes == HOLD_BYTES) {
		held_stream = tm.tm_stream;
		held_path(path, sizeof(path));
		if ((f = fopen(path, "w")) == NULL)
			exit(1);
		fprintf(f, "%u\n", held_stream);
		fclose(f);
		return;
	}
	for (i = 0; i < 2 * STREAM_WINDOW / STREAM_CHUNK; i++)
		send_msg(IMSG_STREAM_DATA, tm.tm_stream, -1, chunk,
		    sizeof(chunk));
}

int
main(int argc, char *argv[])
{
	struct worker_ready_info wi;
	struct git_version_msg	 gv;
	struct probe_msg	 pm;
	struct imsg		 imsg;
	struct pollfd		 pfd = { 3, POLLIN, 0 };
	const char		*self = argc > 0 ? strrchr(argv[0], '/') : NULL;
	ssize_t			 n;
	int			 docker, timeout;

	self = self != NULL ? self + 1 : argc > 0 ? argv[0] : "";
	if (argc == 3 && strcmp(argv[1], "-g") == 0 &&
	    strncmp(strrchr(argv[2], '/') != NULL ? strrchr(argv[2], '/') + 1 :
	    argv[2], "sigsys", 6) == 0) {
		(void)socket(AF_INET, SOCK_STREAM, 0);
		exit(3);
	}
	docker = strcmp(self, "spaced-docker") == 0;
	imsgbuf_init(&ibuf, 3);
	/* spaced-docker's channel carries fds: the runtime, sockets. */
	if (docker)
		imsgbuf_allow_fdpass(&ibuf);
	setvbuf(stderr, NULL, _IOLBF, 0);
	memset(&wi, 0, sizeof(wi));
	wi.wi_pid = getpid();
	strlcpy(wi.wi_landlock, "hostile", sizeof(wi.wi_landlock));
	send_msg(IMSG_WORKER_READY, 0, -1, &wi, sizeof(wi));
	for (;;) {
		timeout = slow_id != 0 ? 1000 : -1;
		if (poll(&pfd, 1, timeout) == -1)
			exit(1);
		if (slow_id != 0 && time(NULL) >= slow_at) {
			info(slow_id, "0123456789ab", slow_name, "", 4ULL << 30);
			done(slow_id, "", 0, "");
			slow_id = 0;
		}
		if ((pfd.revents & POLLIN) == 0)
			continue;
		if ((n = imsgbuf_read(&ibuf)) == 0)
			exit(0);
		if (n == -1 && errno != EAGAIN)
			exit(1);
		while (imsgbuf_get(&ibuf, &imsg) == 1) {
			uint32_t id = imsg_get_peerid(&imsg);

			switch (imsg_get_type(&imsg)) {
			case IMSG_WORKER_PING:
				if (held_stream != 0) {
					send_end(held_stream);
					held_stream = 0;
				}
				send_msg(IMSG_WORKER_PING, id, -1, NULL, 0);
				break;
			case IMSG_GIT_VERSION_REQ:
				memset(&gv, 0, sizeof(gv));
				strlcpy(gv.gv_libgit2, "hostile",
				    sizeof(gv.gv_libgit2));
				send_msg(IMSG_GIT_VERSION_REP, id, -1, &gv,
				    sizeof(gv));
				break;
			case IMSG_STREAM_TEST_SEND:
				flood_stream(&imsg);
				break;
			case IMSG_WORKER_PROBE:
				if (imsg_get_data(&imsg, &pm, sizeof(pm)) == 0)
					attack(id, &pm);
				break;
			case IMSG_WORKER_CANCEL:
				fprintf(stderr, "hostile: cancel of request "
				    "%u\n", id);
				/* Only the slow one can still be held. */
				if (id == slow_id) {
					slow_id = 0;
					send_msg(IMSG_WORKER_CANCEL, id, -1,
					    NULL, 0);
				}
				break;
			case IMSG_DOCKER_RUNTIME:
				runtime(&imsg);
				break;
			case IMSG_GIT_FILES_REQ:
				end_foreign_stream();
				break;
			case IMSG_SPACE_CREATE_REQ:
			case IMSG_SPACE_LIST_REQ:
			case IMSG_SPACE_SHOW_REQ:
			case IMSG_SPACE_VERIFY_REQ:
			case IMSG_SPACE_STOP_REQ:
			case IMSG_SPACE_START_REQ:
			case IMSG_SPACE_REMOVE_REQ:
				space_request(imsg_get_type(&imsg), id, &imsg);
				break;
			case IMSG_SPACE_CONN:
				space_conn(id, &imsg);
				break;
			}
			imsg_free(&imsg);
		}
	}
}
