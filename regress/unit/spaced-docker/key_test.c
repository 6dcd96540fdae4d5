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

/* The tools volume's content key: what it covers and what it does not. */

#include <sys/stat.h>

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools_key.h"

#define IMAGE	"spaced-space@sha256:0123"
#define FILLER	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define FILLER2	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

static void
key(const struct agent_profile *ag, const char *image, const char *filler,
    char out[TOOLS_KEY_LEN + 1])
{
	cr_assert_eq(tools_key(ag, image, filler, out), 0);
	cr_assert(tools_key_valid(out));
}

Test(tools_key, canonical_description)
{
	struct agent_profile	 ag;
	char			 buf[TOOLS_DESC_MAX], k[TOOLS_KEY_LEN + 1];
	int			 n;

	agent_profile_default(&ag);
	n = tools_describe(&ag, IMAGE, FILLER, buf, sizeof(buf));
	cr_assert_gt(n, 0);
	cr_assert_str_eq(buf,
	    "spaced-tools 2\n"
	    "package opencode-ai " AGENT_OPENCODE_VERSION "\n"
	    "postinstall opencode-ai postinstall.mjs\n"
	    "binary opencode --version\n"
	    "image " IMAGE "\n"
	    "filler sha256:" FILLER "\n");
	cr_assert_eq((size_t)n, strlen(buf));
	/* printf '...' | sha256sum | cut -c1-16, computed outside */
	key(&ag, IMAGE, FILLER, k);
	cr_assert_str_eq(k, "a601c98dbc08a3a9");
}

Test(tools_key, covers_content_only)
{
	struct agent_profile	 ag, b;
	char			 k0[TOOLS_KEY_LEN + 1], k[TOOLS_KEY_LEN + 1];

	agent_profile_default(&ag);
	key(&ag, IMAGE, FILLER, k0);
	/* Not content: how it is served and asked. */
	b = ag;
	b.ag_port = 31000;
	strlcpy(b.ag_serve[0], "other", sizeof(b.ag_serve[0]));
	strlcpy(b.ag_ready_path, "/x", sizeof(b.ag_ready_path));
	b.ag_model_env[0] = b.ag_model_template[0] = '\0';
	key(&b, IMAGE, FILLER, k);
	cr_assert_str_eq(k, k0);
	/* Content: each one moves the key. */
	b = ag;
	strlcpy(b.ag_packages[0].ap_version, "1.18.34",
	    sizeof(b.ag_packages[0].ap_version));
	key(&b, IMAGE, FILLER, k);
	cr_assert_str_neq(k, k0);
	key(&ag, IMAGE "5", FILLER, k);
	cr_assert_str_neq(k, k0);
	key(&ag, IMAGE, FILLER2, k);
	cr_assert_str_neq(k, k0);
	b = ag;
	strlcpy(b.ag_revision, "2", sizeof(b.ag_revision));
	key(&b, IMAGE, FILLER, k);
	cr_assert_str_neq(k, k0);
	b = ag;
	b.ag_post_package[0] = b.ag_post_script[0] = '\0';
	key(&b, IMAGE, FILLER, k);
	cr_assert_str_neq(k, k0);
	b = ag;
	b.ag_bins[0].ab_nargs = 0;
	key(&b, IMAGE, FILLER, k);
	cr_assert_str_neq(k, k0);
}

Test(tools_key, package_order_is_not_content)
{
	struct agent_profile	 a, b;
	char			 ka[TOOLS_KEY_LEN + 1], kb[TOOLS_KEY_LEN + 1];

	agent_profile_default(&a);
	a.ag_npackages = 2;
	strlcpy(a.ag_packages[1].ap_name, "@opencode-ai/plugin",
	    sizeof(a.ag_packages[1].ap_name));
	strlcpy(a.ag_packages[1].ap_version, "1.18.33",
	    sizeof(a.ag_packages[1].ap_version));
	b = a;
	b.ag_packages[0] = a.ag_packages[1];
	b.ag_packages[1] = a.ag_packages[0];
	key(&a, IMAGE, FILLER, ka);
	key(&b, IMAGE, FILLER, kb);
	cr_assert_str_eq(ka, kb);
}

Test(tools_key, packed_tarball_is_its_hash)
{
	struct agent_profile	 ag;
	char			 k0[TOOLS_KEY_LEN + 1], k[TOOLS_KEY_LEN + 1];
	char			 buf[TOOLS_DESC_MAX], path[] = "/tmp/tk.XXXXXX";
	char			 hex[SHA256_HEX_LEN + 1];
	uint64_t		 size;
	int			 fd;

	agent_profile_default(&ag);
	key(&ag, IMAGE, FILLER, k0);
	strlcpy(ag.ag_packages[0].ap_tarball, "/x/opencode-ai.tgz",
	    sizeof(ag.ag_packages[0].ap_tarball));
	/* Not read yet: no key rather than one that ignores the bytes. */
	cr_assert_eq(tools_key(&ag, IMAGE, FILLER, k), -1);
	cr_assert((fd = mkstemp(path)) != -1);
	cr_assert_eq(write(fd, "abc", 3), 3);
	cr_assert_eq(tools_sha256_fd(fd, 1024, hex, &size), 0);
	cr_assert_eq(size, 3);
	cr_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad");
	/* Over the cap: refused. */
	cr_assert_eq(tools_sha256_fd(fd, 2, hex, &size), -1);
	close(fd);
	unlink(path);
	strlcpy(ag.ag_packages[0].ap_sha256,
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	    sizeof(ag.ag_packages[0].ap_sha256));
	key(&ag, IMAGE, FILLER, k);
	cr_assert_str_neq(k, k0);
	cr_assert_gt(tools_describe(&ag, IMAGE, FILLER, buf, sizeof(buf)), 0);
	cr_assert(strstr(buf, "packed opencode-ai " AGENT_OPENCODE_VERSION
	    " sha256:ba7816bf") != NULL, "%s", buf);
	/* Another tarball, another key. */
	ag.ag_packages[0].ap_sha256[0] = 'c';
	key(&ag, IMAGE, FILLER, k0);
	cr_assert_str_neq(k, k0);
}

Test(tools_key, refusals)
{
	struct agent_profile	 ag;
	char			 k[TOOLS_KEY_LEN + 1], small[32];
	char			 name[TOOLS_VOLUME_MAX];

	agent_profile_default(&ag);
	cr_assert_eq(tools_key(&ag, "", FILLER, k), -1);
	cr_assert_eq(tools_key(&ag, "a b", FILLER, k), -1);
	cr_assert_eq(tools_key(&ag, IMAGE, "abc", k), -1);
	cr_assert_eq(tools_key(&ag, IMAGE, FILLER "a", k), -1);
	cr_assert_eq(tools_describe(&ag, IMAGE, FILLER, small,
	    sizeof(small)), -1);
	strlcpy(ag.ag_packages[0].ap_version, "^1.0.0",
	    sizeof(ag.ag_packages[0].ap_version));
	cr_assert_eq(tools_key(&ag, IMAGE, FILLER, k), -1);
	cr_assert_eq(tools_volume_name(name, sizeof(name),
	    "0123456789abcdef", 1000, "00112233aabbccdd"), 0);
	cr_assert_str_eq(name,
	    "spaced-tools-0123456789abcdef-1000-00112233aabbccdd");
	cr_assert_eq(tools_volume_name(name, sizeof(name), "XY", 1000,
	    "00112233aabbccdd"), -1);
	cr_assert_eq(tools_volume_name(name, sizeof(name),
	    "0123456789abcdef", 1000, "../x"), -1);
}
