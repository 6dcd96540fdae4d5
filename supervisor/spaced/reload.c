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
 * reload: spaced.conf(5) read at start and again on SIGHUP.  A reload
 * that fails, or that changes a setting only a restart changes, keeps
 * the configuration in force and says why, in the log and in the
 * status of spaced (spacectl status).
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "spaced.h"

static char	 reload_file[PATH_MAX];
static int	 reload_explicit;
static int	 reload_host_ca;	/* the host's bundle, usable at start */
static char	 reload_state[CTL_DETAIL_MAX] = "config: as started";

int
config_load(const char *file, int explicit, struct spaced_conf *c,
    char *err, size_t errlen)
{
	char		 buf[64 * 1024 + 1], perr[256];
	const char	*home;
	char		 state[PATH_MAX];
	struct stat	 sb;
	ssize_t		 n;
	int		 fd;

	if (reload_file[0] == '\0') {
		strlcpy(reload_file, file, sizeof(reload_file));
		reload_explicit = explicit;
		reload_host_ca = stat(SPACED_HOST_CA, &sb) == 0 &&
		    S_ISREG(sb.st_mode) && access(SPACED_HOST_CA, R_OK) == 0;
	}
	state[0] = '\0';
	if (getenv("XDG_STATE_HOME") != NULL)
		strlcpy(state, getenv("XDG_STATE_HOME"), sizeof(state));
	else if ((home = getenv("HOME")) != NULL)
		snprintf(state, sizeof(state), "%s/.local/state", home);
	config_defaults(c, geteuid(), getenv("XDG_RUNTIME_DIR"), state);

	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) == -1) {
		if (errno == ENOENT && !explicit)
			goto check;
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return -1;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n == -1) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return -1;
	}
	if (n == (ssize_t)sizeof(buf)) {
		snprintf(err, errlen, "%s: file too large", file);
		return -1;
	}
	if (config_parse(buf, n, c, perr, sizeof(perr)) == -1) {
		snprintf(err, errlen, "%s: %s", file, perr);
		return -1;
	}
 check:
	/* A bundle that cannot be read is left out here, not at each create. */
	config_trust(c, SPACED_HOST_CA, reload_host_ca);
	if (c->sc_socket[0] == '\0') {
		snprintf(err, errlen, "no control socket: set XDG_RUNTIME_DIR "
		    "or \"socket\" in %s", file);
		return -1;
	}
	if (c->sc_store[0] == '\0') {
		snprintf(err, errlen, "no journal store: set HOME, "
		    "XDG_STATE_HOME or \"journal store\" in %s", file);
		return -1;
	}
	return 0;
}

const char *
config_file(void)
{
	return reload_file;
}

/* SIGHUP: the file again; its live settings, or the old ones and why. */
void
config_reload_signal(void)
{
	struct spaced_conf	*cur = &spaced_env()->env_conf, *next;
	char			 err[300], why[24], at[16];
	time_t			 now = time(NULL);
	struct tm		 tm;
	int			 refused;

	gmtime_r(&now, &tm);
	strftime(at, sizeof(at), "%H:%M:%S", &tm);
	if ((next = calloc(1, sizeof(*next))) == NULL) {
		log_warn("reload");
		return;
	}
	errno = 0;
	if (config_load(reload_file, reload_explicit, next, err,
	    sizeof(err)) == -1) {
		/* Landlock holds the inode spaced started with. */
		log_warnx("reload: %s: the configuration in force stays%s",
		    err, errno == EACCES ? " (a file renamed over it is read "
		    "at the next start: edit it in place)" : "");
		events_emit("reload-failed", (uid_t)-1, NULL, err);
		snprintf(reload_state, sizeof(reload_state),
		    "config: reload failed %.8s UTC, see log", at);
		free(next);
		return;
	}
	/* The install id read from the state directory is no change. */
	if (next->sc_install_id[0] == '\0')
		strlcpy(next->sc_install_id, cur->sc_install_id,
		    sizeof(next->sc_install_id));
	refused = config_reload(cur, next, why, sizeof(why));
	free(next);
	/* default place is live: a native one a plain spaced lacks, said. */
	place_default_warn();
	if (refused > 0) {
		log_warnx("reload: %s: %d setting(s) change only at a restart "
		    "(first: %s); they keep their value, the live ones are "
		    "taken", reload_file, refused, why);
		snprintf(reload_state, sizeof(reload_state),
		    "config: reloaded %.8s, %.20s needs restart", at, why);
		events_emit("reload", (uid_t)-1, NULL, reload_state);
		return;
	}
	log_info("reload: %s: taken", reload_file);
	events_emit("reload", (uid_t)-1, NULL, reload_file);
	snprintf(reload_state, sizeof(reload_state),
	    "config: reloaded %.8s UTC", at);
}

const char *
config_reload_state(void)
{
	return reload_state;
}
