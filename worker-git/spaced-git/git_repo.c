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
 * The repository a spaced-git serves (-g DIR, started by spaced-launch
 * as its owner): opened once before the filter, to learn where it lives
 * and which of the owner's files git reads, which then are all Landlock
 * lets this process reach.  What went wrong here is the answer to every
 * request, never a crash: spaced tells the caller.
 */

#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "errors.h"
#include "log.h"
#include "sandbox.h"
#include "git_worker.h"

struct repo_state	 repo;

static void
repo_refuse(const char *code, const char *fmt, ...)
{
	va_list	 ap;

	strlcpy(repo.rs_code, code, sizeof(repo.rs_code));
	va_start(ap, fmt);
	vsnprintf(repo.rs_message, sizeof(repo.rs_message), fmt, ap);
	va_end(ap);
	log_debug("%s: %s", repo.rs_code, repo.rs_message);
}

/* A rule for a path that exists; one that does not needs none. */
static void
repo_allow(struct path_list *pl, const char *path, unsigned int access)
{
	struct stat	 sb;
	size_t		 i;

	if (path == NULL || path[0] != '/' || stat(path, &sb) == -1 ||
	    pl->pl_n == REPO_PATHS_MAX)
		return;
	for (i = 0; i < pl->pl_n; i++)
		if (strcmp(pl->pl_path[i], path) == 0)
			return;
	strlcpy(pl->pl_path[pl->pl_n], path, PATH_MAX);
	pl->pl_access[pl->pl_n++] = access;
}

/* A directory of ours, owned by us: what git's safe.directory asks. */
static int
owned(const char *path)
{
	struct stat	 sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode) &&
	    sb.st_uid == getuid();
}

static void
repo_allow_config_path(struct path_list *pl, git_config *cfg,
    const char *name)
{
	git_buf	 buf = { 0 };

	if (git_config_get_path(&buf, cfg, name) == 0)
		repo_allow(pl, buf.ptr, SB_LL_READ);
	git_buf_dispose(&buf);
}

/*
 * The repository's git directories and the owner's own git files:
 * config, ignores, attributes.  The same list each time for the same
 * repository and config, so a request can tell when it changed.
 */
static void
repo_paths_of(struct path_list *pl, git_repository *r)
{
	git_config	*cfg;
	const char	*home = getenv("HOME");
	char		 path[PATH_MAX];

	memset(pl, 0, sizeof(*pl));
	/* A linked worktree's git directory lives elsewhere. */
	repo_allow(pl, git_repository_path(r), SB_LL_WRITE);
	repo_allow(pl, git_repository_commondir(r), SB_LL_WRITE);
	repo_allow(pl, "/etc/gitconfig", SB_LL_READ);
	if (home != NULL && home[0] == '/') {
		snprintf(path, sizeof(path), "%s/.gitconfig", home);
		repo_allow(pl, path, SB_LL_READ);
		snprintf(path, sizeof(path), "%s/.config/git", home);
		repo_allow(pl, path, SB_LL_READ);
	}
	if (git_repository_config_snapshot(&cfg, r) == 0) {
		repo_allow_config_path(pl, cfg, "core.excludesfile");
		repo_allow_config_path(pl, cfg, "core.attributesfile");
		git_config_free(cfg);
	}
}

