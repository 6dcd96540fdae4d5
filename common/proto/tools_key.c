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
 * The tools volume's content key and name.  Pure but for
 * tools_sha256_fd, which reads the fd it is given (spaced hashes the
 * filler program and each packed tarball once, at start).
 */

#include <sys/types.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/sha.h>

#include "labels.h"
#include "tools_key.h"

static const char	 hex_digits[] = "0123456789abcdef";

static void
to_hex(const unsigned char *md, size_t n, char *out)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		out[2 * i] = hex_digits[md[i] >> 4];
		out[2 * i + 1] = hex_digits[md[i] & 0xf];
	}
	out[2 * n] = '\0';
}

static int
sha_hex_valid(const char *s)
{
	return strlen(s) == SHA256_HEX_LEN &&
	    strspn(s, hex_digits) == SHA256_HEX_LEN;
}

/* As config.c takes an image: printable ASCII without spaces. */
static int
image_valid(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (*s <= ' ' || *s > '~')
			return 0;
	return 1;
}

static int
package_cmp(const void *a, const void *b)
{
	const struct agent_package	*const *pa = a, *const *pb = b;

	return strcmp((*pa)->ap_name, (*pb)->ap_name);
}

/* Appends to buf at *off; -1 once it does not fit. */
static int
put(char *buf, size_t len, size_t *off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
put(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	if (*off >= len)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *off)
		return -1;
	*off += (size_t)n;
	return 0;
}

/*
 * The canonical description, NUL-terminated: a line for the format,
 * then every package sorted by name ("package NAME VERSION", or for a
 * tarball "packed NAME VERSION sha256:HEX"), the install script
 * ("postinstall PACKAGE SCRIPT" or "postinstall -"), each binary and its
 * check's words, "revision R" when set, "image REF", "filler
 * sha256:HEX".  Only what changes the volume's content is in it: the
 * serve command, the port and readiness are not.  Returns its length,
 * or -1 when the profile is not valid, a tarball was not hashed yet, the
 * image or hash is bad, or buf is short.
 */
int
tools_describe(const struct agent_profile *ag, const char *image,
    const char *filler_sha256, char *buf, size_t len)
{
	const struct agent_package	*sorted[AGENT_PACKAGES_MAX];
	const struct agent_package	*ap;
	const struct agent_bin		*ab;
	size_t				 off = 0;
	uint32_t			 i, j;

	if (agent_profile_check(ag) != NULL || !image_valid(image) ||
	    !sha_hex_valid(filler_sha256))
		return -1;
	for (i = 0; i < ag->ag_npackages; i++) {
		sorted[i] = &ag->ag_packages[i];
		/* A tarball's content is its hash: unread, there is no key. */
		if (sorted[i]->ap_tarball[0] != '\0' &&
		    sorted[i]->ap_sha256[0] == '\0')
			return -1;
	}
	/* The order of the configuration is no part of the content. */
	qsort(sorted, ag->ag_npackages, sizeof(sorted[0]), package_cmp);
	if (put(buf, len, &off, "%s\n", TOOLS_DESC_VERSION) == -1)
		return -1;
	for (i = 0; i < ag->ag_npackages; i++) {
		ap = sorted[i];
		if ((ap->ap_tarball[0] == '\0' ? put(buf, len, &off,
		    "package %s %s\n", ap->ap_name, ap->ap_version) :
		    put(buf, len, &off, "packed %s %s sha256:%s\n",
		    ap->ap_name, ap->ap_version, ap->ap_sha256)) == -1)
			return -1;
	}
	if ((ag->ag_post_package[0] == '\0' ? put(buf, len, &off,
	    "postinstall -\n") : put(buf, len, &off, "postinstall %s %s\n",
	    ag->ag_post_package, ag->ag_post_script)) == -1)
		return -1;
	for (i = 0; i < ag->ag_nbins; i++) {
		ab = &ag->ag_bins[i];
		if (put(buf, len, &off, "binary %s", ab->ab_name) == -1)
			return -1;
		for (j = 0; j < ab->ab_nargs; j++)
			if (put(buf, len, &off, " %s", ab->ab_args[j]) == -1)
				return -1;
		if (put(buf, len, &off, "\n") == -1)
			return -1;
	}
	if (ag->ag_revision[0] != '\0' && put(buf, len, &off,
	    "revision %s\n", ag->ag_revision) == -1)
		return -1;
	if (put(buf, len, &off, "image %s\nfiller sha256:%s\n", image,
	    filler_sha256) == -1)
		return -1;
	return (int)off;
}

void
tools_sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_LEN + 1])
{
	unsigned char	 md[SHA256_DIGEST_LENGTH];

	SHA256(data, len, md);
	to_hex(md, sizeof(md), hex);
}

int
tools_key(const struct agent_profile *ag, const char *image,
    const char *filler_sha256, char key[TOOLS_KEY_LEN + 1])
{
	char	 desc[TOOLS_DESC_MAX], hex[SHA256_HEX_LEN + 1];
	int	 n;

	if ((n = tools_describe(ag, image, filler_sha256, desc,
	    sizeof(desc))) == -1)
		return -1;
	tools_sha256_hex(desc, (size_t)n, hex);
	memcpy(key, hex, TOOLS_KEY_LEN);
	key[TOOLS_KEY_LEN] = '\0';
	return 0;
}

int
tools_key_valid(const char *s)
{
	return strlen(s) == TOOLS_KEY_LEN &&
	    strspn(s, hex_digits) == TOOLS_KEY_LEN;
}

int
tools_volume_name(char *buf, size_t len, const char *install, uid_t uid,
    const char *key)
{
	int	 n;

	/* Docker's names take no ':', so not the owner label's form. */
	if (!install_id_valid(install) || !tools_key_valid(key))
		return -1;
	n = snprintf(buf, len, "spaced-tools-%s-%lu-%s", install,
	    (unsigned long)uid, key);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int
tools_sha256_fd(int fd, uint64_t max, char hex[SHA256_HEX_LEN + 1],
    uint64_t *size)
{
	unsigned char	 buf[64 * 1024], md[EVP_MAX_MD_SIZE];
	unsigned int	 mdlen = 0;
	EVP_MD_CTX	*ctx;
	uint64_t	 off = 0;
	ssize_t		 n;
	int		 rc = -1;

	if ((ctx = EVP_MD_CTX_new()) == NULL)
		return -1;
	if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1)
		goto done;
	/* pread: the offset the fd shares with its dups stays put. */
	for (;;) {
		if ((n = pread(fd, buf, sizeof(buf), (off_t)off)) == -1) {
			if (errno == EINTR)
				continue;
			goto done;
		}
		if (n == 0)
			break;
		off += (uint64_t)n;
		if (off > max) {
			errno = EFBIG;
			goto done;
		}
		if (EVP_DigestUpdate(ctx, buf, (size_t)n) != 1)
			goto done;
	}
	if (EVP_DigestFinal_ex(ctx, md, &mdlen) != 1 ||
	    mdlen != SHA256_DIGEST_LENGTH)
		goto done;
	to_hex(md, mdlen, hex);
	*size = off;
	rc = 0;
 done:
	EVP_MD_CTX_free(ctx);
	return rc;
}
