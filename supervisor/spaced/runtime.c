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
 * The runtime relay and the hosts file every space binds, opened and
 * hashed at start, handed to spaced-docker as read-only fds once the
 * workers are READY; missing or not ours, create answers
 * runtime_missing (docs/notes/spaced-operations.md).
 */

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "log.h"
#include "spaced.h"

/* A static binary of ours is a few MiB; anything far larger is not it. */
#define RUNTIME_SIZE_MAX	(64ULL << 20)

static struct {
	int				 fd;
	int				 ca_fd;
	struct docker_runtime_msg	 msg;
	char				 hosts_path[SPACE_HOSTS_MAX];
	int				 hosts_fd;
} rt = {
	.fd = -1,
	.ca_fd = -1,
	.hosts_fd = -1,
};

/*
 * Whoever may write a folder on a file's path may put another file
 * there: each folder must be root's or ours, and written by no one else
 * unless sticky (then only the owner of an entry may move it, and each
 * entry on the path is root's or ours too).  real has no link or "..".
 */
static const char *
runtime_dirs_why(const char *real)
{
	char		 dir[PATH_MAX];
	struct stat	 sb;
	char		*slash;

	if (strlcpy(dir, real, sizeof(dir)) >= sizeof(dir) || dir[0] != '/')
		return "its path is not absolute";
	while ((slash = strrchr(dir, '/')) != NULL) {
		slash[slash == dir] = '\0';
		if (stat(dir, &sb) == -1 || !S_ISDIR(sb.st_mode))
			return "a folder on its path cannot be read";
		if ((sb.st_uid != 0 && sb.st_uid != geteuid()) ||
		    ((sb.st_mode & 022) != 0 && (sb.st_mode & S_ISVTX) == 0))
			return "others may write a folder on its path";
		if (slash == dir)
			break;
	}
	return NULL;
}

/*
 * A configured or installed file spaced reads for the workers: NULL when
 * fd (opened from path) is a regular file of root or ours that no one
 * else may write, in folders no one else may write; else why not.
 */
const char *
runtime_file_why(int fd, const char *path)
{
	char		 real[PATH_MAX];
	struct stat	 sb, at;

	if (realpath(path, real) == NULL || stat(real, &at) == -1 ||
	    fstat(fd, &sb) == -1 || sb.st_dev != at.st_dev ||
	    sb.st_ino != at.st_ino)
		return "it moved while it was opened";
	if (!S_ISREG(sb.st_mode))
		return "not a regular file";
	if ((sb.st_uid != 0 && sb.st_uid != geteuid()) ||
	    (sb.st_mode & 022) != 0)
		return "others may write it";
	return runtime_dirs_why(real);
}

/* gatekeeper/spaced-relay/space-hosts, as make installs it. */
static const char runtime_hosts_text[] =
    "127.0.0.1\tlocalhost\n"
    "::1\tlocalhost ip6-localhost ip6-loopback\n"
    "127.0.0.1\tgatekeeper\n";

