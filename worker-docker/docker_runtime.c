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
#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "labels.h"
#include "log.h"
#include "docker_env.h"
#include "docker_runtime.h"

#define TAR_BLOCK	512


/* 1 when fd is a regular file of exactly size bytes, 1 to max. */
static int
fd_sized(int fd, uint64_t size, uint64_t max)
{
	struct stat	 sb;

	return fd != -1 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    (uint64_t)sb.st_size == size && size > 0 && size <= max;
}

static void
close_ca(int *fd)
{
	if (*fd != -1)
		close(*fd);
	*fd = -1;
}

int
docker_runtime_set_ca(const struct docker_runtime_ca_msg *dca, int fd)
{
	if (!fd_sized(fd, dca->dca_size, RUNTIME_CA_MAX)) {
		if (fd != -1)
			close(fd);
		return -1;
	}
	close_ca(&env->de_ca_next_fd);
	env->de_ca_next_fd = fd;
	env->de_ca_next_size = dca->dca_size;
	return 0;
}

int
docker_runtime_set(const struct docker_runtime_msg *dr, int fd)
{
	if (memchr(dr->dr_key, '\0', sizeof(dr->dr_key)) == NULL ||
	    !runtime_key_valid(dr->dr_key) ||
	    !fd_sized(fd, dr->dr_size, RUNTIME_RELAY_MAX) ||
	    (dr->dr_ca_size != 0 && (env->de_ca_next_fd == -1 ||
	    env->de_ca_next_size != dr->dr_ca_size))) {
		if (fd != -1)
			close(fd);
		close_ca(&env->de_ca_next_fd);
		return -1;
	}
	if (env->de_relay_fd != -1)
		close(env->de_relay_fd);
	env->de_relay_fd = fd;
	env->de_relay_size = dr->dr_size;
	strlcpy(env->de_relay_key, dr->dr_key, sizeof(env->de_relay_key));
	/* The key covers the bundle: a new one comes with a new relay msg. */
	close_ca(&env->de_ca_fd);
	if (dr->dr_ca_size != 0) {
		env->de_ca_fd = env->de_ca_next_fd;
		env->de_ca_size = env->de_ca_next_size;
		env->de_ca_next_fd = -1;
	} else
		close_ca(&env->de_ca_next_fd);
	return 0;
}

int
docker_runtime_has_ca(void)
{
	return env->de_relay_fd != -1 && env->de_ca_fd != -1;
}

const char *
docker_runtime_key(void)
{
	return env->de_relay_fd == -1 ? NULL : env->de_relay_key;
}

int
docker_runtime_ready(const char *key)
{
	return env->de_ready_key[0] != '\0' &&
	    strcmp(env->de_ready_key, key) == 0;
}

void
docker_runtime_set_ready(const char *key, int ready)
{
	if (ready)
		strlcpy(env->de_ready_key, key, sizeof(env->de_ready_key));
	else if (strcmp(env->de_ready_key, key) == 0)
		env->de_ready_key[0] = '\0';
}

int
docker_runtime_take(uint32_t peerid)
{
	if (env->de_fill_holder != 0 && env->de_fill_holder != peerid)
		return 0;
	env->de_fill_holder = peerid;
	return 1;
}

void
docker_runtime_release(uint32_t peerid)
{
	if (env->de_fill_holder == peerid)
		env->de_fill_holder = 0;
}

/* len - 1 octal digits and a NUL, as ustar writes them. */
static void
octal(char *dst, size_t len, uint64_t v)
{
	size_t	 i;

	dst[len - 1] = '\0';
	for (i = len - 1; i > 0; i--) {
		dst[i - 1] = '0' + (v & 7);
		v >>= 3;
	}
}

/*
 * An id: octal where it fits, else GNU's base-256 (a set high bit, the
 * number big-endian), which the engine's archive/tar reads.
 */
static void
tar_id(uint8_t *dst, uint32_t v)
{
	if (v <= 07777777) {
		octal((char *)dst, 8, v);
		return;
	}
	memset(dst, 0, 8);
	dst[0] = 0x80;
	dst[4] = v >> 24;
	dst[5] = v >> 16;
	dst[6] = v >> 8;
	dst[7] = v;
}

/* One ustar header for a file or folder into h. */
static int
tar_header(uint8_t *h, const struct tar_file *f)
{
	unsigned int	 sum = 0;
	size_t		 i;

	if (strlen(f->tf_name) >= 100)
		return -1;
	memcpy(h, f->tf_name, strlen(f->tf_name));
	octal((char *)h + 100, 8, f->tf_mode);
	tar_id(h + 108, f->tf_uid);
	tar_id(h + 116, f->tf_uid);
	octal((char *)h + 124, 12, f->tf_dir ? 0 : f->tf_len);
	octal((char *)h + 136, 12, 0);
	h[156] = f->tf_dir ? '5' : '0';
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	for (i = 0; i < TAR_BLOCK; i++)
		sum += h[i];
	octal((char *)h + 148, 7, sum);
	h[155] = ' ';
	return 0;
}

