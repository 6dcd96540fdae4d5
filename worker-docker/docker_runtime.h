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

#ifndef SPACED_DOCKER_RUNTIME_H
#define SPACED_DOCKER_RUNTIME_H

/*
 * The runtime volume's content: the relay spaced passed, the space CA
 * bundle when spaced.conf names one, and the marker after them, as tar
 * archives; and which fill is under way, shared by every create of this
 * worker, so concurrent creates fill the volume once.
 */

#include <stddef.h>
#include <stdint.h>

#include "place_proto.h"

#define RUNTIME_RELAY_NAME	"spaced-relay"
#define RUNTIME_MARKER_NAME	".spaced-runtime"
#define RUNTIME_CA_NAME		"ca-certificates.crt"
#define RUNTIME_RELAY_MAX	(16 * 1024 * 1024)

/* The messages from spaced: take fd.  -1 when it is not acceptable. */
int		 docker_runtime_set_ca(const struct docker_runtime_ca_msg *,
		    int fd);
int		 docker_runtime_set(const struct docker_runtime_msg *, int fd);
/* 1 when the current runtime holds a space CA bundle. */
int		 docker_runtime_has_ca(void);
/* The key of the relay we hold, or NULL before spaced sent it. */
const char	*docker_runtime_key(void);

/*
 * The fill as a tar archive: the relay (mode 0755) and the CA bundle
 * (0444) when there is one; the marker (0444) goes alone, after it.
 */
uint8_t		*docker_runtime_fill_tar(size_t *len);
uint8_t		*docker_runtime_marker_tar(size_t *len);

/* Fill state of the current key: ready, or which request holds it. */
int		 docker_runtime_ready(const char *key);
void		 docker_runtime_set_ready(const char *key, int ready);
/* 1 when taken by peerid now (or already), 0 when another holds it. */
int		 docker_runtime_take(uint32_t peerid);
void		 docker_runtime_release(uint32_t peerid);

/*
 * 1 when the archive of GET .../archive?path=<dir>/spaced-relay holds
 * exactly our relay (a regular file of that name, our bytes), else 0.
 */
int		 docker_runtime_relay_matches(const uint8_t *tar, size_t len);
/* The same for .../ca-certificates.crt and our CA bundle. */
int		 docker_runtime_ca_matches(const uint8_t *tar, size_t len);

/*
 * Pure: the first regular file of a tar archive (PAX and GNU long-name
 * headers skipped): 1 when it is called name and holds want[0..wlen),
 * 0 when not, -1 when the archive is malformed.
 */
int		 tar_first_file_equals(const uint8_t *tar, size_t len,
		    const char *name, const uint8_t *want, size_t wlen);

/*
 * Pure: files as one tar archive (ustar; root owned unless tf_uid, a
 * folder when tf_dir).
 */
struct tar_file {
	const char	*tf_name;
	unsigned int	 tf_mode;
	const uint8_t	*tf_data;
	size_t		 tf_len;
	uint32_t	 tf_uid;	/* and gid */
	int		 tf_dir;
};
uint8_t		*tar_files(const struct tar_file *, size_t n, size_t *outlen);
uint8_t		*tar_one_file(const char *name, unsigned int mode,
		    const uint8_t *data, size_t len, size_t *outlen);

#endif /* SPACED_DOCKER_RUNTIME_H */
