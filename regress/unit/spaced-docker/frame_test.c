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
 * The filler's framing as spaced-docker builds it, and the same bytes
 * taken by the real filler program (host node, stand-in npm), so the
 * builder and the program cannot drift apart.
 */

#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools_key.h"
#include "worker-docker/docker_tools.h"

#define KEY	"0123456789abcdef"

Test(tools_frame, package_json_registry)
{
	struct agent_profile	 ag;
	char			 buf[4096];

	agent_profile_default(&ag);
	cr_assert_gt(tools_package_json(&ag, TOOLS_STAGING_DIR, buf,
	    sizeof(buf)), 0);
	cr_assert_str_eq(buf, "{\"dependencies\":{\"opencode-ai\":\""
	    AGENT_OPENCODE_VERSION "\"},\"name\":\"spaced-tools\","
	    "\"private\":true}");
	cr_assert_eq(tools_package_json(&ag, "rel", buf, sizeof(buf)), -1);
	cr_assert_eq(tools_package_json(&ag, TOOLS_STAGING_DIR, buf, 16), -1);
}

Test(tools_frame, package_json_packed_overrides)
{
	struct agent_profile	 ag;
	char			 buf[4096];

	agent_profile_default(&ag);
	ag.ag_npackages = 2;
	strlcpy(ag.ag_packages[1].ap_name, "@opencode-ai/plugin",
	    sizeof(ag.ag_packages[1].ap_name));
	strlcpy(ag.ag_packages[1].ap_version, "1.18.33",
	    sizeof(ag.ag_packages[1].ap_version));
	strlcpy(ag.ag_packages[1].ap_tarball, "/x/plugin.tgz",
	    sizeof(ag.ag_packages[1].ap_tarball));
	cr_assert_gt(tools_package_json(&ag, "/tmp/spaced-fill", buf,
	    sizeof(buf)), 0);
	cr_assert_str_eq(buf, "{\"dependencies\":{\"@opencode-ai/plugin\":"
	    "\"file:/tmp/spaced-fill/packed-1.tgz\",\"opencode-ai\":\""
	    AGENT_OPENCODE_VERSION "\"},\"name\":\"spaced-tools\","
	    "\"overrides\":{\"@opencode-ai/plugin\":\"$@opencode-ai/plugin\"},"
	    "\"private\":true}");
}

Test(tools_frame, header_exact)
{
	struct agent_profile	 ag;
	char			*h;
	size_t			 len;

	agent_profile_default(&ag);
	cr_assert_not_null(h = tools_frame_header(&ag, KEY, 72, 0, &len));
	cr_assert_str_eq(h, "{\"bins\":[{\"args\":[\"--version\"],"
	    "\"name\":\"opencode\"}],\"cafile\":null,\"files\":[{\"name\":"
	    "\"package.json\",\"size\":72}],\"key\":\"" KEY "\","
	    "\"postinstall\":{\"package\":\"opencode-ai\",\"script\":"
	    "\"postinstall.mjs\"}}\n");
	cr_assert_eq(len, strlen(h));
	free(h);
	/* A CA bundle and a tarball, in the order the bytes follow. */
	strlcpy(ag.ag_packages[0].ap_tarball, "/x/oc.tgz",
	    sizeof(ag.ag_packages[0].ap_tarball));
	ag.ag_packages[0].ap_size = 1000;
	cr_assert_not_null(h = tools_frame_header(&ag, KEY, 72, 5, &len));
	cr_assert(strstr(h, "\"cafile\":\"ca.pem\",\"files\":[{\"name\":"
	    "\"package.json\",\"size\":72},{\"name\":\"packed-0.tgz\","
	    "\"size\":1000},{\"name\":\"ca.pem\",\"size\":5}]") != NULL,
	    "%s", h);
	free(h);
}

Test(tools_frame, header_refusals)
{
	struct agent_profile	 ag;
	size_t			 len;

	agent_profile_default(&ag);
	cr_assert_null(tools_frame_header(&ag, "short", 10, 0, &len));
	cr_assert_null(tools_frame_header(&ag, "0123456789ABCDEF", 10, 0,
	    &len));
	cr_assert_null(tools_frame_header(&ag, KEY, TOOLS_PACKAGE_JSON_MAX + 1,
	    0, &len));
	cr_assert_null(tools_frame_header(&ag, KEY, 10, TOOLS_CA_MAX + 1,
	    &len));
	strlcpy(ag.ag_packages[0].ap_tarball, "/x/oc.tgz",
	    sizeof(ag.ag_packages[0].ap_tarball));
	ag.ag_packages[0].ap_size = TOOLS_FILE_MAX + 1;
	cr_assert_null(tools_frame_header(&ag, KEY, 10, 0, &len));
	agent_profile_default(&ag);
	strlcpy(ag.ag_post_script, "../x.js", sizeof(ag.ag_post_script));
	cr_assert_null(tools_frame_header(&ag, KEY, 10, 0, &len));
	cr_assert_str_eq(tools_fill_step(3), "npm");
	cr_assert_str_eq(tools_fill_step(42), "unknown");
}

/* The builder's bytes through the real program. */
Test(tools_frame, the_filler_takes_them)
{
	struct agent_profile	 ag;
	char			 dir[] = "/tmp/spaced-frame.XXXXXX", pkg[4096];
	char			 cmd[20000], marker[64], top[PATH_MAX];
	char			*h;
	size_t			 len;
	int			 plen, rc;
	FILE			*f;

	if (system("command -v node >/dev/null 2>&1") != 0)
		cr_skip_test("no node on this host");
	/* make unit-run runs from the top of the tree. */
	cr_assert_not_null(getcwd(top, sizeof(top)));
	if (access("worker-docker/spaced-filler.js", R_OK) != 0)
		cr_skip_test("not run from the top of the tree");
	cr_assert_not_null(mkdtemp(dir));
	agent_profile_default(&ag);
	/* The stand-in npm lays out fake-agent with its bin "agent". */
	strlcpy(ag.ag_packages[0].ap_name, "fake-agent",
	    sizeof(ag.ag_packages[0].ap_name));
	strlcpy(ag.ag_post_package, "fake-agent", sizeof(ag.ag_post_package));
	strlcpy(ag.ag_post_script, "post.js", sizeof(ag.ag_post_script));
	strlcpy(ag.ag_bins[0].ab_name, "agent", sizeof(ag.ag_bins[0].ab_name));
	snprintf(cmd, sizeof(cmd), "%s/s", dir);
	cr_assert_gt(plen = tools_package_json(&ag, cmd, pkg, sizeof(pkg)), 0);
	cr_assert_not_null(h = tools_frame_header(&ag, KEY, (size_t)plen, 0,
	    &len));
	snprintf(cmd, sizeof(cmd), "%s/in", dir);
	cr_assert_not_null(f = fopen(cmd, "w"));
	fwrite(h, 1, len, f);
	fwrite(pkg, 1, (size_t)plen, f);
	fclose(f);
	free(h);
	snprintf(cmd, sizeof(cmd), "mkdir %s/t && PATH=%s/regress/filler:$PATH "
	    "node %s/worker-docker/spaced-filler.js %s/t %s/s <%s/in "
	    ">/dev/null 2>&1", dir, top, top, dir, dir, dir);
	rc = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s/t/.spaced-filled", dir);
	memset(marker, 0, sizeof(marker));
	if ((f = fopen(cmd, "r")) != NULL) {
		if (fread(marker, 1, sizeof(marker) - 1, f) == 0)
			marker[0] = '\0';
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
	cr_assert_eq(rc, 0);
	cr_assert_str_eq(marker, KEY);
}
