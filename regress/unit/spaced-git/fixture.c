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

/* The bait repository per test, and spaced-git's requests; fixture.h. */

#include <criterion/criterion.h>
#include <criterion/hooks.h>

#include <sys/socket.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event.h>
#include <git2.h>

#include "imsg.h"
#include "proto.h"
#include "sandbox.h"
#include "stream.h"
#include "git_worker.h"
#include "fixture.h"

char	 fx_root[128];
char	 fx_home[256];
char	 fx_repo[256];
char	 fx_marks[256];

static struct rc_manifest	 fx_m;

/* Nothing inherited may point git elsewhere (spec "Host git"). */
static void
clean_env(void)
{
	static const char *const vars[] = { "GIT_DIR", "GIT_WORK_TREE",
	    "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR",
	    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG_PARAMETERS",
	    "GIT_CONFIG_COUNT", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
	    "XDG_CONFIG_HOME", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL",
	    "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", NULL };
	size_t	 i;

	for (i = 0; vars[i] != NULL; i++)
		unsetenv(vars[i]);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
}

/* Once per run, in the runner: the tests' processes inherit the path. */
ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
	char	 dir[] = "/tmp/spaced-bait.XXXXXX", cmd[PATH_MAX * 2];
	const char *src = getenv("SPACED_SRCDIR");

	clean_env();
	if (mkdtemp(dir) == NULL)
		abort();
	snprintf(cmd, sizeof(cmd), "sh %s/regress/tools/bait-repo.sh %s",
	    src != NULL ? src : ".", dir);
	if (system(cmd) != 0) {
		fprintf(stderr, "bait-repo.sh failed\n");
		abort();
	}
	setenv("SPACED_BAIT", dir, 1);
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
	char		 cmd[PATH_MAX + 16];
	const char	*b = getenv("SPACED_BAIT");

	if (b != NULL && strncmp(b, "/tmp/spaced-bait.", 17) == 0) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", b);
		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", b);
	}
}

void
fx_setup(void)
{
	char		 sys[PATH_MAX], xdg[PATH_MAX], cmd[PATH_MAX];
	const char	*bait = getenv("SPACED_BAIT");

	cr_assert_not_null(bait, "the bait repository was not built");
	clean_env();
	strlcpy(fx_root, "/tmp/spaced-git.XXXXXX", sizeof(fx_root));
	cr_assert_not_null(mkdtemp(fx_root));
	snprintf(fx_home, sizeof(fx_home), "%s/home", fx_root);
	snprintf(fx_repo, sizeof(fx_repo), "%s/repo", fx_root);
	snprintf(fx_marks, sizeof(fx_marks), "%s/marks", fx_root);
	snprintf(cmd, sizeof(cmd), "cp -a '%s'/. '%s'/", bait, fx_root);
	cr_assert_eq(system(cmd), 0);
	setenv("HOME", fx_home, 1);
	/* As spaced-git's pre-warm: libgit2 reads the owner's own files. */
	cr_assert_geq(git_libgit2_init(), 1);
	snprintf(sys, sizeof(sys), "%s/nosys", fx_root);
	snprintf(xdg, sizeof(xdg), "%s/.config/git", fx_home);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_SYSTEM, sys);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_GLOBAL,
	    fx_home);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_XDG, xdg);
	memset(&fx_m, 0, sizeof(fx_m));
}

void
fx_teardown(void)
{
	char	 cmd[PATH_MAX];

	rc_free(&fx_m);
	git_libgit2_shutdown();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx_root);
	if (fx_root[0] != '\0' && system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", fx_root);
}

static char *
vcmd(const char *fmt, va_list ap)
{
	char	*body, *cmd;

	cr_assert_neq(vasprintf(&body, fmt, ap), -1);
	cr_assert_neq(asprintf(&cmd, "cd '%s' && %s", fx_repo, body), -1);
	free(body);
	return cmd;
}