/* Adds fd's bytes (at most max) to ctx; their count, or -1. */
static int64_t
hash_fd(EVP_MD_CTX *ctx, int fd, uint64_t max)
{
	unsigned char	 buf[64 * 1024];
	uint64_t	 off = 0;
	ssize_t		 n;

	/* pread: the offset the fd shares with its dups stays at 0. */
	for (;;) {
		if ((n = pread(fd, buf, sizeof(buf), (off_t)off)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		off += (uint64_t)n;
		if (off > max) {
			errno = EFBIG;
			return -1;
		}
		if (EVP_DigestUpdate(ctx, buf, (size_t)n) != 1)
			return -1;
	}
	if (off == 0) {
		errno = ENOEXEC;
		return -1;
	}
	return (int64_t)off;
}

int
runtime_hash(int fd, int ca_fd, char key[RUNTIME_KEY_LEN + 1],
    uint64_t *size, uint64_t *ca_size)
{
	static const char	 hex[] = "0123456789abcdef";
	/* Between the two: no relay's tail can pass for a bundle's head. */
	static const char	 sep[] = "\n-- spaced space ca bundle --\n";
	unsigned char		 md[EVP_MAX_MD_SIZE];
	unsigned int		 mdlen = 0;
	EVP_MD_CTX		*ctx;
	int64_t			 n, ca_n = 0;
	int			 i, rc = -1;

	if ((ctx = EVP_MD_CTX_new()) == NULL)
		return -1;
	if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1 ||
	    (n = hash_fd(ctx, fd, RUNTIME_SIZE_MAX)) == -1)
		goto done;
	/* Without a bundle the key is the relay's alone, as it was. */
	if (ca_fd != -1 && (EVP_DigestUpdate(ctx, sep, sizeof(sep) - 1) != 1 ||
	    (ca_n = hash_fd(ctx, ca_fd, RUNTIME_CA_MAX)) == -1))
		goto done;
	if (EVP_DigestFinal_ex(ctx, md, &mdlen) != 1 ||
	    mdlen * 2 < RUNTIME_KEY_LEN)
		goto done;
	for (i = 0; i < RUNTIME_KEY_LEN / 2; i++) {
		key[2 * i] = hex[md[i] >> 4];
		key[2 * i + 1] = hex[md[i] & 0xf];
	}
	key[RUNTIME_KEY_LEN] = '\0';
	*size = (uint64_t)n;
	*ca_size = (uint64_t)ca_n;
	rc = 0;
 done:
	EVP_MD_CTX_free(ctx);
	return rc;
}

/* 1 if fd holds exactly the hosts text and only its owner may write. */
static int
runtime_hosts_usable(int fd)
{
	char		 buf[sizeof(runtime_hosts_text)];
	struct stat	 sb;
	ssize_t		 n;

	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    (sb.st_uid != 0 && sb.st_uid != geteuid()) ||
	    (sb.st_mode & 022) != 0 ||
	    sb.st_size != (off_t)sizeof(runtime_hosts_text) - 1)
		return 0;
	n = pread(fd, buf, sizeof(buf), 0);
	return n == (ssize_t)sizeof(runtime_hosts_text) - 1 &&
	    memcmp(buf, runtime_hosts_text, (size_t)n) == 0;
}

