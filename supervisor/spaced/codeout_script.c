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
 * "pack" or "tip", $5 the output cap in bytes.  The pack (or the tip's
 * id, a line) goes to stdout, cut one byte past the cap so that the
 * exec's own cap names it and no git is left writing into a pipe no
 * one reads; 65: git would not add a path of the work tree (one it
 * reads as .git), and nothing comes out.  The agent's git directory is read for its
 * objects and HEAD only: the index, add and pack run against a git
 * directory of ours (alternates to the agent's objects), so no hook,
 * fsmonitor, filter or driver of the agent's config, info/attributes
 * or environment can run or change what is packed.  Ignored files
 * stay behind (the work tree's .gitignore files and info/exclude).
 */
const char codeout_script[] =
	"exec env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/nonexistent "
	"GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null "
	"GIT_TERMINAL_PROMPT=0 GIT_OPTIONAL_LOCKS=0 "
	"GIT_AUTHOR_NAME=spaced GIT_AUTHOR_EMAIL=code-out@spaced.invalid "
	"GIT_COMMITTER_NAME=spaced GIT_COMMITTER_EMAIL=code-out@spaced.invalid "
	"GIT_AUTHOR_DATE='@0 +0000' GIT_COMMITTER_DATE='@0 +0000' "
	"timeout -s KILL \"$3\" /bin/sh -c '\n"
	"set -e\n"
	"P=$1 S=$2 M=$3 C=$4\n"
	"cd \"$P\"\n"
	"T=$(mktemp -d /tmp/spaced-code-out.XXXXXX)\n"
	"trap \"rm -rf $T\" EXIT\n"
	"git init -q --bare --template= \"$T/g\"\n"
	"A=$(cd \"$P\" && cd \"$(git --git-dir=.git -c core.hooksPath=/dev/null "
	"-c core.fsmonitor= rev-parse --git-path objects)\" && pwd -P)\n"
	"echo \"$A\" >\"$T/g/objects/info/alternates\"\n"
	"G=\"git --git-dir=$T/g --work-tree=$P -c core.hooksPath=/dev/null "
	"-c core.fsmonitor= -c core.attributesFile=/dev/null "
	"-c core.excludesFile=$P/.git/info/exclude -c core.autocrlf=false "
	"-c core.safecrlf=false -c gc.auto=0 -c core.splitIndex=false "
	"-c core.untrackedCache=false\"\n"
	"H=$(git --git-dir=.git -c core.hooksPath=/dev/null -c core.fsmonitor= "
	"rev-parse --verify -q HEAD^{commit})\n"
	"export GIT_INDEX_FILE=$T/index\n"
	/*
	 * A tree git will not read into an index goes as committed.  The
	 * tip mode starts from a copy of the agent's index, whose stat
	 * data spares hashing every file: a tip equal to the kept one is
	 * the only use of its answer, so a lying index gains nothing.
	 */
	"if [ \"$M\" = tip ] && [ -f .git/index ] && [ ! -L .git/index ] &&\n"
	"  cp -p .git/index \"$T/index\" 2>/dev/null ||\n"
	"  $G read-tree \"$H\" 2>/dev/null; then\n"
	"  $G add -A -- . || exit 65\n"
	"  W=$($G write-tree)\n"
	"  if [ \"$W\" != \"$($G rev-parse \"$H^{tree}\")\" ]; then\n"
	"    H=$($G commit-tree \"$W\" -p \"$H\" -m \"spaced: uncommitted work\")\n"
	"  fi\n"
	"fi\n"
	/* The uncommitted work's commit has fixed names and dates. */
	"[ \"$M\" != tip ] || { echo \"$H\"; exit 0; }\n"
	"printf \"%s\\n^%s\\n\" \"$H\" \"$S\" |\n"
	"  { $G pack-objects -q --revs --stdout --delta-base-offset ||\n"
	"  echo $? >\"$T/failed\"; } | head -c \"$C\"\n"
	"[ ! -s \"$T/failed\" ] || exit \"$(cat \"$T/failed\")\"\n"
	"' spaced-code-out \"$1\" \"$2\" \"$4\" \"$5\"\n";