int
fx_sh(const char *fmt, ...)
{
	va_list	 ap;
	char	*cmd;
	int	 r;

	va_start(ap, fmt);
	cmd = vcmd(fmt, ap);
	va_end(ap);
	r = system(cmd);
	free(cmd);
	return r == -1 || !WIFEXITED(r) ? -1 : WEXITSTATUS(r);
}

char *
fx_out(const char *fmt, ...)
{
	va_list	 ap;
	FILE	*fp, *mem;
	char	*cmd, *buf = NULL, chunk[4096];
	size_t	 len = 0, n;

	va_start(ap, fmt);
	cmd = vcmd(fmt, ap);
	va_end(ap);
	cr_assert_not_null(fp = popen(cmd, "r"));
	free(cmd);
	cr_assert_not_null(mem = open_memstream(&buf, &len));
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		fwrite(chunk, 1, n, mem);
	fclose(mem);
	pclose(fp);
	return buf;
}

uint8_t *
fx_slurp(const char *cmd, size_t *len)
{
	FILE	*fp;
	uint8_t	*buf = NULL;
	size_t	 n;

	cr_assert_not_null(fp = popen(cmd, "r"));
	*len = 0;
	do {
		cr_assert_not_null(buf = realloc(buf, *len + 65536));
		n = fread(buf + *len, 1, 65536, fp);
		*len += n;
	} while (n > 0);
	cr_assert_eq(pclose(fp), 0, "%s", cmd);
	return buf;
}

void
fx_before(void)
{
	rc_free(&fx_m);
	cr_assert_eq(rc_take(fx_repo, &fx_m), 0);
}

size_t
fx_untouched(const char *id)
{
	struct rc_manifest	 after;
	size_t			 bad;

	cr_assert_eq(rc_take(fx_repo, &after), 0);
	bad = rc_diff(&fx_m, &after, id, stderr);
	rc_free(&after);
	return bad;
}

size_t
fx_new_objects(void)
{
	struct rc_manifest	 after;
	size_t			 i, a = 0, b = 0;

	cr_assert_eq(rc_take(fx_repo, &after), 0);
	for (i = 0; i < fx_m.rm_n; i++)
		a += strncmp(fx_m.rm_v[i].re_path, ".git/objects/", 13) == 0;
	for (i = 0; i < after.rm_n; i++)
		b += strncmp(after.rm_v[i].re_path, ".git/objects/", 13) == 0;
	rc_free(&after);
	return b - a;
}

