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
 * Code out (docs/notes/spaced-git-codeout.md): the fixed script that
 * brings the agent's work out of a space, for review and apply.
 */

#include "spaced.h"

/*
 * Run as the space user: $1 the project folder, $2 the start (the
 * host's id, never the space's ref), $3 the inner limit in seconds, $4
 * the output cap in bytes.  The pack goes to stdout, cut one byte past
 * the cap so that the exec's own cap names it and no git is left
 * writing into a pipe no one reads; 65: git would not add a path of
 * the work tree (one it reads as .git), 66: HEAD is behind the start
 * with nothing on it (a reset past where code in began), 67: HEAD
 * names no commit, 68: paths unmerged (a conflict left in progress),
 * 69: the start is gone from the space; nothing comes out for any of
 * them.  The
 * agent's git directory is read for its objects, HEAD and index only:
 * add and pack run against a git directory of ours (alternates to the
 * agent's objects), so no hook, fsmonitor, filter or driver of the
 * agent's config, info/attributes or environment can run or change
 * what is packed.  Ignored files stay behind (the work tree's
 * .gitignore files and info/exclude).  Whatever comes out is checked
 * whole in the quarantine: nothing here is trusted.
 */
const char codeout_script[] =
	"exec env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/nonexistent "
	"GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null "
	"GIT_TERMINAL_PROMPT=0 GIT_OPTIONAL_LOCKS=0 "
	"GIT_AUTHOR_NAME=" CODEOUT_WORK_NAME " "
	"GIT_AUTHOR_EMAIL=" CODEOUT_WORK_EMAIL " "
	"GIT_COMMITTER_NAME=" CODEOUT_WORK_NAME " "
	"GIT_COMMITTER_EMAIL=" CODEOUT_WORK_EMAIL " "
	"timeout -s KILL \"$3\" /bin/sh -c '\n"
	"set -e\n"
	"P=$1 S=$2 C=$3\n"
	"cd \"$P\"\n"
	"T=$(mktemp -d /tmp/spaced-code-out.XXXXXX)\n"
	"trap \"rm -rf $T\" EXIT\n"
	/*
	 * One run of the agent's git: where its objects are, HEAD, its
	 * tree, the base (start's grandparent); 67: HEAD names no commit,
	 * 69: HEAD does and the start is gone (its ref deleted, pruned).
	 */
	"R=\"git --git-dir=.git -c core.hooksPath=/dev/null "
	"-c core.fsmonitor= rev-parse\"\n"
	"$R --git-path objects \"HEAD^{commit}\" \"HEAD^{tree}\" \"$S~2\" -- "
	">\"$T/r\" 2>/dev/null || { $R -q --verify \"HEAD^{commit}\" "
	">/dev/null 2>&1 || exit 67; exit 69; }\n"
	"{ read -r A && read -r H && read -r HT && read -r B; } <\"$T/r\"\n"
	"case $A in /*) ;; *) A=$P/$A ;; esac\n"
	/* A bare git directory of ours, as git init makes it, less a run. */
	"mkdir -p \"$T/g/objects/info\" \"$T/g/refs\"\n"
	"echo \"ref: refs/heads/m\" >\"$T/g/HEAD\"\n"
	"echo \"$A\" >\"$T/g/objects/info/alternates\"\n"
	/*
	 * A code-in is shallow at base until history comes: without the
	 * agent's shallow file, a walk from base itself (no work) reads
	 * base's parents, absent here, and fails.
	 */
	"[ ! -f .git/shallow ] || [ -L .git/shallow ] || "
	"cp .git/shallow \"$T/g/shallow\"\n"
	/*
	 * Speed only (docs/perf.md): a file of 1 MiB or more is deflated
	 * once, at level 1, by add into a pack that pack-objects copies
	 * out as it is; the pack crosses a local pipe, so level 1 and no
	 * delta search.  Objects and their ids are the same.
	 */
	"G=\"git --git-dir=$T/g --work-tree=$P -c core.hooksPath=/dev/null "
	"-c core.fsmonitor= -c core.attributesFile=/dev/null "
	"-c core.excludesFile=$P/.git/info/exclude -c core.autocrlf=false "
	"-c core.safecrlf=false -c gc.auto=0 -c core.splitIndex=false "
	"-c core.untrackedCache=false -c core.bigFileThreshold=1m "
	"-c pack.compression=1\"\n"
	"export GIT_INDEX_FILE=$T/index U=1\n"
	/*
	 * Whether HEAD is an ancestor of base (66 below), asked beside the
	 * index's steps: it reads commits only, and a second CPU is there.
	 */
	"M=\n"
	"[ \"$H\" = \"$B\" ] || { $G merge-base --is-ancestor \"$H\" \"$B\" "
	">/dev/null 2>&1 & M=$!; }\n"
	/*
	 * From a copy of the agent's index (its times kept, so that git's
	 * racy-entry rule re-hashes a file changed in the index's second):
	 * git trusts the same stat data for the agent's own commit -a, and
	 * a file whose stat changed is hashed again, so only what changed
	 * is read.  An index git cannot read here (split), or one that
	 * hides files from add (assume-unchanged, skip-worktree), gives
	 * way to HEAD's tree, every file hashed.  A lying index gains the
	 * agent nothing it could not write into the file itself.
	 */
	"if ! { [ -f .git/index ] && [ ! -L .git/index ] &&\n"
	"  cp -p .git/index \"$T/index\" && $G ls-files -v >\"$T/v\" 2>&1 &&\n"
	"  ! grep -q \"^[a-zS]\" \"$T/v\"; }; then\n"
	"  rm -f \"$T/index\"\n"
	"  $G read-tree \"$H\" 2>/dev/null || U=\n"
	"fi\n"
	/*
	 * 68: a merge, rebase or cherry-pick stopped on a conflict (its
	 * paths unmerged in the index): add would take the conflict
	 * markers as the work.
	 */
	"! { [ -f \"$T/v\" ] && grep -q \"^[Mm] \" \"$T/v\"; } || exit 68\n"
	/* A tree git will not read into an index goes as committed. */
	"if [ -n \"$U\" ]; then\n"
	"  $G add -A -- . || exit 65\n"
	"  W=$($G write-tree)\n"
	"fi\n"
	/* Committed work only, on an ancestor of base: a reset past it. */
	"if [ -n \"$M\" ] && wait \"$M\" &&\n"
	"  { [ -z \"$U\" ] || [ \"$W\" = \"$HT\" ]; }; then\n"
	"  exit 66\n"
	"fi\n"
	/*
	 * The uncommitted work's commit: fixed names, HEAD's committer
	 * date and the start in its message, so that the same work gives
	 * the same id (and a later apply knows it for this start's).  The date is read
	 * from the commit itself: git log would walk to HEAD's parents,
	 * which a shallow code-in does not have (our git directory has no
	 * shallow file).
	 */
	"if [ -n \"$U\" ] && [ \"$W\" != \"$HT\" ]; then\n"
	"  $G cat-file commit \"$H\" | sed -n \"/^\\$/q;s/^committer .* "
	"\\([0-9][0-9]*\\) \\([-+][0-9][0-9]*\\)\\$/\\1 \\2/p\" >\"$T/h\"\n"
	"  read -r D Z <\"$T/h\"\n"
	"  H=$(GIT_AUTHOR_DATE=\"@$D $Z\" GIT_COMMITTER_DATE=\"@$D $Z\" "
	"$G commit-tree \"$W\" -p \"$H\" -m \"" CODEOUT_WORK_SUBJECT "\" "
	"-m \"start $S\")\n"
	"fi\n"
	/*
	 * Nothing of the start's tree: ^S alone leaves out only what base
	 * holds, and the user's own uncommitted work under a folder would
	 * go out again, which the quarantine refuses as unreached.
	 */
	"printf \"%s\\n^%s\\n^%s^{tree}\\n\" \"$H\" \"$S\" \"$S\" |\n"
	"  { $G pack-objects -q --revs --stdout --delta-base-offset "
	"--window=0 ||\n"
	"  echo $? >\"$T/failed\"; } | head -c \"$C\"\n"
	"[ ! -s \"$T/failed\" ] || exit \"$(cat \"$T/failed\")\"\n"
	"' spaced-code-out \"$1\" \"$2\" \"$4\"\n";
