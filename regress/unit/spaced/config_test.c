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

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "supervisor/spaced/spaced.h"

static int
parse(const char *text, struct spaced_conf *c, char *err, size_t errlen)
{
	config_defaults(c, 0, NULL, NULL);
	return config_parse(text, strlen(text), c, err, errlen);
}

Test(config, defaults_for_root_and_user)
{
	struct spaced_conf	 c;

	config_defaults(&c, 0, "/run/user/1000", "/home/u/.local/state");
	cr_assert_str_eq(c.sc_socket, "/run/spaced/spaced.sock");
	cr_assert_str_eq(c.sc_store, "/var/lib/spaced/journal");
	cr_assert_str_eq(c.sc_state, "/var/lib/spaced");
	config_defaults(&c, 1000, "/run/user/1000", "/home/u/.local/state");
	cr_assert_str_eq(c.sc_socket, "/run/user/1000/spaced.sock");
	cr_assert_str_eq(c.sc_store, "/home/u/.local/state/spaced/journal");
	cr_assert_str_eq(c.sc_state, "/home/u/.local/state/spaced");
	cr_assert_str_eq(c.sc_empty, "");
	/* A relative runtime dir is not used. */
	config_defaults(&c, 1000, "run", NULL);
	cr_assert_str_eq(c.sc_socket, "");
	cr_assert_str_eq(c.sc_state, "");
}

Test(config, space_defaults)
{
	struct spaced_conf	 c;

	config_defaults(&c, 0, NULL, NULL);
	cr_assert_str_eq(c.sc_space_image, "spaced-space:latest");
	cr_assert_str_eq(c.sc_gk_image, "spaced-gatekeeper:latest");
	cr_assert_str_eq(c.sc_docker_group, "docker");
	/* Read from, or made in, the state directory at start. */
	cr_assert_str_eq(c.sc_install_id, "");
	config_defaults(&c, 1000, NULL, "/s");
	cr_assert_str_eq(c.sc_space_image, "spaced-space:latest");
	cr_assert_str_eq(c.sc_install_id, "");
}

