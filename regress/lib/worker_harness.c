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

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "place_proto.h"
#include "worker-docker/docker_parse.h"
#include "worker_harness.h"

struct docker_parser *
wh_answer(int status, const char *body)
{
	static struct docker_parser	 p;
	static char			*copy;

	free(copy);
	if ((copy = strdup(body)) == NULL)
		abort();
	memset(&p, 0, sizeof(p));
	p.dp_status = status;
	p.dp_body = (uint8_t *)copy;
	p.dp_body_len = strlen(copy);
	return &p;
}

char *
wh_many(const char *head, const char *item, size_t n, const char *tail)
{
	char	*s, *x, *it;
	size_t	 i;

	if (asprintf(&s, "%s", head) == -1)
		abort();
	for (i = 0; i < n; i++) {
		x = s;
		if (asprintf(&it, item, i) == -1 ||
		    asprintf(&s, "%s%s%s", x, i > 0 ? "," : "", it) == -1)
			abort();
		free(x);
		free(it);
	}
	x = s;
	if (asprintf(&s, "%s%s", x, tail) == -1)
		abort();
	free(x);
	return s;
}

uint64_t
wh_now_us(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The unit binary is $(B)/regress/unit/spaced-docker; rel is under $(B). */
const char *
wh_bin(const char *env, const char *rel)
{
	static char	 path[2][PATH_MAX];
	static int	 which;
	char		 exe[PATH_MAX], *p;
	const char	*e;
	ssize_t		 n;
	int		 up;

	if ((e = getenv(env)) != NULL)
		return e;
	if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) == -1)
		return NULL;
	exe[n] = '\0';
	for (up = 0; up < 3; up++) {
		if ((p = strrchr(exe, '/')) == NULL)
			return NULL;
		*p = '\0';
	}
	which = !which;
	if (strlcpy(path[which], exe, sizeof(path[which])) >=
	    sizeof(path[which]) ||
	    strlcat(path[which], "/", sizeof(path[which])) >=
	    sizeof(path[which]) ||
	    strlcat(path[which], rel, sizeof(path[which])) >=
	    sizeof(path[which]))
		return NULL;
	return path[which];
}

int
wh_start(struct wh *w)
{
	const char	*bin;
	struct imsg	 imsg;
	const char	*user;
	char		*av[5], userbuf[64];
	int		 sv[2], r, ac = 0, debug = getenv("WH_DEBUG") != NULL;

	memset(w, 0, sizeof(*w));
	if ((bin = wh_bin("SPACED_DOCKER_BIN",
	    "libexec/spaced/spaced-docker")) == NULL)
		return -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == -1)
		return -1;
	if ((w->wh_pid = fork()) == -1)
		return -1;
	if (w->wh_pid == 0) {
		/* As spaced does: the channel on fd 3, nothing else open. */
		if (dup2(sv[1], 3) == -1)
			_exit(127);
		closefrom(4);
		/* LeakSanitizer's exit scan would need calls the filter denies. */
		setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
		/* As root it must be given a user to become, as spaced does. */
		user = getpwnam("_spaced-docker") != NULL ? "_spaced-docker" :
		    "nobody";
		av[ac++] = "spaced-docker";
		if (debug)
			av[ac++] = "-dvv";
		if (geteuid() == 0) {
			av[ac++] = "-u";
			strlcpy(userbuf, user, sizeof(userbuf));
			av[ac++] = userbuf;
		}
		av[ac] = NULL;
		execv(bin, av);
		_exit(127);
	}
	close(sv[1]);
	imsgbuf_init(&w->wh_ibuf, sv[0]);
	/* As spaced does: this channel passes the worker Engine sockets. */
	imsgbuf_allow_fdpass(&w->wh_ibuf);
	if ((r = wh_recv(w, &imsg, 5000)) != 1)
		return -1;
	r = imsg_get_type(&imsg) == IMSG_WORKER_READY ? 0 : -1;
	imsg_free(&imsg);
	return r;
}

