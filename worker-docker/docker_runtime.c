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
#include "docker_runtime.h"

#define TAR_BLOCK	512

static int		 relay_fd = -1;
static uint64_t		 relay_size;
static char		 relay_key[RUNTIME_KEY_LEN + 1];
static char		 ready_key[RUNTIME_KEY_LEN + 1];
static uint32_t		 fill_holder;	/* 0: nobody */

int
docker_runtime_set(const struct docker_runtime_msg *dr, int fd)
{
	struct stat	 sb;

	if (memchr(dr->dr_key, '\0', sizeof(dr->dr_key)) == NULL ||
	    !runtime_key_valid(dr->dr_key) || fd == -1 ||
	    fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    (uint64_t)sb.st_size != dr->dr_size ||
	    dr->dr_size == 0 || dr->dr_size > RUNTIME_RELAY_MAX) {
		if (fd != -1)
			close(fd);
		return -1;
	}
	if (relay_fd != -1)
		close(relay_fd);
	relay_fd = fd;
	relay_size = dr->dr_size;
	strlcpy(relay_key, dr->dr_key, sizeof(relay_key));
	return 0;
}

const char *
docker_runtime_key(void)
{
	return relay_fd == -1 ? NULL : relay_key;
}

int
docker_runtime_ready(const char *key)
{
	return ready_key[0] != '\0' && strcmp(ready_key, key) == 0;
}

void
docker_runtime_set_ready(const char *key, int ready)
{
	if (ready)
		strlcpy(ready_key, key, sizeof(ready_key));
	else if (strcmp(ready_key, key) == 0)
		ready_key[0] = '\0';
}

int
docker_runtime_take(uint32_t peerid)
{
	if (fill_holder != 0 && fill_holder != peerid)
		return 0;
	fill_holder = peerid;
	return 1;
}

void
docker_runtime_release(uint32_t peerid)
{
	if (fill_holder == peerid)
		fill_holder = 0;
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

static uint8_t *
tar_entry(const char *name, unsigned int mode, char type, unsigned int id,
    const uint8_t *data, size_t len, size_t *outlen)
{
	uint8_t		*t, *h;
	size_t		 padded, total, i;
	unsigned int	 sum = 0;

	if (strlen(name) >= 100)
		return NULL;
	padded = (len + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
	/* header, content, and the two zero blocks that end an archive */
	total = TAR_BLOCK + padded + 2 * TAR_BLOCK;
	if ((t = calloc(1, total)) == NULL)
		return NULL;
	h = t;
	memcpy(h, name, strlen(name));
	octal((char *)h + 100, 8, mode);
	octal((char *)h + 108, 8, id);
	octal((char *)h + 116, 8, id);
	octal((char *)h + 124, 12, len);
	octal((char *)h + 136, 12, 0);
	h[156] = type;
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	for (i = 0; i < TAR_BLOCK; i++)
		sum += h[i];
	octal((char *)h + 148, 7, sum);
	h[155] = ' ';
	if (len > 0)
		memcpy(t + TAR_BLOCK, data, len);
	*outlen = total;
	return t;
}

uint8_t *
tar_one_file(const char *name, unsigned int mode, const uint8_t *data,
    size_t len, size_t *outlen)
{
	return tar_entry(name, mode, '0', 0, data, len, outlen);
}

/* The relay's bytes, read from spaced's fd; the caller frees them. */
static uint8_t *
relay_bytes(void)
{
	uint8_t		*buf;
	size_t		 off = 0;
	ssize_t		 n;

	if (relay_fd == -1 || (buf = malloc(relay_size)) == NULL)
		return NULL;
	while (off < relay_size) {
		n = pread(relay_fd, buf + off, relay_size - off, off);
		if (n <= 0) {
			log_warn("runtime: reading the relay");
			free(buf);
			return NULL;
		}
		off += n;
	}
	return buf;
}

uint8_t *
docker_runtime_relay_tar(size_t *len)
{
	uint8_t		*buf, *tar;

	if ((buf = relay_bytes()) == NULL)
		return NULL;
	tar = tar_one_file(RUNTIME_RELAY_NAME, 0755, buf, relay_size, len);
	free(buf);
	return tar;
}

int
docker_runtime_relay_matches(const uint8_t *tar, size_t len)
{
	uint8_t		*buf;
	int		 rv;

	if ((buf = relay_bytes()) == NULL)
		return 0;
	rv = tar_first_file_equals(tar, len, RUNTIME_RELAY_NAME, buf,
	    relay_size);
	free(buf);
	return rv == 1;
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

	if (relay_fd == -1)
		return NULL;
	snprintf(line, sizeof(line), "%s\n", relay_key);
	return tar_one_file(RUNTIME_MARKER_NAME, 0444, (uint8_t *)line,
	    strlen(line), len);
}
