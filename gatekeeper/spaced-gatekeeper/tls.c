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
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "log.h"
#include "gatekeeper.h"

/*
 * The window's TLS context, made on the first https request.  Setting up
 * OpenSSL costs more memory than everything else an idle gatekeeper
 * holds, and most spaces never use an https grant, so at start only the
 * trust store's bytes are read (SSL_CERT_FILE, else OpenSSL's default
 * file): the sandbox opens no file later.  Hashed directories
 * (SSL_CERT_DIR) cannot be read under the sandbox and are not used.
 */

#define TLS_CA_MAX	(8 * 1024 * 1024)

void
tls_preload(void)
{
	const char	*path;
	struct stat	 st;
	void		*p;
	int		 fd;

	if ((path = getenv(X509_get_default_cert_file_env())) == NULL)
		path = X509_get_default_cert_file();
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		log_warn("trust store %s", path);
		return;
	}
	/* Mapped, not read: no page is resident until the first use. */
	if (fstat(fd, &st) == -1 || st.st_size <= 0 ||
	    st.st_size > TLS_CA_MAX || (p = mmap(NULL, st.st_size, PROT_READ,
	    MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		log_warnx("trust store %s: unusable", path);
		close(fd);
		return;
	}
	close(fd);
	gk->gk_tls_ca = p;
	gk->gk_tls_calen = st.st_size;
}

static void
tls_load_store(X509_STORE *store)
{
	BIO	*bio;
	X509	*x;
	int	 n = 0;

	if (gk->gk_tls_ca == NULL)
		return;
	if ((bio = BIO_new_mem_buf(gk->gk_tls_ca,
	    (int)gk->gk_tls_calen)) == NULL)
		return;
	while ((x = PEM_read_bio_X509(bio, NULL, NULL, NULL)) != NULL) {
		if (X509_STORE_add_cert(store, x) == 1)
			n++;
		X509_free(x);
	}
	ERR_clear_error();
	BIO_free(bio);
	munmap(gk->gk_tls_ca, gk->gk_tls_calen);
	gk->gk_tls_ca = NULL;
	gk->gk_tls_calen = 0;
	log_debug("trust store: %d certificates", n);
}

SSL_CTX *
tls_context(void)
{
	if (gk->gk_tls_ctx != NULL)
		return gk->gk_tls_ctx;
	/* No openssl.cnf: the sandbox would refuse to open it anyway. */
	OPENSSL_init_ssl(OPENSSL_INIT_NO_LOAD_CONFIG, NULL);
	if ((gk->gk_tls_ctx = SSL_CTX_new(TLS_client_method())) == NULL)
		return NULL;
	tls_load_store(SSL_CTX_get_cert_store(gk->gk_tls_ctx));
	SSL_CTX_set_verify(gk->gk_tls_ctx, SSL_VERIFY_PEER, NULL);
	SSL_CTX_set_min_proto_version(gk->gk_tls_ctx, TLS1_2_VERSION);
	return gk->gk_tls_ctx;
}
