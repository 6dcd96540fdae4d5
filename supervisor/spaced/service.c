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
 * Run by systemd (spaced.service, Type=notify): readiness and stopping
 * said on $NOTIFY_SOCKET, the sd_notify(3) protocol written out (one
 * datagram a state) rather than linking libsystemd for one call.
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "spaced.h"

static char	 notify_path[sizeof(((struct sockaddr_un *)0)->sun_path)];

/* Taken once, and out of the environment every worker would inherit. */
int
service_managed(void)
{
	const char	*p;

	if (notify_path[0] != '\0')
		return 1;
	if ((p = getenv("NOTIFY_SOCKET")) == NULL || (p[0] != '/' &&
	    p[0] != '@') || strlen(p) >= sizeof(notify_path))
		return 0;
	strlcpy(notify_path, p, sizeof(notify_path));
	unsetenv("NOTIFY_SOCKET");
	return 1;
}

void
service_notify(const char *state)
{
	struct sockaddr_un	 sun;
	socklen_t		 len;
	int			 s;

	if (notify_path[0] == '\0')
		return;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strlcpy(sun.sun_path, notify_path, sizeof(sun.sun_path));
	len = offsetof(struct sockaddr_un, sun_path) + strlen(notify_path);
	if (sun.sun_path[0] == '@')
		sun.sun_path[0] = '\0';	/* an abstract name */
	if ((s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1) {
		log_warn("notify");
		return;
	}
	if (sendto(s, state, strlen(state), MSG_NOSIGNAL,
	    (struct sockaddr *)&sun, len) == -1)
		log_warn("notify %s", state);
	close(s);
}
