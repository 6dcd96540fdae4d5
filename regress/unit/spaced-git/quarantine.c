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
 * worker-git/spaced-git/quarantine.c on packs real git writes from a
 * real repository: ordinary work passes (edits, new files, deletions,
 * renames, binary, names with spaces and Unicode, several commits);
 * each trick made with git's plumbing (mktree takes names a checkout
 * never would) is named with its path; packs that lie are refused.
 */

#include <criterion/criterion.h>

#include <fcntl.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "quarantine.h"

static char		 dir[] = "/tmp/spaced-quarantine.XXXXXX";
static char		 start[GIT_OID_HEXSZ + 1];
static struct qr_caps	 caps;
static git_repository	*q;
static char		 seen[8192];
static int		 qn;

/* Run in the source repository; the first line it prints, if any. */
static void
sh(const char *script, char *out, size_t len)
{
	char	 cmd[8192];
	FILE	*fp;

	snprintf(cmd, sizeof(cmd), "cd %s/src && export GIT_AUTHOR_NAME=a "
	    "GIT_AUTHOR_EMAIL=a@a.invalid GIT_COMMITTER_NAME=a "
	    "GIT_COMMITTER_EMAIL=a@a.invalid && S=%s && "
	    "tree_with() { (git ls-tree \"$S\"; printf \"$@\") | "
	    "git mktree --missing; } && "
	    "commit_of() { git commit-tree -p \"$S\" -m trick \"$1\"; } && %s",
	    dir, start, script);
	cr_assert_not_null(fp = popen(cmd, "r"));
	if (out != NULL) {
		out[0] = '\0';
		if (fgets(out, (int)len, fp) != NULL)
			out[strcspn(out, "\n")] = '\0';
	}
	cr_assert_eq(pclose(fp), 0, "%s", script);
}

static void
setup(void)
{
	char	 cmd[2048];

	git_libgit2_init();
	qr_caps_default(&caps);
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cd %s && git init -q -b main src && "
	    "cd src && echo a >a.txt && mkdir bin lib && "
	    "printf '#!/bin/sh\\n' >bin/run.sh && chmod +x bin/run.sh && "
	    "echo x >lib/x.c && head -c 3000 /dev/urandom >keep.bin && "
	    "echo '*.c text' >.gitattributes && git add . && "
	    "git -c user.name=a -c user.email=a@a.invalid commit -qm base",
	    dir);
	cr_assert_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "git -C %s/src rev-parse HEAD", dir);
	{
		FILE	*fp = popen(cmd, "r");

		cr_assert_not_null(fp);
		cr_assert_not_null(fgets(start, sizeof(start), fp));
		pclose(fp);
	}
	seen[0] = '\0';
}

static void
teardown(void)
{
	char	 cmd[128];

	git_repository_free(q);
	q = NULL;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
	git_libgit2_shutdown();
}

TestSuite(quarantine, .init = setup, .fini = teardown);

static void
collect(void *arg, uint32_t reason, const git_oid *commit, const char *path,
    size_t len)
{
	char	 esc[512];

	policy_escape(esc, sizeof(esc), path, len);
	strlcat(seen, policy_reason_name(reason), sizeof(seen));
	strlcat(seen, ":", sizeof(seen));
	strlcat(seen, esc, sizeof(seen));
	strlcat(seen, "\n", sizeof(seen));
}

/* pack-objects' output for revs into a file; its fd. */
static int
pack_fd(const char *revs)
{
	char	 path[256], script[1024];
	int	 fd;

	snprintf(path, sizeof(path), "%s/p%d.pack", dir, qn++);
	snprintf(script, sizeof(script), "printf '%s' | git pack-objects -q "
	    "--revs --stdout --delta-base-offset >%s", revs, path);
	sh(script, NULL, 0);
	cr_assert_neq(fd = open(path, O_RDONLY), -1);
	return fd;
}

/* Indexes pack-objects' output for revs into q, which must take it. */
static void
index_revs(const char *revs, struct qr_result *res)
{
	const char	*why = NULL;
	int		 fd;

	fd = pack_fd(revs);
	cr_assert_eq(qr_index(q, fd, &caps, res, &why), 0, "%s", why);
	close(fd);
}

