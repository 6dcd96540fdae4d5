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

#ifndef GIT_FIXTURE_H
#define GIT_FIXTURE_H

/*
 * Each test gets its own copy of the bait repository (built once per
 * run by regress/tools/bait-repo.sh) in fx_root: fx_home is the user's
 * HOME, fx_repo the repository, fx_marks where the user's hooks and
 * fsmonitor program leave a mark.  The operations are spaced-git's own
 * (worker-git/, linked in): the repository opened as repo_prewarm does
 * before the filter, each request through git_serve on a socketpair
 * when it answers with records or a stream.
 */

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "git_proto.h"
#include "place_proto.h"
#include "repo_compare.h"

#define FX_ID		"a1b2c3d4e5f6"
#define FX_OTHER_ID	"bbbbbbbbbbbb"

/* git for the checks: no lock, no hook, no fsmonitor of the user's. */
#define GITQ	"GIT_OPTIONAL_LOCKS=0 git -c core.fsmonitor= " \
		"-c core.hooksPath=/nonexistent"

extern char	 fx_root[128];
extern char	 fx_home[256];
extern char	 fx_repo[256];
extern char	 fx_marks[256];

void	 fx_setup(void);
void	 fx_teardown(void);
/* A shell command in fx_repo with the test's HOME; its exit status. */
int	 fx_sh(const char *, ...) __attribute__((__format__(printf, 1, 2)));
/* The same, its stdout (malloc'd, trailing newline kept). */
char	*fx_out(const char *, ...) __attribute__((__format__(printf, 1, 2)));
/*
 * The whole stdout of a shell command run anywhere (a pack or an index
 * from git, for the parsers' tests), malloc'd; the command must exit 0.
 */
uint8_t	*fx_slurp(const char *, size_t *);
/* Manifest of fx_repo now, and the count of differences not allowed. */
void	 fx_before(void);
size_t	 fx_untouched(const char *);
/* Entries added under .git/objects since fx_before. */
size_t	 fx_new_objects(void);
/* Number of marks the user's programs left. */
int	 fx_marks_count(void);

/*
 * One request of spaced-git for the repository dir is in: 0, or -1 with
 * sd's code and message.  gs may be NULL where none comes.
 */
int	 fx_snapshot(const char *dir, const char *id, int clean,
	    struct git_snap *gs, struct space_done *sd);
int	 fx_history(const char *dir, const char *id, struct git_snap *gs,
	    struct space_done *sd);
int	 fx_refs_remove(const char *dir, const char *id,
	    struct space_done *sd);

/* What git_serve answered: its records, its stream, its DONE. */
struct fx_answer {
	struct git_file	*fa_files;
	size_t		 fa_nfiles;
	struct git_limit *fa_limits;
	size_t		 fa_nlimits;
	char		*fa_stream;	/* the pack, fa_len bytes */
	size_t		 fa_len;
	struct git_snap	 fa_snap;
	int		 fa_have_snap;
	struct space_done fa_done;
};
/* Any request of git_proto.h with its payload. */
int	 fx_serve(const char *dir, uint32_t type, const void *, size_t,
	    struct fx_answer *);
void	 fx_answer_free(struct fx_answer *);
/* A pack of the snapshot (kind GIT_PACK_*) into file, like the space. */
int	 fx_pack(const char *dir, const struct git_snap *, uint32_t kind,
	    const char *file, struct space_done *);

#endif /* GIT_FIXTURE_H */
