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
 * spaced: the supervisor.  Reads its configuration, fork+execs its
 * workers, binds the control socket, confines itself, and routes
 * requests between control clients and workers.  It never parses a byte
 * that came from Docker, a repository or a space.
 */

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <event.h>
#include <fcntl.h>
#include <libgen.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "spaced.h"
#include "stdfds.h"
#include "zfree.h"

static struct spaced_env	*env;
static struct spaced_conf	*conf;

static __dead void
usage(void)
{
	fprintf(stderr, "usage: spaced [-dnv] [-f file]\n");
	exit(2);
}

/* The workers live in ../libexec/spaced/ beside our own binary. */
static void
libexec_dir(char *out, size_t len)
{
	char	 self[PATH_MAX], *dir;
	ssize_t	 n;

	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) == -1)
		fatal("readlink /proc/self/exe");
	self[n] = '\0';
	dir = dirname(self);
	if ((size_t)snprintf(out, len, "%s/../libexec/spaced", dir) >= len)
		fatalx("libexec path too long");
}

static void
load_config(const char *file, int explicit)
{
	char	 err[400];

	if (config_load(file, explicit, conf, err, sizeof(err)) == -1)
		errx(1, "%s", err);
}

/* mkdir -p with the last component's owner and mode set. */
static void
make_dir(const char *path, uid_t uid, gid_t gid, mode_t mode)
{
	char		 tmp[PATH_MAX], *p;
	struct stat	 sb;

	strlcpy(tmp, path, sizeof(tmp));
	for (p = tmp + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) == -1 && errno != EEXIST)
			fatal("mkdir %s", tmp);
		*p = '/';
	}
	if (mkdir(path, mode) == -1 && errno != EEXIST)
		fatal("mkdir %s", path);
	if (lstat(path, &sb) == -1 || !S_ISDIR(sb.st_mode))
		fatalx("%s is not a directory", path);
	if ((sb.st_uid != uid || sb.st_gid != gid) && chown(path, uid, gid)
	    == -1)
		fatal("chown %s", path);
	if ((sb.st_mode & 07777) != mode && chmod(path, mode) == -1)
		fatal("chmod %s", path);
}