/* A fresh quarantine holding the start's objects. */
static void
quarantine_new(void)
{
	struct qr_result	 res;
	char			 path[256], revs[64];

	snprintf(path, sizeof(path), "%s/q%d.git", dir, qn);
	git_repository_free(q);
	cr_assert_eq(git_repository_init(&q, path, 1), 0);
	snprintf(revs, sizeof(revs), "%s\\n", start);
	index_revs(revs, &res);
}

/* Index and check the work from start to tip: qr_check's verdict. */
static int
bring(const char *tip, struct qr_result *res, const char **why)
{
	char	 revs[128];
	git_oid	 s, t;
	int	 fd, rc;

	quarantine_new();
	snprintf(revs, sizeof(revs), "%s\\n^%s\\n", tip, start);
	fd = pack_fd(revs);
	memset(res, 0, sizeof(*res));
	rc = qr_index(q, fd, &caps, res, why);
	close(fd);
	if (rc == -1)
		return -1;
	git_oid_fromstr(&s, start);
	git_oid_fromstr(&t, tip);
	return qr_check(q, &s, &s, &t, &caps, collect, NULL, res, why);
}

Test(quarantine, ordinary_work_passes)
{
	struct qr_result	 res;
	const char		*why = NULL;
	char			 tip[64];

	sh("git checkout -q main && echo b >>a.txt && mkdir -p 'dir with "
	    "space' && echo u >'dir with space/\xc3\xbc n.txt' && "
	    "git rm -q lib/x.c && git mv keep.bin moved.bin && "
	    "head -c 5000 /dev/urandom >new.bin && git add -A && "
	    "git commit -qm one && echo c >>a.txt && git commit -qam two && "
	    "git rev-parse HEAD", tip, sizeof(tip));
	cr_assert_eq(bring(tip, &res, &why), 0, "%s", why);
	cr_expect_eq(res.qr_flags, 0, "flags %#x: %s", res.qr_flags, seen);
	cr_expect_eq(res.qr_commits, 2);
	cr_expect_gt(res.qr_objects, 0);
	{
		git_oid	 s, t, found;

		git_oid_fromstr(&s, start);
		git_oid_fromstr(&t, tip);
		cr_expect_eq(qr_tip(q, &s, &res, &found, &why), 0, "%s", why);
		cr_expect(git_oid_equal(&found, &t), "the tip, from the pack");
	}
}

Test(quarantine, allowed_by_name_only)
{
	struct qr_result	 res;
	const char		*why = NULL;
	char			 tip[64];

	caps.qc_policy.pc_file_max = 4000;
	sh("git checkout -q main && echo x >.gitmodules && "
	    "echo '*.c filter=evil' >.gitattributes && echo s >tool.sh && "
	    "chmod +x tool.sh && head -c 4001 /dev/zero >big && git add -A "
	    "&& git commit -qm flagged && git rev-parse HEAD", tip,
	    sizeof(tip));
	cr_assert_eq(bring(tip, &res, &why), 0, "%s", why);
	cr_expect_eq(res.qr_flags, POLICY_GITMODULES | POLICY_ATTR_DRIVER |
	    POLICY_NEW_EXECUTABLE | POLICY_LARGE_FILE, "%#x", res.qr_flags);
	cr_expect(strstr(seen, "gitmodules:.gitmodules\n") != NULL, "%s", seen);
	cr_expect(strstr(seen, "attributes_driver:.gitattributes\n") != NULL);
	cr_expect(strstr(seen, "new_executable:tool.sh\n") != NULL);
	cr_expect(strstr(seen, "large_file:big\n") != NULL);
	cr_expect(strstr(seen, "bin/run.sh") == NULL,
	    "an executable of the start is not new: %s", seen);
}

/* One trick as a commit on the start; its reason and path reported. */
static void
trick(const char *script, uint32_t reason, const char *line)
{
	struct qr_result	 res;
	const char		*why = NULL;
	char			 tip[64];

	seen[0] = '\0';
	sh(script, tip, sizeof(tip));
	cr_assert_eq(bring(tip, &res, &why), 0, "%s: %s", script, why);
	cr_expect(res.qr_flags & reason, "%s: flags %#x", script,
	    res.qr_flags);
	cr_expect(strstr(seen, line) != NULL, "%s: want %s in:\n%s", script,
	    line, seen);
}