/* Whether path is dir or below it; dir may end with a slash (libgit2's). */
static int
path_in(const char *path, const char *dir)
{
	size_t	 n = strlen(dir);

	while (n > 0 && dir[n - 1] == '/')
		n--;
	return strncmp(path, dir, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/');
}

/*
 * The owner changed what git reads (a new excludes file, a global
 * config that did not exist): the rules made at start do not cover it,
 * and this process must give way to a new one.
 */
int
repo_stale(git_repository *r)
{
	static struct path_list	 now;

	repo_paths_of(&now, r);
	return memcmp(&now, &repo.rs_allowed, sizeof(now)) != 0;
}

void
repo_prewarm(const char *dir, struct sandbox_spec *sb)
{
	git_repository	*r;
	const git_error	*e;
	const char	*workdir, *gitdir, *common;
	size_t		 i, n;

	if (realpath(dir, repo.rs_dir) == NULL) {
		repo_refuse(ERR_PROJECT_FOLDER_MISSING, "%s: %s", dir,
		    strerror(errno));
		return;
	}
	if (git_repository_open_ext(&r, repo.rs_dir, 0, NULL) != 0) {
		e = git_error_last();
		/* libgit2 1.5 knows SHA-1 only: say so, never guess. */
		if (e != NULL && e->message != NULL &&
		    strcasestr(e->message, "objectformat") != NULL)
			repo_refuse(ERR_UNSUPPORTED_OBJECT_FORMAT, "%s uses an "
			    "object format this libgit2 cannot read (%s)",
			    dir, e->message);
		else
			repo_refuse(ERR_NOT_A_GIT_WORK_TREE, "%s is in no git "
			    "repository: run git init there first", dir);
		return;
	}
	if (git_repository_is_bare(r) ||
	    (workdir = git_repository_workdir(r)) == NULL) {
		repo_refuse(ERR_NOT_A_GIT_WORK_TREE, "%s is a bare repository: "
		    "bring in a checkout instead", dir);
		git_repository_free(r);
		return;
	}
	strlcpy(repo.rs_top, workdir, sizeof(repo.rs_top));
	/* libgit2 ends it with a slash; Landlock and logs want none. */
	if ((n = strlen(repo.rs_top)) > 1 && repo.rs_top[n - 1] == '/')
		repo.rs_top[n - 1] = '\0';
	gitdir = git_repository_path(r);
	common = git_repository_commondir(r);
	/*
	 * DIR in the git directory is no folder of the work tree: its path
	 * below the top would be nonsense.  A git directory whose
	 * core.worktree names a work tree elsewhere cannot be opened again
	 * from that work tree (repo_open) unless a .git there names it.
	 */
	if (!path_in(repo.rs_dir, repo.rs_top)) {
		repo_refuse(ERR_NOT_A_GIT_WORK_TREE, "%s is a git directory "
		    "whose work tree %s (core.worktree) has no .git to find "
		    "it by: write 'gitdir: %s' into %s/.git, then bring in "
		    "that folder", dir, repo.rs_top, gitdir, repo.rs_top);
		git_repository_free(r);
		return;
	}
	if (path_in(repo.rs_dir, gitdir) || path_in(repo.rs_dir, common)) {
		repo_refuse(ERR_NOT_A_GIT_WORK_TREE, "%s is in the git "
		    "directory of the repository: bring in its work tree %s "
		    "or a folder of it", dir, repo.rs_top);
		git_repository_free(r);
		return;
	}
	if (!owned(repo.rs_top) || !owned(gitdir) || !owned(common)) {
		repo_refuse(ERR_REPOSITORY_NOT_OWNED, "%s is not wholly the "
		    "repository owner's (uid %u)", repo.rs_top,
		    (unsigned)getuid());
		git_repository_free(r);
		return;
	}
	repo_paths_of(&repo.rs_allowed, r);
	for (i = 0; i < repo.rs_allowed.pl_n; i++) {
		repo.rs_paths[i].sp_path = repo.rs_allowed.pl_path[i];
		repo.rs_paths[i].sp_access = repo.rs_allowed.pl_access[i];
	}
	git_repository_free(r);
	repo.rs_open = 1;
	sb->sb_landlock_dir = repo.rs_top;
	sb->sb_landlock_paths = repo.rs_paths;
}

/*
 * The repository is no longer its owner's as this process runs (a
 * chown since it started): libgit2 refuses it as unsafe.  A new
 * spaced-git, as the owner now, is spaced's to start.
 */
int
repo_owner_changed(void)
{
	return !owned(repo.rs_top);
}

/* Opened afresh for each request: the owner's edits in between count. */
int
repo_open(git_repository **r)
{
	return git_repository_open_ext(r, repo.rs_top,
	    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
}
