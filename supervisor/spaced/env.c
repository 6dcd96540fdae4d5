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
 * spaced's environment: its configuration and the engine's socket.
 * Below every other file of spaced; it calls none of them.
 */

#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "spaced.h"

static struct spaced_env	 env;
static int			 docker_errno;

struct spaced_env *
spaced_env(void)
{
	return &env;
}

const struct spaced_conf *
spaced_config(void)
{
	return &env.env_conf;
}

int
docker_connect(void)
{
	const char		*path = env.env_conf.sc_docker_socket;
	struct sockaddr_un	 sun;
	int			 s;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlcpy(sun.sun_path, path, sizeof(sun.sun_path)) >=
	    sizeof(sun.sun_path))
		return -1;
	/* Non-blocking: a daemon with a full backlog must not stall us. */
	if ((s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0)) == -1) {
		log_warn("socket");
		return -1;
	}
	if (connect(s, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		docker_errno = errno;
		log_warn("connect %s", path);
		close(s);
		return -1;
	}
	return s;
}

int
docker_connect_errno(void)
{
	return docker_errno;
}

/* VmHWM of spaced itself, KiB; 0 when /proc does not say. */
uint64_t
peak_rss(void)
{
	char		 buf[4096], *p;
	ssize_t		 n;
	int		 fd;

	if ((fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if ((p = strstr(buf, "VmHWM:")) == NULL)
		return 0;
	return strtoull(p + 6, NULL, 10);
}