Test(quarantine, never_allowed_tricks_named)
{
	trick("B=$(echo '[core]' | git hash-object -w --stdin) && "
	    "T=$(printf '100644 blob %s\\tconfig\\n' $B | git mktree) && "
	    "commit_of $(tree_with '040000 tree %s\\t.git\\n' $T)",
	    POLICY_DOTGIT, "dotgit:.git\n");
	trick("B=$(echo h | git hash-object -w --stdin) && "
	    "commit_of $(tree_with '100755 blob %s\\t.GIT\\n' $B)",
	    POLICY_DOTGIT, "dotgit:.GIT\n");
	trick("B=$(echo h | git hash-object -w --stdin) && "
	    "T=$(printf '100644 blob %s\\tconfig\\n' $B | git mktree) && "
	    "commit_of $(tree_with '040000 tree %s\\tGIT~1\\n' $T)",
	    POLICY_DOTGIT, "dotgit:GIT~1\n");
	trick("B=$(echo h | git hash-object -w --stdin) && "
	    "commit_of $(tree_with '100644 blob %s\\t.git. \\n' $B)",
	    POLICY_DOTGIT, "dotgit:.git. \n");
	trick("B=$(echo h | git hash-object -w --stdin) && "
	    "commit_of $(tree_with '100644 blob %s\\t.g\xe2\x80\x8cit\\n' $B)",
	    POLICY_DOTGIT, "dotgit:.g\\u{200c}it\n");
	trick("B=$(printf ../../../etc | git hash-object -w --stdin) && "
	    "commit_of $(tree_with '120000 blob %s\\tout\\n' $B)",
	    POLICY_SYMLINK_ESCAPE, "symlink_escape:out\n");
	trick("B=$(printf .git/hooks | git hash-object -w --stdin) && "
	    "commit_of $(tree_with '120000 blob %s\\thooks\\n' $B)",
	    POLICY_SYMLINK_GIT, "symlink_git:hooks\n");
	trick("commit_of $(tree_with '160000 commit %s\\tsub\\n' $S)",
	    POLICY_GITLINK, "gitlink:sub\n");
	trick("B=$(echo h | git hash-object -w --stdin) && "
	    "T=$(printf '100644 blob %s\\tpasswd\\n' $B | git mktree) && "
	    "commit_of $(tree_with '040000 tree %s\\t..\\n' $T)",
	    POLICY_DOTDOT, "dotdot:..\n");
	/* A name that would drive a terminal is shown escaped. */
	trick("B=$(printf /etc | git hash-object -w --stdin) && "
	    "commit_of $(tree_with '120000 blob %s\\tbad\\033]0;x\\n' $B)",
	    POLICY_SYMLINK_ESCAPE, "symlink_escape:bad\\x1b]0;x\n");
}

Test(quarantine, a_trick_in_an_earlier_commit_counts)
{
	struct qr_result	 res;
	const char		*why = NULL;
	char			 tip[64];

	/* .git planted in one commit, gone in the next. */
	sh("B=$(echo h | git hash-object -w --stdin) && "
	    "C=$(commit_of $(tree_with '100644 blob %s\\t.Git\\n' $B)) && "
	    "git commit-tree -p $C -m clean $(git rev-parse $S^{tree})",
	    tip, sizeof(tip));
	cr_assert_eq(bring(tip, &res, &why), 0, "%s", why);
	cr_expect(res.qr_flags & POLICY_DOTGIT, "%s", seen);
	cr_expect_eq(res.qr_commits, 2);
}