void
wh_stop(struct wh *w)
{
	int	 status;

	if (w->wh_pid <= 0)
		return;
	/* Closing the channel is how spaced ends a worker. */
	close(w->wh_ibuf.fd);
	imsgbuf_clear(&w->wh_ibuf);
	if (waitpid(w->wh_pid, &status, 0) == -1)
		kill(w->wh_pid, SIGKILL);
	w->wh_pid = 0;
}

int
wh_send(struct wh *w, uint32_t type, uint32_t peerid, int fd)
{
	if (imsg_compose(&w->wh_ibuf, type, peerid, 0, fd, NULL, 0) == -1)
		return -1;
	return imsgbuf_flush(&w->wh_ibuf);
}

int
wh_recv(struct wh *w, struct imsg *imsg, int ms)
{
	struct pollfd	 pfd;
	uint64_t	 end = wh_now_us() + (uint64_t)ms * 1000, now;
	ssize_t		 n;
	int		 r;

	for (;;) {
		if ((r = imsgbuf_get(&w->wh_ibuf, imsg)) == -1)
			return -1;
		if (r == 1)
			return 1;
		if ((now = wh_now_us()) >= end)
			return 0;
		pfd.fd = w->wh_ibuf.fd;
		pfd.events = POLLIN;
		if ((r = poll(&pfd, 1, (end - now + 999) / 1000)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			return 0;
		if ((n = imsgbuf_read(&w->wh_ibuf)) == -1) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			return -1;
	}
}

int
wh_nfds(pid_t pid)
{
	char		 path[64];
	DIR		*d;
	struct dirent	*de;
	int		 n = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	if ((d = opendir(path)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	/* Our own look at our own /proc holds one more. */
	return pid == getpid() ? n - 1 : n;
}

int
fe_start(struct fe *f, int delay_ms)
{
	const char	*bin;
	char		 delay[16], line[16];
	int		 p[2];
	ssize_t		 n;

	memset(f, 0, sizeof(*f));
	if ((bin = wh_bin("FAKE_ENGINE_BIN", "regress/tools/fake_engine")) ==
	    NULL)
		return -1;
	strlcpy(f->fe_dir, "/tmp/fake-engine.XXXXXX", sizeof(f->fe_dir));
	if (mkdtemp(f->fe_dir) == NULL || pipe2(p, O_CLOEXEC) == -1)
		return -1;
	snprintf(delay, sizeof(delay), "%d", delay_ms);
	if ((f->fe_pid = fork()) == -1)
		return -1;
	if (f->fe_pid == 0) {
		if (dup2(p[1], 1) == -1)
			_exit(127);
		execl(bin, "fake_engine", "-d", delay, f->fe_dir, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	/* "ready" once every socket listens */
	n = read(p[0], line, sizeof(line) - 1);
	close(p[0]);
	if (n <= 0 || strncmp(line, "ready", 5) != 0)
		return -1;
	return 0;
}

void
fe_stop(struct fe *f)
{
	char	 path[PATH_MAX];
	DIR	*d;
	struct dirent *de;

	if (f->fe_pid > 0) {
		kill(f->fe_pid, SIGTERM);
		waitpid(f->fe_pid, NULL, 0);
		f->fe_pid = 0;
	}
	if ((d = opendir(f->fe_dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			if (snprintf(path, sizeof(path), "%s/%s", f->fe_dir,
			    de->d_name) < (int)sizeof(path))
				unlink(path);
		}
		closedir(d);
	}
	rmdir(f->fe_dir);
}

int
fe_versions(const struct fe *f)
{
	char		 path[PATH_MAX];
	struct stat	 st;

	if (snprintf(path, sizeof(path), "%s/versions", f->fe_dir) >=
	    (int)sizeof(path))
		return -1;
	if (stat(path, &st) == -1)
		return errno == ENOENT ? 0 : -1;
	return (int)st.st_size;
}

int
fe_connect(const struct fe *f, const char *mode)
{
	struct sockaddr_un	 sun;
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/%s.sock", f->fe_dir,
	    mode);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}