Test(config, space_keywords)
{
	struct spaced_conf	 c;
	char			 err[128];

	cr_assert_eq(parse("install id 0123456789abcdef\n"
	    "space image \"registry.example:5000/space@sha256:ab\"\n"
	    "gatekeeper image gk:1\n"
	    "docker group podman\n"
	    "state directory /st\n", &c, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(c.sc_install_id, "0123456789abcdef");
	cr_assert_str_eq(c.sc_space_image,
	    "registry.example:5000/space@sha256:ab");
	cr_assert_str_eq(c.sc_gk_image, "gk:1");
	cr_assert_str_eq(c.sc_docker_group, "podman");
	cr_assert_str_eq(c.sc_state, "/st");
	/* 64 hex, the longest */
	cr_assert_eq(parse("install id 0123456789abcdef0123456789abcdef"
	    "0123456789abcdef0123456789abcdef\n", &c, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(strlen(c.sc_install_id), 64);
}

Test(config, space_keywords_refused)
{
	static const char *bad[] = {
		"install id 0123456789abcde\n",		/* 15 */
		"install id 0123456789ABCDEF\n",		/* upper case */
		"install id 0123456789abcdeg\n",
		"install id 0123456789abcdef0123456789abcdef"
		    "0123456789abcdef0123456789abcdef0\n",	/* 65 */
		"install id \"\"\n",
		"space image \"a b\"\n",
		"space image \"a\x01\"\n",
		"space image \"caf\xc3\xa9\"\n",
		"gatekeeper image \"x\ty\"\n",
		"gatekeeper image \"\"\n",
		"docker group -x\n",
		"docker group \"a b\"\n",
		"docker group a/b\n",
		"state directory relative\n",
		"socket relative\n",
		/* issue 27: space uids far from accounts, in order */
		"space uid range 10000-20000\n",
		"space uid range 65535-70000\n",
		"space uid range 3000000-2000000\n",
		"space uid range 2000000000\n",
		"space uid range 2000000000-4294967295\n",
		"space uid range -5-100000\n",
		"space uid range 100000-x\n",
		/* issue 27: the outer networks' pool, spaces per owner */
		"space network pool 10.213.0.0\n",
		"space network pool 10.213.0.1/16\n",
		"space network pool 10.213.0.0/30\n",
		"space network pool 10.0.0.0/7\n",
		"space network pool fd00::/64\n",
		"space network size 30\n",
		"space network size x\n",
		"spaces per owner 0\n",
		"spaces per owner 10001\n",
		/* finding 6: a space's disk, and its sweep */
		"space disk limit 512K\n",
		"space disk limit 2X\n",
		"space disk limit 1025T\n",
		"space disk limit 10GB\n",
		"space disk limit -1\n",
		"space disk sweep 0\n",
		"space disk sweep 86401\n",
	};
	struct spaced_conf	 c;
	char			 err[128], img[SPACE_IMAGE_MAX + 32];
	size_t			 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(parse(bad[i], &c, err, sizeof(err)), -1,
		    "accepted: %s", bad[i]);
		cr_assert(strncmp(err, "line 1: ", 8) == 0, "%s", err);
	}
	/* An image of SPACE_IMAGE_MAX - 1 fits; one more is refused. */
	memcpy(img, "space image ", 12);
	memset(img + 12, 'i', SPACE_IMAGE_MAX - 1);
	img[12 + SPACE_IMAGE_MAX - 1] = '\0';
	cr_assert_eq(parse(img, &c, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(strlen(c.sc_space_image), SPACE_IMAGE_MAX - 1);
	img[12 + SPACE_IMAGE_MAX - 1] = 'i';
	img[12 + SPACE_IMAGE_MAX] = '\0';
	cr_assert_eq(parse(img, &c, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "line 1: space image: value too long (at most "
	    "255 bytes)");
	cr_assert_eq(SPACE_IMAGE_MAX, 256);
}

/*
 * A refusal says the setting's rule, not the field's size, and names
 * the line of a setting refused only once the file is read (a new
 * user's trial).
 */
Test(config, refusals_name_the_rule_and_the_line)
{
	struct spaced_conf	 c;
	char			 err[160];

	cr_assert_eq(parse("code in timeout \"99999999\"\n", &c, err,
	    sizeof(err)), -1);
	cr_assert_str_eq(err, "line 1: code in timeout: not a number of "
	    "seconds from 1 to 3600");
	cr_assert_eq(parse("# the default\n\ndefault agent nope\n", &c, err,
	    sizeof(err)), -1);
	cr_assert_str_eq(err, "line 3: default agent nope: no such profile "
	    "(none, or an agent NAME the file defines)");
	cr_assert_eq(parse("\nspace network size 8\n", &c, err, sizeof(err)),
	    -1);
	cr_assert_str_eq(err, "line 2: space network size 8: takes 16 (the "
	    "prefix of the pool 10.213.0.0/16) to 29");
	/* the pool's line when the size is the default */
	cr_assert_eq(parse("space network pool 10.0.0.0/15\n", &c, err,
	    sizeof(err)), -1);
	cr_assert(strncmp(err, "line 1: space network size 29: takes 15 ",
	    40) == 0, "%s", err);
}

/* A size's unit in either case, as spacectl create -m takes it. */
Test(config, disk_limit_either_case)
{
	struct spaced_conf	 c;
	char			 err[128];

	cr_assert_eq(parse("space disk limit \"20g\"\n", &c, err,
	    sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_disk_limit(&c), 20ULL << 30);
	cr_assert_eq(parse("space disk limit 64m\n", &c, err, sizeof(err)),
	    0, "%s", err);
	cr_assert_eq(config_disk_limit(&c), 64ULL << 20);
	cr_assert_eq(parse("space disk limit 1t\n", &c, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(config_disk_limit(&c), 1ULL << 40);
	cr_assert_eq(parse("space disk limit 2x\n", &c, err, sizeof(err)),
	    -1);
	cr_assert_str_eq(err, "line 1: space disk limit: not 0 or a size from "
	    "1M to 1024T (K, M, G, T, either case)");
}

/* The uid range: the default, one of one uid, and the count spaced sends. */
Test(config, space_uid_range)
{
	struct spaced_conf	 c;
	char			 err[128];
	uint32_t		 first, count;

	cr_assert_eq(parse("", &c, err, sizeof(err)), 0, "%s", err);
	config_space_uids(&c, &first, &count);
	cr_assert_eq(first, 2000000000U);
	cr_assert_eq(count, 1000000U);
	cr_assert_eq(parse("space uid range 65536-65536\n", &c, err,
	    sizeof(err)), 0, "%s", err);
	config_space_uids(&c, &first, &count);
	cr_assert_eq(first, 65536U);
	cr_assert_eq(count, 1U);
}

/* The pool and the size together: 1 to 8192 networks of the size. */
Test(config, space_network_pool)
{
	struct spaced_conf	 c;
	char			 err[128];
	uint32_t		 base;
	uint8_t			 pp, sz;

	cr_assert_eq(parse("", &c, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_space_net(&c, &base, &pp, &sz), 0);
	cr_assert_eq(base, 0x0ad50000U);
	cr_assert_eq(pp, 16);
	cr_assert_eq(sz, 29);
	cr_assert_eq(config_spaces_max(&c), 16);
	cr_assert_eq(parse("space network pool 10.1.2.0/24\n"
	    "space network size 28\nspaces per owner 3\n", &c, err,
	    sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_space_net(&c, &base, &pp, &sz), 0);
	cr_assert_eq(base, 0x0a010200U);
	cr_assert_eq(config_spaces_max(&c), 3);
	/* a size wider than the pool, or more than 8192 networks */
	cr_assert_eq(parse("space network pool 10.1.2.0/24\n"
	    "space network size 23\n", &c, err, sizeof(err)), -1);
	cr_assert_eq(parse("space network pool 10.0.0.0/15\n", &c, err,
	    sizeof(err)), -1);
	cr_assert(strstr(err, "space network size") != NULL, "%s", err);
}

/* The disk limit: the default, a size of each unit, off; the sweep. */
Test(config, space_disk)
{
	struct spaced_conf	 c;
	char			 err[128];

	cr_assert_eq(parse("", &c, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_disk_limit(&c), 20ULL << 30);
	cr_assert_eq(config_disk_sweep(&c), 60);
	cr_assert_eq(parse("space disk limit 64M\nspace disk sweep 1\n", &c,
	    err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_disk_limit(&c), 64ULL << 20);
	cr_assert_eq(config_disk_sweep(&c), 1);
	cr_assert_eq(parse("space disk limit 1024T\n", &c, err, sizeof(err)),
	    0, "%s", err);
	cr_assert_eq(config_disk_limit(&c), 1ULL << 50);
	cr_assert_eq(parse("space disk limit 1048576\n", &c, err,
	    sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_disk_limit(&c), 1ULL << 20);
	cr_assert_eq(parse("space disk limit 0\n", &c, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(config_disk_limit(&c), 0);
}

Test(config, good_lines)
{
	struct spaced_conf	 c;
	char			 err[128];

	cr_assert_eq(parse("# comment\n\nsocket \"/a b/s.sock\"\n"
	    "docker socket /d.sock  # trailing comment\n"
	    "journal store /j\nempty directory /e", &c, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_str_eq(c.sc_socket, "/a b/s.sock");
	cr_assert_str_eq(c.sc_docker_socket, "/d.sock");
	cr_assert_str_eq(c.sc_store, "/j");
	cr_assert_str_eq(c.sc_empty, "/e");
}

Test(config, bad_lines_name_the_line)
{
	static const char *bad[] = {
		"socket relative\n",
		"socket\n",
		"socket \"/unterminated\n",
		"socket /a /b\n",
		"socket /a\"b\n",
		"sockets /a\n",
		"docker /a\n",
		"socket \"/a\x01\"\n",
		"journal store \"\"\n",
	};
	struct spaced_conf	 c;
	char			 err[128], line[300];
	size_t			 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(parse(bad[i], &c, err, sizeof(err)), -1,
		    "accepted: %s", bad[i]);
		cr_assert(strncmp(err, "line 1", 6) == 0, "%s", err);
	}
	cr_assert_eq(parse("socket /a\n\nsockets /b\n", &c, err, sizeof(err)),
	    -1);
	cr_assert(strncmp(err, "line 3", 6) == 0, "%s", err);
	/* The unknown words are named, escaped and cut, never the value. */
	cr_assert_str_eq(err, "line 3: unknown setting \"sockets /b\"");
	cr_assert_eq(parse("spaces per ower \"3\"\n", &c, err, sizeof(err)),
	    -1);
	cr_assert_str_eq(err, "line 1: unknown setting \"spaces per ower\"");
	cr_assert_eq(parse("\tt\tab\x1b[2J\t\"x\"\n", &c, err, sizeof(err)),
	    -1);
	cr_assert_str_eq(err, "line 1: unknown setting \"t ab?[2J\"");
	cr_assert_eq(parse("socket\n", &c, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "line 1: unknown setting \"socket\"");
	/* A socket path no sun_path holds: -n passed it, the start failed. */
	snprintf(line, sizeof(line), "docker socket /%0107d\n", 0);
	cr_assert_eq(parse(line, &c, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "line 1: docker socket: longer than a unix "
	    "socket's path holds (107 bytes)");
	snprintf(line, sizeof(line), "socket /%0106d\n", 0);
	cr_assert_eq(parse(line, &c, err, sizeof(err)), 0, "%s", err);
	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	cr_assert_eq(parse(line, &c, err, sizeof(err)), -1);
	cr_assert_eq(strlen(err), strlen("line 1: unknown setting \"\"") + 40,
	    "%s", err);
}

Test(config, nul_and_size_caps)
{
	struct spaced_conf	 c;
	char			 err[128], big[70000];

	config_defaults(&c, 0, NULL, NULL);
	cr_assert_eq(config_parse("socket /a\0b\n", 12, &c, err, sizeof(err)),
	    -1);
	memset(big, '#', sizeof(big));
	cr_assert_eq(config_parse(big, sizeof(big), &c, err, sizeof(err)), -1);
	/* A long value is refused, not cut. */
	memset(big, 'a', 5000);
	memcpy(big, "socket /", 8);
	cr_assert_eq(config_parse(big, 5000, &c, err, sizeof(err)), -1);
}

Test(config, print_parses_back)
{
	struct spaced_conf	 c, d;
	char			 err[128], buf[8192];
	int			 p[2];
	ssize_t			 n;

	cr_assert_eq(parse("socket \"/with space/s\"\njournal store /j\n"
	    "install id 00112233445566778899aabbccddeeff\n"
	    "space image s:1\ngatekeeper image g:2\n", &c, err, sizeof(err)),
	    0);
	cr_assert_eq(pipe(p), 0);
	config_print(&c, p[1]);
	close(p[1]);
	n = read(p[0], buf, sizeof(buf));
	close(p[0]);
	cr_assert(n > 0);
	cr_assert_eq(parse("", &d, err, sizeof(err)), 0);
	cr_assert_eq(config_parse(buf, n, &d, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(memcmp(&c, &d, sizeof(c)), 0);
}

/* Trust what the host trusts unless told "trust images". */
Test(config, trust)
{
	struct spaced_conf	 c;
	char			 err[256];
	const char		*host = "/etc/ssl/certs/ca-certificates.crt";

	cr_assert_eq(parse("", &c, err, sizeof(err)), 0);
	config_trust(&c, host, 1);
	cr_assert_str_eq(c.sc_tools_ca, host);
	cr_assert_str_eq(c.sc_space_ca, host);
	/* No usable bundle on the host: nothing is set. */
	cr_assert_eq(parse("", &c, err, sizeof(err)), 0);
	config_trust(&c, host, 0);
	cr_assert_str_eq(c.sc_tools_ca, "");
	cr_assert_str_eq(c.sc_space_ca, "");
	cr_assert_eq(parse("trust images\n", &c, err, sizeof(err)), 0);
	config_trust(&c, host, 1);
	cr_assert_str_eq(c.sc_tools_ca, "");
	cr_assert_str_eq(c.sc_space_ca, "");
	/* A bundle of its own wins. */
	cr_assert_eq(parse("space ca bundle \"/x/site.pem\"\n", &c, err,
	    sizeof(err)), 0);
	config_trust(&c, host, 1);
	cr_assert_str_eq(c.sc_space_ca, "/x/site.pem");
	cr_assert_str_eq(c.sc_tools_ca, host);
	cr_assert_eq(parse("trust host\n", &c, err, sizeof(err)), 0);
	cr_assert_eq(parse("trust maybe\n", &c, err, sizeof(err)), -1);
	cr_assert(strstr(err, "not host or images") != NULL, "%s", err);
}

/* SIGHUP: the live settings are taken, a restart-only one named and kept. */
Test(config, reload_live_and_restart_only)
{
	struct spaced_conf	 cur, next;
	char			 err[128], why[32];

	cr_assert_eq(parse("journal store /j\n", &cur, err, sizeof(err)), 0);
	cr_assert_str_eq(cur.sc_journal_interval, "2");
	cr_assert_eq(parse("journal store /j\njournal interval 7\n"
	    "spaces per owner 3\ndefault place docker\n", &next, err,
	    sizeof(err)), 0);
	cr_assert_eq(config_reload(&cur, &next, why, sizeof(why)), 0);
	cr_assert_str_eq(cur.sc_journal_interval, "7");
	cr_assert_str_eq(cur.sc_spaces_max, "3");
	cr_assert_str_eq(cur.sc_default_place, "docker");
	cr_assert_eq(config_journal_interval(&cur), 7);

	cr_assert_eq(parse("journal store /other\nsocket /s\n"
	    "journal interval 9\n", &next, err, sizeof(err)), 0);
	cr_assert_eq(config_reload(&cur, &next, why, sizeof(why)), 2);
	cr_assert_str_eq(why, "socket");
	cr_assert_str_eq(cur.sc_store, "/j");
	cr_assert_str_eq(cur.sc_journal_interval, "9");
	/* an agent profile is a restart too */
	cr_assert_eq(parse("journal store /j\njournal interval 9\n"
	    "default agent none\n", &next, err, sizeof(err)), 0);
	cr_assert_eq(config_reload(&cur, &next, why, sizeof(why)), 1);
	cr_assert_str_eq(why, "default agent");
	cr_assert_eq(parse("journal interval 0\n", &next, err, sizeof(err)),
	    -1);
	cr_assert_eq(parse("journal interval 3601\n", &next, err, sizeof(err)),
	    -1);
}