Test(quarantine, packs_that_lie)
{
	struct qr_result	 res;
	const char		*why = NULL;
	char			 tip[64], other[64], revs[256];
	git_oid			 s, t;
	int			 fd;

	/* A commit of another history. */
	sh("git commit-tree -m root $(git rev-parse $S^{tree})", tip,
	    sizeof(tip));
	cr_expect_eq(bring(tip, &res, &why), -1);
	cr_expect_str_eq(why, QR_NOT_DESCENDING);
	/* A merge of the start with another history. */
	sh("R=$(git commit-tree -m root $(git rev-parse $S^{tree})) && "
	    "git commit-tree -p $S -p $R -m merge $(git rev-parse $S^{tree})",
	    tip, sizeof(tip));
	cr_expect_eq(bring(tip, &res, &why), -1);
	cr_expect_str_eq(why, QR_NOT_DESCENDING);
	/* Two lines of work: no one tip. */
	{
		char	 a[64], b[64];
		git_oid	 found;

		sh("commit_of $(git rev-parse $S^{tree})", a, sizeof(a));
		sh("git commit-tree -p $S -m b $(git rev-parse $S^{tree})", b,
		    sizeof(b));
		quarantine_new();
		snprintf(revs, sizeof(revs), "%s\\n%s\\n^%s\\n", a, b, start);
		index_revs(revs, &res);
		git_oid_fromstr(&s, start);
		cr_expect_eq(qr_tip(q, &s, &res, &found, &why), -1);
		cr_expect_str_eq(why, "more than one line of work (two tips)");
	}
	/* An object no new commit reaches. */
	sh("echo one >>a.txt && git commit -qam one && git rev-parse HEAD",
	    tip, sizeof(tip));
	sh("echo foreign | git hash-object -w --stdin", other, sizeof(other));
	quarantine_new();
	snprintf(revs, sizeof(revs), "%s\\n^%s\\n%s\\n", tip, start, other);
	index_revs(revs, &res);
	git_oid_fromstr(&s, start);
	git_oid_fromstr(&t, tip);
	cr_expect_eq(qr_check(q, &s, &s, &t, &caps, collect, NULL, &res, &why),
	    -1);
	cr_expect_str_eq(why, "an object the new commits do not reach");
	/* The control: the same work without it passes. */
	cr_expect_eq(bring(tip, &res, &why), 0, "%s", why);
	/* A pack without the blob its commit names. */
	sh("echo lost >lost.txt && git add lost.txt && git commit -qm lost && "
	    "git rev-parse HEAD", tip, sizeof(tip));
	quarantine_new();
	snprintf(revs, sizeof(revs), "git rev-list --objects %s ^%s | "
	    "grep -v ' lost.txt$' | cut -d' ' -f1 | "
	    "git pack-objects -q --window=0 --stdout >%s/lost.pack", tip,
	    start, dir);
	sh(revs, NULL, 0);
	snprintf(revs, sizeof(revs), "%s/lost.pack", dir);
	cr_assert_neq(fd = open(revs, O_RDONLY), -1);
	cr_assert_eq(qr_index(q, fd, &caps, &res, &why), 0, "%s", why);
	close(fd);
	git_oid_fromstr(&t, tip);
	cr_expect_eq(qr_check(q, &s, &s, &t, &caps, collect, NULL, &res, &why),
	    -1);
	cr_expect_str_eq(why, "an object the new commits name is missing");
	/* Cut short. */
	quarantine_new();
	snprintf(revs, sizeof(revs), "%s\\n^%s\\n", tip, start);
	fd = pack_fd(revs);
	{
		char	 path[256];

		snprintf(path, sizeof(path), "%s/p%d.pack", dir, qn - 1);
		cr_assert_eq(truncate(path, 30), 0);
	}
	cr_expect_eq(qr_index(q, fd, &caps, &res, &why), -1);
	cr_expect_str_eq(why, "a pack cut short");
	close(fd);
}

Test(quarantine, caps_on_commits_and_width)
{
	struct qr_result	 res;
	const char		*why = NULL;
	char			 tip[64];

	sh("git checkout -q main && for i in 1 2 3; do echo $i >>a.txt && "
	    "git commit -qam c$i; done && mkdir w && for i in $(seq 1 12); "
	    "do echo $i >w/$i; done && git add w && git commit -qm w && "
	    "git rev-parse HEAD", tip, sizeof(tip));
	caps.qc_commits_max = 3;
	cr_expect_eq(bring(tip, &res, &why), -1);
	cr_expect_str_eq(why, "more commits than the cap");
	caps.qc_commits_max = 4;
	caps.qc_policy.pc_entries_max = 11;
	cr_expect_eq(bring(tip, &res, &why), 0, "%s", why);
	cr_expect(res.qr_flags & POLICY_TOO_MANY, "%s", seen);
	cr_expect(strstr(seen, "tree_too_wide:w\n") != NULL, "%s", seen);
}

