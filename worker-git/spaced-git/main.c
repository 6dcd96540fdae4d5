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
 * spaced-git: the only process that opens a user's repository, through
 * libgit2 (which runs no hooks, no fsmonitor and no external programs).
 * For now it answers what libgit2 it runs; snapshots and packs follow.
 */

#include <sys/prctl.h>

#include <err.h>
#include <stdint.h>
#include <unistd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "log.h"
#include "proc.h"
#include "git_proto.h"
#include "sandbox.h"
#include "git_worker.h"

/* -Q UID GID: a space's quarantine, its store the working directory. */
static struct {
	int	 on;
	uid_t	 uid;
	gid_t	 gid;
} quarantine;

/*
 * The quarantine, started as root with the three capabilities
 * spaced-launch handed it, chroots into its store and becomes
 * _spaced-quarantine (its owner owns nothing else, and the user's
 * repository is not in its world), then starts libgit2 there: with no
 * host's CA bundle in sight it parses none (6-7 ms a start, docs/perf.md),
 * and it reads no config of anyone's (no search path).
 */
static void
quarantine_prewarm(void)
{
	int	 level[] = { GIT_CONFIG_LEVEL_SYSTEM, GIT_CONFIG_LEVEL_XDG,
		    GIT_CONFIG_LEVEL_GLOBAL, GIT_CONFIG_LEVEL_PROGRAMDATA };
	size_t	 i;

	if (geteuid() == 0 &&
	    sandbox_drop_to_cwd(quarantine.uid, quarantine.gid) == -1)
		fatal("quarantine: chroot and uid %u", (unsigned)quarantine.uid);
	if (git_libgit2_init() < 0)
		fatalx("git_libgit2_init failed");
	for (i = 0; i < sizeof(level) / sizeof(level[0]); i++)
		if (git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level[i], "") <
		    0)
			fatalx("libgit2: the config search path");
}

static void
git_prewarm(void)
{
	if (quarantine.on) {
		quarantine_prewarm();
		return;
	}
	/* libgit2 sets up its TLS and allocator state before the filter. */
	if (git_libgit2_init() < 0)
		fatalx("git_libgit2_init failed");
	if (worker_dir() != NULL)
		repo_prewarm(worker_dir(), &repo.rs_sandbox);
}

static void
git_dispatch(struct imsgev *iev, struct imsg *imsg)
{
	struct git_version_msg	 gv;
	int			 major, minor, rev;

	switch (imsg_get_type(imsg)) {
	case IMSG_GIT_FILES_REQ:
	case IMSG_GIT_LIMITS_REQ:
	case IMSG_GIT_SNAPSHOT_REQ:
	case IMSG_GIT_PACK_REQ:
	case IMSG_GIT_REFS_REMOVE_REQ:
	case IMSG_GIT_HISTORY_REQ:
	case IMSG_GIT_START_REQ:
		/* Only a repository's spaced-git has a repository. */
		if (worker_dir() == NULL || quarantine.on)
			fatalx("%s: a repository request", __func__);
		git_serve(iev, imsg);
		break;
	case IMSG_GIT_QR_REQ:
		if (!quarantine.on)
			fatalx("%s: a quarantine request", __func__);
		qr_serve(iev, imsg);
		break;
	case IMSG_GIT_QR_OUT_REQ:
		if (!quarantine.on)
			fatalx("%s: a quarantine request", __func__);
		qr_out_serve(iev, imsg);
		break;
	case IMSG_GIT_APPLY_REQ:
		if (worker_dir() == NULL || quarantine.on)
			fatalx("%s: a repository request", __func__);
		apply_serve(iev, imsg);
		break;
	case IMSG_GIT_VERSION_REQ:
		if (imsg_get_len(imsg) != 0)
			fatalx("%s: bad version request", __func__);
		memset(&gv, 0, sizeof(gv));
		git_libgit2_version(&major, &minor, &rev);
		snprintf(gv.gv_libgit2, sizeof(gv.gv_libgit2), "%d.%d.%d",
		    major, minor, rev);
		imsg_compose_event(iev, IMSG_GIT_VERSION_REP,
		    imsg_get_peerid(imsg), 0, -1, &gv, sizeof(gv));
		break;
	default:
		fatalx("%s: unexpected imsg %u", __func__, imsg_get_type(imsg));
	}
}

static const struct worker git_worker = {
	.w_id = PROC_GIT,
	.w_sandbox = &repo.rs_sandbox,
	.w_prewarm = git_prewarm,
	.w_dispatch = git_dispatch,
};

/*
 * Its owner may not trace it (through its channel they would speak to
 * spaced as a spaced-git): not dumpable before anything else, and a
 * tracer that came in the moment since exec is refused.
 */
static void
git_untraceable(void)
{
	char	 line[128];
	FILE	*f;
	int	 traced = -1;

	if (prctl(PR_SET_DUMPABLE, 0) == -1)
		fatal("prctl(PR_SET_DUMPABLE)");
	if ((f = fopen("/proc/self/status", "re")) == NULL)
		fatal("/proc/self/status");
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "TracerPid:", 10) == 0)
			traced = atoi(line + 10) != 0;
	fclose(f);
	if (traced != 0)
		fatalx("traced, or no TracerPid in /proc/self/status");
}

int
main(int argc, char *argv[])
{
	const char	*errstr = NULL;

	/* spaced-launch's (-g, -Q): its stderr is /dev/null, spaced hears. */
	if (argc >= 2 && (strcmp(argv[1], "-g") == 0 ||
	    strcmp(argv[1], "-Q") == 0))
		worker_tell_fatal();
	git_untraceable();
	/* Filled in before the filter: the repository's Landlock rules. */
	repo.rs_sandbox = git_sandbox;
	if (argc >= 4 && strcmp(argv[1], "-Q") == 0) {
		quarantine.on = 1;
		quarantine.uid = strtonum(argv[2], 1, UINT32_MAX - 1, &errstr);
		if (errstr == NULL)
			quarantine.gid = strtonum(argv[3], 1, UINT32_MAX - 1,
			    &errstr);
		if (errstr != NULL)
			errx(2, "-Q UID GID: %s", errstr);
		repo.rs_sandbox = qr_sandbox;
		argv[3] = argv[0];
		argc -= 3;
		argv += 3;
	}
	worker_main(argc, argv, &git_worker);
}