/* The directories the workers are confined to, made before they start. */
static void
prepare_dirs(void)
{
	struct passwd	*pw;
	struct dirent	*de;
	DIR		*dir;
	char		 sockdir[PATH_MAX];

	strlcpy(sockdir, conf->sc_socket, sizeof(sockdir));
	if (geteuid() != 0) {
		make_dir(conf->sc_store, geteuid(), getegid(), 0700);
		return;
	}
	make_dir(dirname(sockdir), 0, 0, 0755);
	make_dir(conf->sc_empty, 0, 0, 0755);
	/* A chroot with something in it is not the empty one we promise. */
	if ((dir = opendir(conf->sc_empty)) == NULL)
		fatal("%s", conf->sc_empty);
	while ((de = readdir(dir)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			fatalx("%s must be empty: it holds %s", conf->sc_empty,
			    de->d_name);
	closedir(dir);
	if ((pw = getpwnam(procs[PROC_JOURNAL].p_user)) == NULL)
		fatalx("user %s is missing (make install creates it)",
		    procs[PROC_JOURNAL].p_user);
	make_dir(conf->sc_store, pw->pw_uid, pw->pw_gid, 0700);
	if (getpwnam(procs[PROC_DOCKER].p_user) == NULL ||
	    getpwnam(procs[PROC_GIT].p_user) == NULL)
		fatalx("users %s and %s are needed (make install creates "
		    "them)", procs[PROC_DOCKER].p_user,
		    procs[PROC_GIT].p_user);
}

/*
 * The state directory, made when missing, whatever names the install
 * id: review's quarantine is made under it.  A plain user's spaced that
 * spaced.conf gave an install id had none, and every review died.
 */
static void
make_state(void)
{
	struct stat	 sb;

	if (conf->sc_state[0] == '\0')
		return;
	if (lstat(conf->sc_state, &sb) == -1) {
		if (errno != ENOENT)
			fatal("%s", conf->sc_state);
		make_dir(conf->sc_state, geteuid(), getegid(),
		    geteuid() == 0 ? 0755 : 0700);
	} else if (!S_ISDIR(sb.st_mode))
		fatalx("%s is not a directory", conf->sc_state);
}

/*
 * The install id: set in spaced.conf, or kept in <state>/install-id and
 * made there on the first start.  It is half of every owner label, so
 * two installs that share a Docker daemon never see each other's
 * spaces; it is no secret, but it must not change, nor be anyone's to
 * change but ours.
 */
static void
load_install_id(void)
{
	static const char	 hex[] = "0123456789abcdef";
	unsigned char		 rnd[SPACED_INSTALL_ID_LEN / 2];
	char			 path[PATH_MAX], buf[INSTALL_ID_MAX + 2];
	struct stat		 sb;
	ssize_t			 n;
	size_t			 i;
	int			 fd;

	make_state();
	if (conf->sc_install_id[0] != '\0')
		return;
	if (conf->sc_state[0] == '\0')
		fatalx("no state directory: set HOME, XDG_STATE_HOME, "
		    "\"state directory\" or \"install id\"");
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", conf->sc_state,
	    SPACED_INSTALL_ID_FILE) >= sizeof(path))
		fatalx("install id path too long");

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1) {
		if (errno != ENOENT)
			fatal("%s", path);
		arc4random_buf(rnd, sizeof(rnd));
		for (i = 0; i < sizeof(rnd); i++) {
			buf[2 * i] = hex[rnd[i] >> 4];
			buf[2 * i + 1] = hex[rnd[i] & 0xf];
		}
		buf[SPACED_INSTALL_ID_LEN] = '\n';
		/* O_EXCL: never over a file someone else just made. */
		if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0600)) == -1)
			fatal("%s", path);
		if (write(fd, buf, SPACED_INSTALL_ID_LEN + 1) !=
		    SPACED_INSTALL_ID_LEN + 1 || fsync(fd) == -1)
			fatal("%s", path);
		close(fd);
		buf[SPACED_INSTALL_ID_LEN] = '\0';
		strlcpy(conf->sc_install_id, buf, sizeof(conf->sc_install_id));
		log_info("%s: a new install id, %s", path, conf->sc_install_id);
		return;
	}
	if (fstat(fd, &sb) == -1)
		fatal("%s", path);
	if (!S_ISREG(sb.st_mode) || sb.st_uid != geteuid() ||
	    (sb.st_mode & 022) != 0)
		fatalx("%s: not a regular file of uid %u, writable by it "
		    "alone", path, (unsigned)geteuid());
	if ((n = read(fd, buf, sizeof(buf) - 1)) == -1)
		fatal("%s", path);
	close(fd);
	if (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	if (!install_id_valid(buf))
		fatalx("%s: not an install id (%d to %d lowercase hex "
		    "characters)", path, INSTALL_ID_MIN, INSTALL_ID_MAX);
	strlcpy(conf->sc_install_id, buf, sizeof(conf->sc_install_id));
	log_debug("%s: install id %s", path, conf->sc_install_id);
}

/* The router's, but for spaced-launch's answer to a reload. */
static void
route(enum procid from, struct imsg *imsg)
{
	if (from == PROC_LAUNCH && imsg_get_type(imsg) == IMSG_LAUNCH_CONF_REP)
		config_reload_file(imsg);
	else
		request_route(from, imsg);
}

static void
on_signal(int sig, short event, void *arg)
{
	pid_t	 pid;
	int	 status;

	switch (sig) {
	case SIGCHLD:
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			if (!workers_reaped(pid, status))
				continue;
			/* Without all its workers it cannot keep its word. */
			workers_stop();
			control_close();
			exit(3);
		}
		break;
	case SIGTERM:
	case SIGINT:
		log_info("exiting on signal %d", sig);
		collect_stop();
		control_close();
		workers_stop();
		exit(0);
	case SIGHUP:
		config_reload_signal();
		break;
	}
}

