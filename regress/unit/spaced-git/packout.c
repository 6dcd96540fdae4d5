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
 * The whole way back without processes: the space's pack into a
 * quarantine (qr_index, qr_tip), out of it (qr_pack_out,
 * worker-git/spaced-git/qr_packout.c) and into the user's repository
 * (git_apply.c).  The pack out holds exactly what the owner lacks,
 * real git reads it, and a check that fails sends no byte.
 */

#include <criterion/criterion.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply_fx.h"

TestSuite(packout, .init = ax_setup, .fini = ax_teardown);

struct sink {
	int	 fd;
	size_t	 chunks, bytes, stop_after;
};

static int
to_file(void *arg, const void *buf, size_t len)
{
	struct sink	*s = arg;

	cr_assert_leq(len, 65536, "chunks are bounded");
	if (s->stop_after > 0 && s->chunks == s->stop_after)
		return -1;
	s->chunks++;
	s->bytes += len;
	cr_assert_eq(write(s->fd, buf, len), (ssize_t)len);
	return 0;
}

/* ax_dir/name.git: the user's objects at base, then the space's pack. */
static git_repository *
quarantine(const char *name, const char *revs, struct qr_result *res)
{
	git_repository	*q;
	struct qr_caps	 caps;
	const char	*why = NULL;
	char		 path[256];
	int		 fd;

	qr_caps_default(&caps);
	snprintf(path, sizeof(path), "%s/%s.git", ax_dir, name);
	cr_assert_eq(git_repository_init(&q, path, 1), 0);
	cr_assert_eq(ax_sh("printf '%s\\n' | $G -C user pack-objects -q "
	    "--revs --stdout --delta-base-offset >in.pack && printf '%s' | "
	    "$G -C space pack-objects -q --revs --stdout --delta-base-offset "
	    ">space.pack", ax_base, revs), 0);
	snprintf(path, sizeof(path), "%s/in.pack", ax_dir);
	cr_assert_neq(fd = open(path, O_RDONLY), -1);
	memset(res, 0, sizeof(*res));
	cr_assert_eq(qr_index(q, fd, &caps, res, &why), 0, "%s", why);
	close(fd);
	snprintf(path, sizeof(path), "%s/space.pack", ax_dir);
	cr_assert_neq(fd = open(path, O_RDONLY), -1);
	cr_assert_eq(qr_index(q, fd, &caps, res, &why), 0, "%s", why);
	close(fd);
	return q;
}

/* qr_pack_out into ax_dir/file: its verdict. */
static int
pack_out(git_repository *q, const struct qr_out *req, struct qr_result *res,
    const char *file, struct sink *s, const char **why)
{
	struct qr_caps	 caps;
	char		 path[256];
	int		 rc;

	qr_caps_default(&caps);
	snprintf(path, sizeof(path), "%s/%s", ax_dir, file);
	cr_assert_neq(s->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644),
	    -1);
	rc = qr_pack_out(q, req, &caps, res, to_file, s, why);
	close(s->fd);
	return rc;
}

static void
out_req(struct qr_out *o, const char *tip)
{
	memset(o, 0, sizeof(*o));
	git_oid_fromstr(&o->qo_base, ax_base);
	git_oid_fromstr(&o->qo_tip, tip);
}

#define WORK	"cd space && echo b >>a.txt && echo new >new.txt && " \
	"$G rm -q lib/x.c && $G mv keep.bin moved.bin && chmod -x bin/run.sh " \
	"&& $G add -A && $G commit -qm 'one: edits' && " \
	"export GIT_AUTHOR_NAME=Bob GIT_AUTHOR_EMAIL=bob@b.invalid && " \
	"head -c 5000 /dev/urandom >new.bin && mkdir -p deep/er && " \
	"echo n >'deep/er/na\xc3\xafve \xc3\xbcn\xc3\xaf" "code.txt' && " \
	"ln -sf new.txt link && $G add -A && $G commit -qm 'two: binary' && " \
	"echo c >>a.txt && $G commit -qam three && $G rev-parse HEAD"