static void
runtime_hosts_open(const char *libexec)
{
	char		 path[PATH_MAX], real[PATH_MAX];
	const char	*why;
	int		 fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", libexec,
	    SPACED_HOSTS_FILE) >= sizeof(path))
		return;
	/* The engine binds a path: the one with no link or ".." in it. */
	if (realpath(path, real) == NULL) {
		log_warn("runtime: %s (space create will answer %s)", path,
		    "runtime_missing");
		return;
	}
	if (strlen(real) >= sizeof(rt.hosts_path)) {
		log_warnx("runtime: %s: path too long", real);
		return;
	}
	if ((fd = open(real, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1) {
		log_warn("runtime: %s", real);
		return;
	}
	if (!runtime_hosts_usable(fd)) {
		log_warnx("runtime: %s is not the hosts file of this build, "
		    "or others may write it (space create will answer %s)",
		    real, "runtime_missing");
		close(fd);
		return;
	}
	if ((why = runtime_dirs_why(real)) != NULL) {
		log_warnx("runtime: %s: %s (space create will answer %s)",
		    real, why, "runtime_missing");
		close(fd);
		return;
	}
	rt.hosts_fd = fd;
	strlcpy(rt.hosts_path, real, sizeof(rt.hosts_path));
}

/*
 * The engine binds the hosts file by path at each create: held open
 * since start, it is the same file at that path, and still this build's
 * text, at every create too; else "" (create answers runtime_missing).
 */
const char *
runtime_hosts(void)
{
	struct stat	 sb, at;

	if (rt.hosts_fd == -1)
		return "";
	if (lstat(rt.hosts_path, &at) == -1 || fstat(rt.hosts_fd, &sb) == -1 ||
	    sb.st_dev != at.st_dev || sb.st_ino != at.st_ino ||
	    !runtime_hosts_usable(rt.hosts_fd)) {
		log_warnx("runtime: %s changed since start (space create "
		    "answers %s)", rt.hosts_path, "runtime_missing");
		return "";
	}
	return rt.hosts_path;
}

/*
 * The space CA bundle of spaced.conf: a regular file of PEM
 * certificates, at most RUNTIME_CA_MAX bytes; its fd, or -1 (logged).
 */
static int
runtime_ca_open(const char *path)
{
	static const char	 pem[] = "-----BEGIN CERTIFICATE-----";
	char			 head[64 * 1024 + 1];
	const char		*why;
	struct stat		 sb;
	ssize_t			 n;
	int			 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) == -1) {
		log_warn("runtime: space ca bundle %s", path);
		return -1;
	}
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) || sb.st_size <= 0 ||
	    (uint64_t)sb.st_size > RUNTIME_CA_MAX ||
	    (n = pread(fd, head, sizeof(head) - 1, 0)) <= 0) {
		log_warnx("runtime: space ca bundle %s: not a regular file of "
		    "1 to %u bytes", path, RUNTIME_CA_MAX);
		close(fd);
		return -1;
	}
	head[n] = '\0';
	if ((why = runtime_file_why(fd, path)) != NULL) {
		log_warnx("runtime: space ca bundle %s: %s", path, why);
		close(fd);
		return -1;
	}
	if (strstr(head, pem) == NULL) {
		log_warnx("runtime: space ca bundle %s: no \"%s\" in its "
		    "first %zd bytes", path, pem, n);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The relay, and the space CA bundle when spaced.conf names one: both
 * or nothing, so that a space never comes up without the trust its
 * configuration promised (create answers runtime_missing).
 */
void
runtime_open(const char *libexec)
{
	const struct spaced_conf	*conf = spaced_config();
	char				 path[PATH_MAX];
	struct stat			 sb;
	int				 fd, ca = -1;

	runtime_hosts_open(libexec);
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", libexec,
	    SPACED_RELAY_BINARY) >= sizeof(path)) {
		log_warnx("runtime: relay path too long");
		return;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) == -1) {
		log_warn("runtime: %s (space create will answer %s)", path,
		    "runtime_missing");
		return;
	}
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode)) {
		log_warnx("runtime: %s is not a regular file", path);
		close(fd);
		return;
	}
	if (conf->sc_space_ca[0] != '\0' &&
	    (ca = runtime_ca_open(conf->sc_space_ca)) == -1) {
		log_warnx("runtime: space create will answer %s",
		    "runtime_missing");
		close(fd);
		return;
	}
	memset(&rt.msg, 0, sizeof(rt.msg));
	if (runtime_hash(fd, ca, rt.msg.dr_key, &rt.msg.dr_size,
	    &rt.msg.dr_ca_size) == -1) {
		log_warn("runtime: %s%s%s: cannot hash it", path,
		    ca != -1 ? " or " : "", ca != -1 ? conf->sc_space_ca : "");
		close(fd);
		if (ca != -1)
			close(ca);
		memset(&rt.msg, 0, sizeof(rt.msg));
		return;
	}
	rt.fd = fd;
	rt.ca_fd = ca;
	log_info("runtime: %s, key %s, %llu bytes", path, rt.msg.dr_key,
	    (unsigned long long)rt.msg.dr_size);
	if (ca != -1)
		log_info("runtime: space ca bundle %s, %llu bytes",
		    conf->sc_space_ca,
		    (unsigned long long)rt.msg.dr_ca_size);
}

const char *
runtime_key(void)
{
	return rt.msg.dr_key;
}

/* To spaced-docker, once READY: dups, so ours stay for a next. */
void
runtime_send(void)
{
	struct docker_runtime_ca_msg	 dca;
	int				 fd;

	if (rt.fd == -1)
		return;
	if (rt.ca_fd != -1) {
		memset(&dca, 0, sizeof(dca));
		dca.dca_size = rt.msg.dr_ca_size;
		if ((fd = fcntl(rt.ca_fd, F_DUPFD_CLOEXEC, 0)) == -1) {
			log_warn("runtime: dup");
			return;
		}
		if (worker_compose(PROC_DOCKER, IMSG_DOCKER_RUNTIME_CA, 0, fd,
		    &dca, sizeof(dca)) == -1) {
			log_warn("runtime: to %s", procs[PROC_DOCKER].p_binary);
			return;
		}
	}
	if ((fd = fcntl(rt.fd, F_DUPFD_CLOEXEC, 0)) == -1) {
		log_warn("runtime: dup");
		return;
	}
	if (worker_compose(PROC_DOCKER, IMSG_DOCKER_RUNTIME, 0, fd,
	    &rt.msg, sizeof(rt.msg)) == -1)
		log_warn("runtime: to %s", procs[PROC_DOCKER].p_binary);
}