/* A space that sends a pack's head and then nothing: the time cap. */
Test(quarantine, a_space_that_hangs)
{
	struct qr_result	 res;
	const char		*why = NULL;
	int			 p[2];

	quarantine_new();
	cr_assert_eq(pipe(p), 0);
	cr_assert_eq(write(p[1], "PACK\0\0\0\2\0\0\0\1", 12), 12);
	caps.qc_seconds = 1;
	cr_expect_eq(qr_index(q, p[0], &caps, &res, &why), -1);
	cr_expect_str_eq(why, "the pack took longer than the time cap");
	close(p[0]);
	close(p[1]);
}

/* A space that floods: a blob of 4 MiB stored as is, under a 1 MiB cap. */
Test(quarantine, a_space_that_floods)
{
	struct qr_result	 res;
	const char		*why = NULL;
	uint8_t			*raw, *z;
	uLongf			 zlen;
	size_t			 n = 4 << 20, i;
	int			 fd;
	uint8_t			 head[16] = { 'P', 'A', 'C', 'K', 0, 0, 0, 2,
	    0, 0, 0, 1 };

	quarantine_new();
	cr_assert_not_null(raw = malloc(n));
	for (i = 0; i < n; i++)
		raw[i] = (uint8_t)(i * 2654435761u >> 24);
	zlen = compressBound(n);
	cr_assert_not_null(z = malloc(zlen));
	cr_assert_eq(compress2(z, &zlen, raw, n, 0), Z_OK);
	cr_assert_neq(fd = memfd_create("flood", 0), -1);
	/* blob (3), size 4 MiB: 0x400000 in git's header varint */
	head[12] = 0x80 | (3 << 4);
	head[13] = 0x80;
	head[14] = 0x80;
	head[15] = 0x10;
	cr_assert_eq(write(fd, head, 16), 16);
	cr_assert_eq(write(fd, z, zlen), (ssize_t)zlen);
	cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
	caps.qc_pack.ps_pack_max = 1 << 20;
	cr_expect_eq(qr_index(q, fd, &caps, &res, &why), -1);
	cr_expect_str_eq(why, "a pack over the size cap");
	caps.qc_pack.ps_pack_max = PACKSCAN_PACK_MAX;
	cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
	quarantine_new();
	cr_expect_eq(qr_index(q, fd, &caps, &res, &why), -1);
	cr_expect_str_eq(why, "a pack cut short",
	    "control: under the default cap it is read to its end");
	close(fd);
	free(raw);
	free(z);
}

/*
 * The agent works on the base; the start (code in's snapshot of the
 * user's uncommitted work) is the user's: its entries are not the
 * agent's to answer for, a commit on the start descends too.
 */
Test(quarantine, the_users_own_work_is_not_flagged)
{
	struct qr_result	 res;
	const char		*why = NULL;
	char			 snap[64], tip[64], revs[256];
	git_oid			 b, s, t;

	/* The snapshot: the user's new executable, uncommitted. */
	sh("B=$(printf '#!/bin/sh\\n' | git hash-object -w --stdin) && "
	    "git commit-tree -p $S -m snapshot $(tree_with "
	    "'100755 blob %s\\tusertool.sh\\n' $B)", snap, sizeof(snap));
	/* The agent's: the same file (brought along) and one of its own. */
	sh("B=$(printf '#!/bin/sh\\n' | git hash-object -w --stdin) && "
	    "A=$(echo agent | git hash-object -w --stdin) && "
	    "commit_of $(tree_with '100755 blob %s\\tusertool.sh\\n"
	    "100755 blob %s\\tagent.sh\\n' $B $A)", tip, sizeof(tip));
	git_repository_free(q);
	snprintf(revs, sizeof(revs), "%s/qs.git", dir);
	cr_assert_eq(git_repository_init(&q, revs, 1), 0);
	snprintf(revs, sizeof(revs), "%s\\n", snap);
	index_revs(revs, &res);
	snprintf(revs, sizeof(revs), "%s\\n^%s\\n^%s\\n", tip, start, snap);
	index_revs(revs, &res);
	git_oid_fromstr(&b, start);	/* the fixture's start is the base */
	git_oid_fromstr(&s, snap);
	git_oid_fromstr(&t, tip);
	cr_assert_eq(qr_check(q, &b, &s, &t, &caps, collect, NULL, &res,
	    &why), 0, "%s", why);
	cr_expect_str_eq(seen, "new_executable:agent.sh\n");
	/* Control: without the snapshot as the start, both are the agent's. */
	seen[0] = '\0';
	cr_assert_eq(qr_check(q, &b, &b, &t, &caps, collect, NULL, &res,
	    &why), 0, "%s", why);
	cr_expect(strstr(seen, "new_executable:usertool.sh\n") != NULL, "%s",
	    seen);
	/* A commit on the snapshot descends from the base too. */
	snprintf(revs, sizeof(revs), "git commit-tree -p %s -m on-snapshot "
	    "$(git rev-parse %s^{tree})", snap, snap);
	sh(revs, tip, sizeof(tip));
	snprintf(revs, sizeof(revs), "%s\\n^%s\\n^%s\\n", tip, start, snap);
	index_revs(revs, &res);
	git_oid_fromstr(&t, tip);
	seen[0] = '\0';
	cr_expect_eq(qr_check(q, &b, &s, &t, &caps, collect, NULL, &res,
	    &why), 0, "%s", why);
	cr_expect_str_eq(seen, "", "nothing of the agent's: %s", seen);
}