/* Until every worker said READY, spaced serves nobody. */
static void
wait_ready(int fd, short event, void *arg)
{
	if (workers_all_ready()) {
		event_base_loopbreak(env->env_base);
		return;
	}
}

int
main(int argc, char *argv[])
{
	struct event	 ev_chld, ev_term, ev_int, ev_hup, ev_ready;
	struct timeval	 tick = { 0, 10 * 1000 }, limit, start, now;
	const char	*file = NULL;
	char		 libexec[PATH_MAX];
	int		 ch, debug = 0, noaction = 0, verbose = 0;

	/* Before any open: a closed 0-2 would take our files and sockets. */
	if (stdfds_open() == -1)
		exit(1);
	/* Secrets pass through: freed memory zeroed, no core file. */
	zfree_install();
	zfree_no_core(0);
	env = spaced_env();
	conf = &env->env_conf;
	while ((ch = getopt(argc, argv, "df:nv")) != -1) {
		switch (ch) {
		case 'd':
			debug = 1;
			break;
		case 'f':
			file = optarg;
			break;
		case 'n':
			noaction = 1;
			break;
		case 'v':
			verbose++;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	load_config(file != NULL ? file : SPACED_CONF_ROOT, file != NULL);
	if (noaction) {
		config_print(conf, STDOUT_FILENO);
		fprintf(stderr, "configuration OK\n");
		exit(0);
	}

	log_init(debug, LOG_DAEMON);
	log_setverbose(verbose + debug);
	log_procinit("parent");
	/* Under systemd the service manager keeps us: no fork of our own. */
	if (!service_managed() && !debug && daemon(0, 0) == -1)
		fatal("daemon");
	signal(SIGPIPE, SIG_IGN);
	libexec_dir(libexec, sizeof(libexec));
	prepare_dirs();
	load_install_id();
	/* getgrnam may read files and NSS: now, before any filter. */
	control_docker_group(conf->sc_docker_group);
	runtime_open(libexec);
	tools_open(libexec);
	if (geteuid() == 0)
		kmsg_open();

	if ((env->env_base = event_base_new()) == NULL)
		fatalx("event_base_new");
	signal_set(&ev_chld, SIGCHLD, on_signal, NULL);
	signal_set(&ev_term, SIGTERM, on_signal, NULL);
	signal_set(&ev_int, SIGINT, on_signal, NULL);
	signal_set(&ev_hup, SIGHUP, on_signal, NULL);
	event_base_set(env->env_base, &ev_chld);
	event_base_set(env->env_base, &ev_term);
	event_base_set(env->env_base, &ev_int);
	event_base_set(env->env_base, &ev_hup);
	signal_add(&ev_chld, NULL);
	signal_add(&ev_term, NULL);
	signal_add(&ev_int, NULL);
	signal_add(&ev_hup, NULL);

	workers_start(conf, config_file(), env->env_base, libexec, debug,
	    verbose, route);

	/* Wait for READY from every worker, 10 s at most. */
	gettimeofday(&start, NULL);
	event_set(&ev_ready, -1, EV_PERSIST, wait_ready, NULL);
	event_base_set(env->env_base, &ev_ready);
	event_add(&ev_ready, &tick);
	while (!workers_all_ready()) {
		event_base_loop(env->env_base, EVLOOP_ONCE);
		gettimeofday(&now, NULL);
		timersub(&now, &start, &limit);
		if (limit.tv_sec >= 10)
			fatalx("workers did not start within 10 s");
	}
	event_del(&ev_ready);
	/* The place fills the runtime volume from these. */
	runtime_send();

	gitinst_init(env->env_base, events_emit);
	collect_init(env->env_base);
	disk_init(env->env_base);
	control_listen(conf->sc_socket, env->env_base, ops_table, ops_count);
	/* Everything that needs exec, fork or a new privilege is done. */
	/* Ready: the socket answers; said before the filter forbids it. */
	service_notify("READY=1");
	spaced_privdrop(conf);
	place_default_warn();
	log_info("started, workers confined");

	event_base_dispatch(env->env_base);
	control_close();
	workers_stop();
	return 1;
}