static size_t
padded(size_t len)
{
	return (len + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
}

uint8_t *
tar_files(const struct tar_file *f, size_t n, size_t *outlen)
{
	uint8_t		*t;
	size_t		 i, off = 0, total = 2 * TAR_BLOCK;

	/* headers, contents, and the two zero blocks that end an archive */
	for (i = 0; i < n; i++) {
		if (f[i].tf_len > SIZE_MAX / 2 - total - TAR_BLOCK)
			return NULL;
		total += TAR_BLOCK + padded(f[i].tf_len);
	}
	if ((t = calloc(1, total)) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if (tar_header(t + off, &f[i]) == -1) {
			free(t);
			return NULL;
		}
		off += TAR_BLOCK;
		if (f[i].tf_len > 0)
			memcpy(t + off, f[i].tf_data, f[i].tf_len);
		off += padded(f[i].tf_len);
	}
	*outlen = total;
	return t;
}

uint8_t *
tar_one_file(const char *name, unsigned int mode, const uint8_t *data,
    size_t len, size_t *outlen)
{
	const struct tar_file	 f = { name, mode, data, len, 0, 0 };

	return tar_files(&f, 1, outlen);
}

/* A file's bytes, read from spaced's fd; the caller frees them. */
static uint8_t *
file_bytes(int fd, uint64_t size)
{
	uint8_t		*buf;
	size_t		 off = 0;
	ssize_t		 n;

	if (fd == -1 || (buf = malloc(size)) == NULL)
		return NULL;
	while (off < size) {
		n = pread(fd, buf + off, size - off, off);
		if (n <= 0) {
			log_warn("runtime: reading spaced's file");
			free(buf);
			return NULL;
		}
		off += n;
	}
	return buf;
}

uint8_t *
docker_runtime_fill_tar(size_t *len)
{
	struct tar_file	 f[2];
	uint8_t		*relay, *ca = NULL, *tar;
	size_t		 n = 1;

	if ((relay = file_bytes(env->de_relay_fd, env->de_relay_size)) == NULL)
		return NULL;
	f[0] = (struct tar_file){ RUNTIME_RELAY_NAME, 0755, relay,
	    env->de_relay_size, 0, 0 };
	if (env->de_ca_fd != -1) {
		if ((ca = file_bytes(env->de_ca_fd, env->de_ca_size)) == NULL) {
			free(relay);
			return NULL;
		}
		f[n++] = (struct tar_file){ RUNTIME_CA_NAME, 0444, ca,
		    env->de_ca_size, 0, 0 };
	}
	tar = tar_files(f, n, len);
	free(relay);
	free(ca);
	return tar;
}

/* 1 when the archive holds exactly our file of that name (fd, size). */
static int
file_matches(int fd, uint64_t size, const char *name, const uint8_t *tar,
    size_t len)
{
	uint8_t		*buf;
	int		 rv;

	if ((buf = file_bytes(fd, size)) == NULL)
		return 0;
	rv = tar_first_file_equals(tar, len, name, buf, size);
	free(buf);
	return rv == 1;
}

int
docker_runtime_relay_matches(const uint8_t *tar, size_t len)
{
	return file_matches(env->de_relay_fd, env->de_relay_size,
	    RUNTIME_RELAY_NAME, tar, len);
}

int
docker_runtime_ca_matches(const uint8_t *tar, size_t len)
{
	return file_matches(env->de_ca_fd, env->de_ca_size, RUNTIME_CA_NAME,
	    tar, len);
}

/* An octal field of a header; -1 when it is not one. */
static int64_t
tar_octal(const uint8_t *f, size_t len)
{
	int64_t	 v = 0;
	size_t	 i = 0;

	while (i < len && f[i] == ' ')
		i++;
	if (i == len || f[i] < '0' || f[i] > '7')
		return -1;
	for (; i < len && f[i] >= '0' && f[i] <= '7'; i++) {
		if (v > (INT64_MAX >> 3))
			return -1;
		v = v * 8 + (f[i] - '0');
	}
	for (; i < len; i++)
		if (f[i] != ' ' && f[i] != '\0')
			return -1;
	return v;
}

int
tar_first_file_equals(const uint8_t *tar, size_t len, const char *name,
    const uint8_t *want, size_t wlen)
{
	const uint8_t	*h;
	size_t		 off = 0, nlen = strlen(name), padded;
	int64_t		 size;
	int		 headers = 0;

	while (len - off >= TAR_BLOCK) {
		h = tar + off;
		if (h[0] == '\0')
			return 0;	/* the end: no file at all */
		if (memcmp(h + 257, "ustar", 5) != 0 ||
		    (size = tar_octal(h + 124, 12)) < 0 || ++headers > 8)
			return -1;
		off += TAR_BLOCK;
		padded = ((uint64_t)size + TAR_BLOCK - 1) / TAR_BLOCK *
		    TAR_BLOCK;
		if ((uint64_t)size > len - off || padded > len - off)
			return -1;
		switch (h[156]) {
		case 'x':	/* PAX, for the next one */
		case 'g':	/* PAX global */
		case 'L':	/* GNU long name */
			off += padded;
			continue;
		case '0':
		case '\0':
			break;
		default:
			return 0;	/* a directory, a link: not our file */
		}
		return memchr(h, '\0', 100) != NULL && strlen((const char *)h) ==
		    nlen && memcmp(h, name, nlen) == 0 &&
		    (uint64_t)size == wlen && memcmp(tar + off, want, wlen) == 0;
	}
	return -1;
}

uint8_t *
docker_runtime_marker_tar(size_t *len)
{
	char	 line[RUNTIME_KEY_LEN + 2];

	if (env->de_relay_fd == -1)
		return NULL;
	snprintf(line, sizeof(line), "%s\n", env->de_relay_key);
	return tar_one_file(RUNTIME_MARKER_NAME, 0444, (uint8_t *)line,
	    strlen(line), len);
}
