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
 * The I/O half of the Engine API client: write a request, feed what comes
 * back to the pure parser, all under one deadline.  poll(2) guards every
 * read and write, and the socket calls never block (MSG_DONTWAIT), so a
 * stalled engine costs us the deadline and no more.
 */

#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "errors.h"
#include "log.h"
#include "docker_http.h"

#define DOCKER_HEAD_MAX		8192

static struct timespec
deadline_after(int ms)
{
	struct timespec	 t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

/* Milliseconds left, rounded up so we never spin on a 0 timeout. */
static int
remaining_ms(const struct timespec *deadline)
{
	struct timespec	 now;
	long long	 ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (long long)(deadline->tv_sec - now.tv_sec) * 1000 +
	    (deadline->tv_nsec - now.tv_nsec + 999999) / 1000000;
	if (ms <= 0)
		return 0;
	return ms > 60 * 60 * 1000 ? 60 * 60 * 1000 : (int)ms;
}

/* Waits for ev; returns NULL when ready, or an error code. */
static const char *
wait_for(int fd, short ev, const struct timespec *deadline)
{
	struct pollfd	 pfd;
	int		 ms, r;

	for (;;) {
		if ((ms = remaining_ms(deadline)) == 0)
			return ERR_TIMEOUT;
		pfd.fd = fd;
		pfd.events = ev;
		pfd.revents = 0;
		r = poll(&pfd, 1, ms);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1 || (pfd.revents & POLLNVAL)) {
			log_warn("docker: poll");
			return ERR_DOCKER_UNREACHABLE;
		}
		if (r > 0)
			return NULL;	/* ready, or HUP/ERR: the call says */
	}
}

static const char *
send_all(int fd, const void *buf, size_t len, const struct timespec *deadline)
{
	const char	*p = buf, *code;
	ssize_t		 n;

	while (len > 0) {
		if ((code = wait_for(fd, POLLOUT, deadline)) != NULL)
			return code;
		n = send(fd, p, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n == -1) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			log_warn("docker: send");
			return ERR_DOCKER_UNREACHABLE;
		}
		p += n;
		len -= n;
	}
	return NULL;
}

/* Method: upper-case letters.  Path: origin-form, visible ASCII only. */
static int
request_is_safe(const struct docker_request *rq)
{
	const char	*s;

	if (rq->rq_method == NULL || *rq->rq_method == '\0' ||
	    rq->rq_path == NULL || rq->rq_path[0] != '/')
		return 0;
	for (s = rq->rq_method; *s != '\0'; s++)
		if (*s < 'A' || *s > 'Z')
			return 0;
	for (s = rq->rq_path; *s != '\0'; s++)
		if (*s <= 0x20 || *s >= 0x7f)
			return 0;
	return rq->rq_body != NULL || rq->rq_body_len == 0;
}

int
docker_http_head(const struct docker_request *rq, char *buf, size_t len)
{
	int	 n;

	if (!request_is_safe(rq))
		return -1;
	if (rq->rq_body != NULL)
		n = snprintf(buf, len, "%s %s HTTP/1.1\r\n"
		    "Host: docker\r\n"
		    "User-Agent: spaced\r\n"
		    "Content-Type: application/json\r\n"
		    "Content-Length: %zu\r\n"
		    "\r\n", rq->rq_method, rq->rq_path, rq->rq_body_len);
	else
		n = snprintf(buf, len, "%s %s HTTP/1.1\r\n"
		    "Host: docker\r\n"
		    "User-Agent: spaced\r\n"
		    "\r\n", rq->rq_method, rq->rq_path);
	if (n < 0 || (size_t)n >= len)
		return -1;
	return n;
}

const char *
docker_http_roundtrip(int fd, const struct docker_request *rq,
    struct docker_parser *answer)
{
	struct timespec		 deadline;
	char			 head[DOCKER_HEAD_MAX];
	unsigned char		 buf[16384];
	const char		*code;
	size_t			 used, got = 0;
	ssize_t			 n;
	int			 hlen;
	enum docker_parse_rv	 rv = DP_NEED_MORE;

	docker_parse_init(answer, rq->rq_answer_cap);
	deadline = deadline_after(rq->rq_timeout_ms);

	if ((hlen = docker_http_head(rq, head, sizeof(head))) == -1) {
		log_warnx("docker: refusing to send an unsafe request");
		return ERR_INTERNAL;
	}
	if ((code = send_all(fd, head, hlen, &deadline)) != NULL ||
	    (rq->rq_body_len > 0 &&
	    (code = send_all(fd, rq->rq_body, rq->rq_body_len, &deadline))
	    != NULL))
		goto fail;

	while (rv == DP_NEED_MORE) {
		if ((code = wait_for(fd, POLLIN, &deadline)) != NULL)
			goto fail;
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n == -1) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			log_warn("docker: recv");
			code = ERR_DOCKER_UNREACHABLE;
			goto fail;
		}
		if (n == 0) {
			if (got == 0) {
				/* Nothing at all: the engine is not there. */
				code = ERR_DOCKER_UNREACHABLE;
				goto fail;
			}
			rv = docker_parse_eof(answer);
			break;
		}
		got += n;
		/*
		 * Bytes after a complete answer are dropped: a JSON call
		 * owns its connection.  A hijacked exec stream will need
		 * them kept (reference 1.4).
		 */
		rv = docker_parse_feed(answer, buf, n, &used);
	}
	if (rv == DP_ERROR) {
		log_warnx("docker: %s %s: %s", rq->rq_method, rq->rq_path,
		    answer->dp_errstr);
		return ERR_DOCKER_UNREADABLE;
	}
	return NULL;

 fail:
	log_warnx("docker: %s %s: %s", rq->rq_method, rq->rq_path, code);
	return code;
}
