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
 * reload: spaced.conf(5) read at start and again on SIGHUP, then opened
 * by spaced-launch (spaced reads no file once it serves: a file renamed
 * over the old one is read as one written in place).  A reload that
 * fails, or that changes a setting only a restart changes, keeps the
 * configuration in force and says why, in the log and in the status of
 * spaced (spacectl status).
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
static int	 reload_asked;		/* SIGHUPs spaced-launch has to answer */

static int	 config_read(const char *, int, int, int, struct spaced_conf *,
		    char *, size_t);

int
config_load(const char *file, int explicit, struct spaced_conf *c,
    char *err, size_t errlen)
{
	struct stat	 sb;
	int		 fd;

	if (reload_file[0] == '\0') {
		strlcpy(reload_file, file, sizeof(reload_file));
		reload_explicit = explicit;
		reload_host_ca = stat(SPACED_HOST_CA, &sb) == 0 &&
		    S_ISREG(sb.st_mode) && access(SPACED_HOST_CA, R_OK) == 0;
	}
	fd = open(file, O_RDONLY | O_CLOEXEC);
	return config_read(file, explicit, fd, fd == -1 ? errno : 0, c, err,
	    errlen);
}

/* The file from fd (closed here), or why it did not open (fderr). */
static int
config_read(const char *file, int explicit, int fd, int fderr,
    struct spaced_conf *c, char *err, size_t errlen)
{
	char		 buf[64 * 1024 + 1], perr[256];
	const char	*home;
	char		 state[PATH_MAX];
	ssize_t		 n;

	state[0] = '\0';
	if (getenv("XDG_STATE_HOME") != NULL)
		strlcpy(state, getenv("XDG_STATE_HOME"), sizeof(state));
	else if ((home = getenv("HOME")) != NULL)
		snprintf(state, sizeof(state), "%s/.local/state", home);
	config_defaults(c, geteuid(), getenv("XDG_RUNTIME_DIR"), state);

	if (fd == -1) {
		if (fderr == ENOENT && !explicit)
			goto check;
		snprintf(err, errlen, "%s: %s", file, strerror(fderr));
		return -1;
	}
	n = read(fd, buf, sizeof(buf));
	if (n == -1)
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
	close(fd);
	if (n == -1)
		return -1;
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

/*
 * A file spaced did not start with is taken only as one it could trust
 * at start: a regular file of root's or spaced's user, that no one else
 * may write (its group may, when that is root's or spaced's own: a
 * user's umask 002 gives 0664 to a file of their own group).  Else -1,
 * fd closed, and err says which.
 */
static int
config_file_check(int fd, char *err, size_t errlen)
{
	struct stat	 sb;
	char		 owner[48];
	const char	*why = NULL;

	if (fstat(fd, &sb) == -1)
		why = strerror(errno);
	else if (!S_ISREG(sb.st_mode))
		why = "not a regular file";
	else if (sb.st_uid != 0 && sb.st_uid != geteuid()) {
		snprintf(owner, sizeof(owner), "owned by uid %u, not root or "
		    "spaced", (unsigned)sb.st_uid);
		why = owner;
	} else if ((sb.st_mode & 002) != 0 || ((sb.st_mode & 020) != 0 &&
	    sb.st_gid != 0 && sb.st_gid != getegid()))
		why = "writable by others than its owner";
	if (why == NULL)
		return 0;
	snprintf(err, errlen, "%s: %s", reload_file, why);
	close(fd);
	return -1;
}

const char *
config_file(void)
{
	return reload_file;
}

/*
 * A reload: the file from fd (fderr: why it did not open), or a refusal
 * already named (why).  On any failure the configuration in force stays.
 */
static void
config_reload_take(int fd, int fderr, const char *why)
{
	struct spaced_conf	*cur = &spaced_env()->env_conf, *next = NULL;
	char			 err[PATH_MAX + 300], kw[24], at[16];
	time_t			 now = time(NULL);
	struct tm		 tm;
	int			 refused;

	gmtime_r(&now, &tm);
	strftime(at, sizeof(at), "%H:%M:%S", &tm);
	if (why == NULL && (next = calloc(1, sizeof(*next))) == NULL) {
		log_warn("reload");
		if (fd != -1)
			close(fd);
		return;
	}
	if (why != NULL || config_read(reload_file, reload_explicit, fd, fderr,
	    next, err, sizeof(err)) == -1) {
		if (why != NULL)
			strlcpy(err, why, sizeof(err));
		log_warnx("reload: %s: the configuration in force stays", err);
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
	refused = config_reload(cur, next, kw, sizeof(kw));
	free(next);
	/* default place is live: a native one a plain spaced lacks, said. */
	place_default_warn();
	if (refused > 0) {
		log_warnx("reload: %s: %d setting(s) change only at a restart "
		    "(first: %s); they keep their value, the live ones are "
		    "taken", reload_file, refused, kw);
		snprintf(reload_state, sizeof(reload_state),
		    "config: reloaded %.8s, %.20s needs restart", at, kw);
		events_emit("reload", (uid_t)-1, NULL, reload_state);
		return;
	}
	log_info("reload: %s: taken", reload_file);
	events_emit("reload", (uid_t)-1, NULL, reload_file);
	snprintf(reload_state, sizeof(reload_state),
	    "config: reloaded %.8s UTC", at);
}

/* SIGHUP: spaced-launch opens the file again (config_reload_file). */
void
config_reload_signal(void)
{
	char	 err[PATH_MAX + 300];

	if (worker_compose(PROC_LAUNCH, IMSG_LAUNCH_CONF_REQ, 0, -1, NULL,
	    0) == -1) {
		snprintf(err, sizeof(err), "%s: spaced-launch cannot open it: "
		    "%s", reload_file, strerror(errno));
		config_reload_take(-1, 0, err);
		return;
	}
	reload_asked++;
}

/* spaced-launch's answer: the file, or why it did not open. */
void
config_reload_file(struct imsg *imsg)
{
	struct launch_conf_rep	 lc;
	char			 err[PATH_MAX + 300];
	int			 fd;

	if (reload_asked == 0 || imsg_get_data(imsg, &lc, sizeof(lc)) == -1)
		fatalx("%s: an answer to no reload", __func__);
	reload_asked--;
	fd = imsg_get_fd(imsg);
	if ((fd == -1) == (lc.lc_errno == 0)) {
		if (fd != -1)
			close(fd);
		fatalx("%s: an fd and an errno, or neither", __func__);
	}
	if (fd != -1 && config_file_check(fd, err, sizeof(err)) == -1)
		config_reload_take(-1, 0, err);
	else
		config_reload_take(fd, lc.lc_errno, NULL);
}

const char *
config_reload_state(void)
{
	return reload_state;
}