int
fx_marks_count(void)
{
	DIR		*d;
	struct dirent	*de;
	int		 n = 0;

	cr_assert_not_null(d = opendir(fx_marks));
	while ((de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static void
fx_event(int fd, short ev, void *arg)
{
}

/* The answer's records, each copied out of its imsg. */
static void
fx_record(struct fx_answer *fa, struct imsg *imsg, struct stream_rx *rx,
    struct imsgbuf *peer, int *done)
{
	const uint8_t	*data;
	size_t		 len;
	void		*p;

	switch (imsg_get_type(imsg)) {
	case IMSG_GIT_FILE:
		cr_assert_not_null(p = reallocarray(fa->fa_files,
		    fa->fa_nfiles + 1, sizeof(*fa->fa_files)));
		fa->fa_files = p;
		cr_assert_eq(imsg_get_data(imsg, &fa->fa_files[fa->fa_nfiles++],
		    sizeof(*fa->fa_files)), 0);
		break;
	case IMSG_GIT_LIMIT:
		cr_assert_not_null(p = reallocarray(fa->fa_limits,
		    fa->fa_nlimits + 1, sizeof(*fa->fa_limits)));
		fa->fa_limits = p;
		cr_assert_eq(imsg_get_data(imsg,
		    &fa->fa_limits[fa->fa_nlimits++], sizeof(*fa->fa_limits)),
		    0);
		break;
	case IMSG_GIT_SNAP:
		cr_assert_eq(imsg_get_data(imsg, &fa->fa_snap,
		    sizeof(fa->fa_snap)), 0);
		fa->fa_have_snap = 1;
		break;
	case IMSG_STREAM_DATA:
		cr_assert_eq(stream_rx_data(rx, imsg, &data, &len), 0);
		cr_assert_not_null(p = realloc(fa->fa_stream,
		    fa->fa_len + len + 1));
		fa->fa_stream = p;
		memcpy(fa->fa_stream + fa->fa_len, data, len);
		fa->fa_len += len;
		cr_assert_eq(stream_rx_consumed(rx, peer, len), 0);
		break;
	case IMSG_STREAM_END:
		cr_assert_eq(stream_rx_end(rx, imsg), 0);
		break;
	case IMSG_GIT_DONE:
		cr_assert_eq(imsg_get_data(imsg, &fa->fa_done,
		    sizeof(fa->fa_done)), 0);
		*done = 1;
		break;
	default:
		cr_assert_fail("spaced-git sent message %u",
		    imsg_get_type(imsg));
	}
}

/*
 * spaced-git's side on a thread of its own: the request handed to
 * git_serve as its dispatcher would, and what it queued written out.
 * It runs beside the reader so that a pack larger than the stream's
 * credit moves on the credit the reader gives back.  A thread, not a
 * process, so the sanitizer sees every allocation of the handlers.
 */
struct fx_side {
	int		 fs_fd;
	int		 fs_rc;		/* 0, or the step that failed */
};

static void *
fx_side(void *arg)
{
	struct fx_side		*fs = arg;
	struct event_base	*base;
	struct imsgev		 iev;
	struct imsg		 imsg;
	struct pollfd		 pfd;

	if ((base = event_base_new()) == NULL) {
		fs->fs_rc = 1;
		return NULL;
	}
	imsgev_init(&iev, base, fs->fs_fd, fx_event, NULL);
	/* The channel reads without waiting: the wait is a poll. */
	pfd.fd = fs->fs_fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 60 * 1000) != 1 || imsgbuf_read(&iev.ibuf) <= 0 ||
	    imsgbuf_get(&iev.ibuf, &imsg) <= 0)
		fs->fs_rc = 2;
	else {
		git_serve(&iev, &imsg);
		imsg_free(&imsg);
		if (imsgbuf_flush(&iev.ibuf) == -1)
			fs->fs_rc = 3;
	}
	imsgev_clear(&iev);
	event_base_free(base);
	imsg_cache_drain();
	return NULL;
}

/* The answer read off the other end of the channel until its DONE. */
int
fx_serve(const char *dir, uint32_t type, const void *req, size_t len,
    struct fx_answer *fa)
{
	static struct sandbox_spec	 sb;
	struct imsgbuf			 peer;
	struct imsg			 imsg;
	struct stream_rx		 rx;
	struct pollfd			 pfd;
	struct fx_side			 fs;
	pthread_t			 side;
	int				 sv[2], done = 0;

	memset(fa, 0, sizeof(*fa));
	memset(&repo, 0, sizeof(repo));
	memset(&sb, 0, sizeof(sb));
	repo_prewarm(dir, &sb);
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	memset(&fs, 0, sizeof(fs));
	fs.fs_fd = sv[0];
	cr_assert_eq(pthread_create(&side, NULL, fx_side, &fs), 0);
	imsgbuf_init(&peer, sv[1]);
	if (type == IMSG_GIT_PACK_REQ)
		stream_rx_init(&rx, ((const struct git_pack_req *)req)->
		    gp_stream);
	cr_assert_eq(imsg_compose(&peer, type, 7, 0, -1, req, len), 0);
	cr_assert_eq(imsgbuf_flush(&peer), 0);
	while (!done) {
		pfd.fd = sv[1];
		pfd.events = POLLIN;
		cr_assert_gt(poll(&pfd, 1, 60 * 1000), 0, "spaced-git is "
		    "silent");
		cr_assert_gt(imsgbuf_read(&peer), 0, "spaced-git's channel "
		    "closed");
		while (!done && imsgbuf_get(&peer, &imsg) > 0) {
			/* A stream's messages name the stream instead. */
			if (imsg_get_type(&imsg) != IMSG_STREAM_DATA &&
			    imsg_get_type(&imsg) != IMSG_STREAM_END)
				cr_assert_eq(imsg_get_peerid(&imsg), 7);
			fx_record(fa, &imsg, &rx, &peer, &done);
			imsg_free(&imsg);
		}
		/* The credit it earned goes back while it waits. */
		cr_assert_eq(imsgbuf_flush(&peer), 0);
	}
	cr_assert_eq(pthread_join(side, NULL), 0);
	cr_assert_eq(fs.fs_rc, 0, "spaced-git's side failed at step %d",
	    fs.fs_rc);
	imsgbuf_clear(&peer);
	close(sv[0]);
	close(sv[1]);
	return fa->fa_done.sd_code[0] == '\0' ? 0 : -1;
}

void
fx_answer_free(struct fx_answer *fa)
{
	free(fa->fa_files);
	free(fa->fa_limits);
	free(fa->fa_stream);
	memset(fa, 0, sizeof(*fa));
}

static int
fx_space_req(const char *dir, uint32_t type, const char *id, int clean,
    struct git_snap *gs, struct space_done *sd)
{
	struct git_req		 gq;
	struct fx_answer	 fa;
	int			 rc;

	memset(&gq, 0, sizeof(gq));
	strlcpy(gq.gq_space, id, sizeof(gq.gq_space));
	gq.gq_flags = clean ? GIT_REQ_CLEAN : 0;
	rc = fx_serve(dir, type, &gq, sizeof(gq), &fa);
	*sd = fa.fa_done;
	if (gs != NULL)
		*gs = fa.fa_snap;
	/* A snapshot comes with its record, a refusal without. */
	if (type != IMSG_GIT_REFS_REMOVE_REQ)
		cr_assert_eq(fa.fa_have_snap, rc == 0, "%s: %s", sd->sd_code,
		    sd->sd_message);
	fx_answer_free(&fa);
	return rc;
}

int
fx_snapshot(const char *dir, const char *id, int clean, struct git_snap *gs,
    struct space_done *sd)
{
	return fx_space_req(dir, IMSG_GIT_SNAPSHOT_REQ, id, clean, gs, sd);
}

int
fx_history(const char *dir, const char *id, struct git_snap *gs,
    struct space_done *sd)
{
	return fx_space_req(dir, IMSG_GIT_HISTORY_REQ, id, 0, gs, sd);
}

int
fx_refs_remove(const char *dir, const char *id, struct space_done *sd)
{
	return fx_space_req(dir, IMSG_GIT_REFS_REMOVE_REQ, id, 0, NULL, sd);
}

int
fx_pack(const char *dir, const struct git_snap *gs, uint32_t kind,
    const char *file, struct space_done *sd)
{
	struct git_pack_req	 gp;
	struct fx_answer	 fa;
	FILE			*fp;
	int			 rc;

	memset(&gp, 0, sizeof(gp));
	gp.gp_kind = kind;
	gp.gp_stream = 42;
	strlcpy(gp.gp_base, gs->gs_base, sizeof(gp.gp_base));
	strlcpy(gp.gp_staged, gs->gs_staged, sizeof(gp.gp_staged));
	strlcpy(gp.gp_start, gs->gs_start, sizeof(gp.gp_start));
	rc = fx_serve(dir, IMSG_GIT_PACK_REQ, &gp, sizeof(gp), &fa);
	*sd = fa.fa_done;
	cr_assert_not_null(fp = fopen(file, "w"));
	if (fa.fa_len > 0)
		cr_assert_eq(fwrite(fa.fa_stream, 1, fa.fa_len, fp), fa.fa_len);
	fclose(fp);
	fx_answer_free(&fa);
	return rc;
}
