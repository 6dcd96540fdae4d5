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

#ifndef APPLY_FX_H
#define APPLY_FX_H

/*
 * apply's tests (apply.c, apply_wt.c, packout.c): in ax_dir, `user` is
 * the user's repository at `base`, `space` a clone of it where the
 * agent's work is made with real git; packs come from git pack-objects
 * or from the quarantine (qr_pack_out).  The repository is compared
 * before and after each apply, .git included, with the code-in
 * comparator's manifest (regress/lib/repo_compare.c).
 */

#include <git2.h>
#include <stddef.h>

#include "git_apply.h"
#include "repo_compare.h"

/*
 * git for the test's own commands: none of the planted programs runs,
 * and no gc --auto: a commit of 10,000 files left one repacking the
 * repository in the background while the test read and removed it.
 */
#define AXG	"env GIT_OPTIONAL_LOCKS=0 git -c core.hooksPath=/dev/null " \
		"-c core.fsmonitor= -c filter.mark.clean= -c filter.mark.smudge= " \
		"-c filter.mark.process= -c filter.mark.required=false " \
		"-c gc.auto=0 -c maintenance.auto=false"

extern char	 ax_dir[64];
extern char	 ax_base[GIT_OID_HEXSZ + 1];

void	 ax_setup(void);
void	 ax_teardown(void);
/* A shell command in ax_dir (authors set, AXG as $G); its status. */
int	 ax_sh(const char *, ...) __attribute__((__format__(printf, 1, 2)));
/* The space's pack of tip less hide into file (under ax_dir); status. */
int	 ax_pack(const char *, const char *, const char *);
/* The same, its first line of output, asserting it succeeded. */
void	 ax_out(char *, size_t, const char *, ...)
	    __attribute__((__format__(printf, 3, 4)));
/* A rev of a repository under ax_dir as an id. */
void	 ax_oid(git_oid *, const char *, const char *);
/* A request for repository dir: mode, branch, tip (base is ax_base). */
void	 ax_req(struct ga_req *, int, const char *, const char *);
/* ga_begin, the file fed in chunks of n bytes, ga_finish: 0 or -1. */
int	 ax_apply(const char *, const struct ga_req *, const char *, size_t,
	    struct ga_result *, char *, size_t);
/* Manifest of a repository under ax_dir. */
void	 ax_take(const char *, struct rc_manifest *);
/*
 * Differences between two manifests that allowed(path) does not allow
 * (NULL: none is); the first is described in first.
 */
size_t	 ax_diff(const struct rc_manifest *, const struct rc_manifest *,
	    int (*)(const char *), char *, size_t);
/* The repository unchanged since m, entry for entry; m is freed. */
void	 ax_untouched(const char *, struct rc_manifest *);
/* What -b may change: the new pack, a branch spaced/... and its log. */
int	 ax_branch_allowed(const char *);
/* apply's staging folder (a manifest taken mid-way holds it). */
int	 ax_staging(const char *);
/* Markers the planted programs left in ax_dir/marks. */
int	 ax_marks(void);

#endif /* APPLY_FX_H */