Test(packout, the_way_back_to_a_branch_then_a_work_tree)
{
	struct qr_result	 res;
	struct qr_out		 o;
	struct ga_result	 gr;
	struct ga_req		 req;
	struct sink		 s = { 0 };
	git_repository		*q;
	const char		*why = NULL;
	char			 tip[64], err[512], want[64], got[64];

	cr_assert_eq(ax_sh("$G clone -q user user2"), 0);
	ax_out(tip, sizeof(tip), WORK);
	{
		char	 revs[160];

		snprintf(revs, sizeof(revs), "%s\\n^%s\\n", tip, ax_base);
		q = quarantine("q", revs, &res);
	}
	out_req(&o, tip);
	cr_assert_eq(pack_out(q, &o, &res, "out.pack", &s, &why), 0, "%s",
	    why);
	cr_expect_eq(res.qr_commits, 3);
	/* Exactly the objects of tip not in base, by git's own count. */
	ax_out(want, sizeof(want), "$G -C space rev-list --objects %s ^%s | "
	    "wc -l", tip, ax_base);
	snprintf(got, sizeof(got), "%u", res.qr_objects);
	cr_expect_str_eq(got, want);
	/* Real git reads it whole. */
	cr_expect_eq(ax_sh("mkdir v && cd v && $G init -q --bare && "
	    "$G index-pack --stdin <../out.pack >/dev/null && "
	    "$G verify-pack ./objects/pack/*.idx"), 0);
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	cr_assert_eq(ax_apply("user", &req, "out.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	cr_expect_eq(gr.gr_commits, 3);
	cr_expect_eq(ax_sh("cd user && $G diff --quiet %s spaced/t -- && "
	    "test \"$($G log --format=%%an spaced/t -1)\" = Bob && "
	    "$G fsck --no-dangling --no-progress", tip), 0);
	ax_req(&req, GA_WORKTREE, NULL, tip);
	cr_assert_eq(ax_apply("user2", &req, "out.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	ga_result_free(&gr);
	cr_expect_eq(ax_sh("cd user2 && test \"$($G write-tree)\" = "
	    "\"$($G rev-parse %s^{tree})\" && $G diff --quiet && "
	    "test \"$($G rev-parse HEAD)\" = %s", tip, ax_base), 0);
	git_repository_free(q);
}

Test(packout, a_second_apply_sends_only_what_is_new)
{
	struct qr_result	 res;
	struct qr_out		 o;
	struct ga_result	 gr;
	struct ga_req		 req;
	struct sink		 s = { 0 };
	git_repository		*q;
	const char		*why = NULL;
	char			 tip1[64], tip2[64], err[512], revs[256];
	char			 want[64], got[64];

	ax_out(tip1, sizeof(tip1), WORK);
	snprintf(revs, sizeof(revs), "%s\\n^%s\\n", tip1, ax_base);
	q = quarantine("q", revs, &res);
	out_req(&o, tip1);
	cr_assert_eq(pack_out(q, &o, &res, "out1.pack", &s, &why), 0, "%s",
	    why);
	git_repository_free(q);
	ax_req(&req, GA_BRANCH, "spaced/t", tip1);
	cr_assert_eq(ax_apply("user", &req, "out1.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	/* More work; the space packs all of it again, from the start. */
	ax_out(tip2, sizeof(tip2), "cd space && echo d >>new.txt && "
	    "$G commit -qam four && $G rev-parse HEAD");
	snprintf(revs, sizeof(revs), "%s\\n^%s\\n", tip2, ax_base);
	q = quarantine("q2", revs, &res);
	out_req(&o, tip2);
	git_oid_fromstr(&o.qo_have, tip1);
	cr_assert_eq(pack_out(q, &o, &res, "out2.pack", &s, &why), 0, "%s",
	    why);
	ax_out(want, sizeof(want), "$G -C space rev-list --objects %s ^%s | "
	    "wc -l", tip2, tip1);
	snprintf(got, sizeof(got), "%u", res.qr_objects);
	cr_expect_str_eq(got, want, "only what tip1 lacks");
	ax_req(&req, GA_BRANCH, "spaced/t", tip2);
	cr_assert_eq(ax_apply("user", &req, "out2.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	cr_expect_eq(gr.gr_commits, 1);
	/* A have the quarantine does not know, or off the work: all sent. */
	git_oid_fromstr(&o.qo_have, "0123456789012345678901234567890123456789");
	cr_assert_eq(pack_out(q, &o, &res, "out3.pack", &s, &why), 0, "%s",
	    why);
	ax_out(want, sizeof(want), "$G -C space rev-list --objects %s ^%s | "
	    "wc -l", tip2, ax_base);
	snprintf(got, sizeof(got), "%u", res.qr_objects);
	cr_expect_str_eq(got, want);
	git_repository_free(q);
}

Test(packout, a_check_that_fails_sends_no_byte)
{
	struct qr_result	 res;
	struct qr_out		 o;
	struct sink		 s = { 0 };
	git_repository		*q;
	const char		*why = NULL;
	char			 tip[64], blob[64], revs[256];

	ax_out(tip, sizeof(tip), "cd space && chmod +x a.txt && "
	    "$G commit -qam exec && $G rev-parse HEAD");
	snprintf(revs, sizeof(revs), "%s\\n^%s\\n", tip, ax_base);
	q = quarantine("q", revs, &res);
	out_req(&o, tip);
	cr_expect_eq(pack_out(q, &o, &res, "out.pack", &s, &why), -1);
	cr_expect_eq(res.qr_flags, POLICY_NEW_EXECUTABLE);
	cr_expect_eq(s.chunks, 0, "not a byte");
	/* A never-allowed reason cannot be allowed. */
	o.qo_allow = POLICY_NEVER;
	cr_expect_eq(pack_out(q, &o, &res, "out.pack", &s, &why), -1);
	/* Allowed by name: sent. */
	o.qo_allow = POLICY_NEW_EXECUTABLE;
	cr_expect_eq(pack_out(q, &o, &res, "out.pack", &s, &why), 0, "%s",
	    why);
	cr_expect_gt(s.chunks, 0);
	git_repository_free(q);
	/* A store whose pack holds an object no new commit reaches. */
	ax_out(blob, sizeof(blob), "echo stray | $G -C space hash-object -w "
	    "--stdin");
	snprintf(revs, sizeof(revs), "%s\\n^%s\\n%s\\n", tip, ax_base, blob);
	q = quarantine("q2", revs, &res);
	s.chunks = 0;
	o.qo_allow = POLICY_NEW_EXECUTABLE;
	cr_expect_eq(pack_out(q, &o, &res, "out.pack", &s, &why), -1);
	cr_expect_str_eq(why, "an object the new commits do not reach");
	cr_expect_eq(s.chunks, 0);
	git_repository_free(q);
}

Test(packout, a_stream_that_stops_stops_the_pack)
{
	struct qr_result	 res;
	struct qr_out		 o;
	struct sink		 s = { 0 };
	git_repository		*q;
	const char		*why = NULL;
	char			 tip[64], revs[256];

	ax_out(tip, sizeof(tip), "cd space && head -c 300000 /dev/urandom "
	    ">r.bin && $G add r.bin && $G commit -qm r && $G rev-parse HEAD");
	snprintf(revs, sizeof(revs), "%s\\n^%s\\n", tip, ax_base);
	q = quarantine("q", revs, &res);
	out_req(&o, tip);
	s.stop_after = 2;
	cr_expect_eq(pack_out(q, &o, &res, "out.pack", &s, &why), -1);
	cr_expect_str_eq(why, "the pack could not be written");
	cr_expect_eq(s.chunks, 2);
	git_repository_free(q);
}

/* 10,000 new files and a 100 MB one, the whole way, once. */
Test(packout, ten_thousand_files_and_a_100_mb_one, .timeout = 600)
{
	struct qr_result	 res;
	struct qr_out		 o;
	struct ga_result	 gr;
	struct ga_req		 req;
	struct sink		 s = { 0 };
	git_repository		*q;
	const char		*why = NULL;
	char			 tip[64], err[512], revs[256];

	ax_out(tip, sizeof(tip), "cd space && mkdir many && cd many && "
	    "seq 1 10000 | sed 's/.*/echo & >f&/' | sh && cd .. && "
	    "yes spaced-large-file | head -c 100000000 >big.bin && $G add -A && "
	    "$G commit -qm large && $G rev-parse HEAD");
	snprintf(revs, sizeof(revs), "%s\\n^%s\\n", tip, ax_base);
	q = quarantine("q", revs, &res);
	out_req(&o, tip);
	o.qo_allow = POLICY_LARGE_FILE;
	cr_assert_eq(pack_out(q, &o, &res, "out.pack", &s, &why), 0, "%s",
	    why);
	cr_expect_eq(res.qr_objects, 10000 + 1 + 2 + 1);
	git_repository_free(q);
	cr_assert_eq(ax_sh("$G clone -q user user2"), 0);
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	req.allow = POLICY_LARGE_FILE;
	cr_assert_eq(ax_apply("user", &req, "out.pack", 65536, &gr, err,
	    sizeof(err)), 0, "%s", err);
	ax_req(&req, GA_WORKTREE, NULL, tip);
	req.allow = POLICY_LARGE_FILE;
	cr_assert_eq(ax_apply("user2", &req, "out.pack", 65536, &gr, err,
	    sizeof(err)), 0, "%s", err);
	cr_expect_eq(gr.gr_added, 10001);
	ga_result_free(&gr);
	cr_expect_eq(ax_sh("cmp space/big.bin user2/big.bin && "
	    "cmp space/many/f9999 user2/many/f9999 && cd user2 && "
	    "$G diff --quiet && test \"$($G write-tree)\" = "
	    "\"$($G rev-parse %s^{tree})\"", tip), 0);
}

/*
 * Work on a snapshot of the user's uncommitted work (code in's start,
 * a commit on base the user's repository keeps under refs/spaced/):
 * the snapshot is the user's, neither sent nor judged again.
 */
Test(packout, work_on_a_snapshot_of_uncommitted_work)
{
	struct qr_result	 res;
	struct qr_out		 o;
	struct ga_result	 gr;
	struct ga_req		 req;
	struct sink		 s = { 0 };
	git_repository		*q;
	const char		*why = NULL;
	char			 snap[64], tip[64], err[512], revs[256];
	char			 want[64], got[64];

	ax_out(snap, sizeof(snap), "cd user && echo wip >>a.txt && "
	    "echo u >u.txt && chmod +x u.txt && export "
	    "GIT_INDEX_FILE=$PWD/.git/snap.idx && $G read-tree HEAD && "
	    "$G add -A && T=$($G write-tree) && rm .git/snap.idx && "
	    "S=$($G commit-tree -p HEAD -m snapshot $T) && "
	    "$G update-ref refs/spaced/spaces/a1/start $S && echo $S");
	ax_out(tip, sizeof(tip), "cd space && $G fetch -q ../user "
	    "refs/spaced/spaces/a1/start && $G checkout -q FETCH_HEAD && "
	    "echo agent >>a.txt && $G commit -qam agent && $G rev-parse HEAD");
	/* The quarantine holds the snapshot, as code in sent it. */
	snprintf(revs, sizeof(revs), "%s\\n^%s\\n", tip, snap);
	q = quarantine("q", revs, &res);
	cr_assert_eq(ax_sh("printf '%s\\n' | $G -C user pack-objects -q "
	    "--revs --stdout --delta-base-offset >snap.pack", snap), 0);
	{
		struct qr_caps	 caps;
		struct qr_result r2;
		char		 path[256];
		int		 fd;

		qr_caps_default(&caps);
		snprintf(path, sizeof(path), "%s/snap.pack", ax_dir);
		cr_assert_neq(fd = open(path, O_RDONLY), -1);
		memset(&r2, 0, sizeof(r2));
		cr_assert_eq(qr_index(q, fd, &caps, &r2, &why), 0, "%s", why);
		close(fd);
	}
	out_req(&o, tip);
	git_oid_fromstr(&o.qo_start, snap);
	/* u.txt is a new executable of the user's, not the agent's. */
	cr_assert_eq(pack_out(q, &o, &res, "out.pack", &s, &why), 0, "%s",
	    why);
	cr_expect_eq(res.qr_flags, 0);
	ax_out(want, sizeof(want), "$G -C space rev-list --objects %s ^%s | "
	    "wc -l", tip, snap);
	snprintf(got, sizeof(got), "%u", res.qr_objects);
	cr_expect_str_eq(got, want, "the snapshot is not sent again");
	git_repository_free(q);
	ax_req(&req, GA_BRANCH, "spaced/t", tip);
	git_oid_fromstr(&req.start, snap);
	cr_assert_eq(ax_apply("user", &req, "out.pack", 4096, &gr, err,
	    sizeof(err)), 0, "%s", err);
	cr_expect_eq(gr.gr_commits, 1);
	cr_expect_eq(gr.gr_flags, 0);
	cr_expect_eq(ax_sh("cd user && $G merge-base --is-ancestor %s spaced/t"
	    " && test \"$($G rev-parse spaced/t)\" = %s", snap, tip), 0);
	/* The user's work tree still holds that work: -w is refused. */
	ax_req(&req, GA_WORKTREE, NULL, tip);
	git_oid_fromstr(&req.start, snap);
	cr_expect_eq(ax_apply("user", &req, "out.pack", 4096, &gr, err,
	    sizeof(err)), -1);
	cr_expect(strncmp(err, "not_clean:", 10) == 0, "%s", err);
}