/*
 * A submodule of the user's: the start has a gitlink.  Work that leaves
 * it as the start has it is not flagged (the entry is the user's, not
 * something the agent brings); a gitlink moved to another commit or
 * added at another path is.
 */
static void
on_submodule(const char *snap, const char *script, const char *want)
{
	struct qr_result	 res;
	const char		*why = NULL;
	char			 tip[64], revs[256];
	git_oid			 b, s, t;

	sh(script, tip, sizeof(tip));
	snprintf(revs, sizeof(revs), "%s\\n^%s\\n^%s\\n", tip, start, snap);
	index_revs(revs, &res);
	git_oid_fromstr(&b, start);
	git_oid_fromstr(&s, snap);
	git_oid_fromstr(&t, tip);
	seen[0] = '\0';
	cr_assert_eq(qr_check(q, &b, &s, &t, &caps, collect, NULL, &res,
	    &why), 0, "%s", why);
	cr_expect_str_eq(seen, want, "%s", script);
}

#define SUB_A	"1111111111111111111111111111111111111111"
#define SUB_B	"2222222222222222222222222222222222222222"

Test(quarantine, a_submodule_of_the_base)
{
	struct qr_result	 res;
	char			 snap[64], revs[256], script[512];

	sh("git commit-tree -p $S -m snapshot $(tree_with "
	    "'160000 commit " SUB_A "\\tsub\\n')", snap, sizeof(snap));
	git_repository_free(q);
	snprintf(revs, sizeof(revs), "%s/qm.git", dir);
	cr_assert_eq(git_repository_init(&q, revs, 1), 0);
	snprintf(revs, sizeof(revs), "%s\\n", snap);
	index_revs(revs, &res);
	/* The agent's edit beside the submodule, which it leaves. */
	snprintf(script, sizeof(script), "B=$(echo w | git hash-object -w "
	    "--stdin) && git commit-tree -p %s -m work $( (git ls-tree %s | "
	    "grep -v '\ta.txt$'; printf '100644 blob %%s\\ta.txt\\n' $B) | "
	    "git mktree --missing)", snap, snap);
	on_submodule(snap, script, "");
	/* The same gitlink moved to another commit. */
	snprintf(script, sizeof(script), "git commit-tree -p %s -m moved $( "
	    "(git ls-tree %s | grep -v '\tsub$'; printf '160000 commit "
	    SUB_B "\\tsub\\n') | git mktree --missing)", snap, snap);
	on_submodule(snap, script, "gitlink:sub\n");
	/* A second gitlink, the first left as it is. */
	snprintf(script, sizeof(script), "git commit-tree -p %s -m added $( "
	    "(git ls-tree %s; printf '160000 commit " SUB_A "\\tsub2\\n') | "
	    "git mktree --missing)", snap, snap);
	on_submodule(snap, script, "gitlink:sub2\n");
}
