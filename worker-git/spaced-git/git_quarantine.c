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
 * spaced-git in a space's quarantine (-Q): chrooted in its own store
 * as _spaced-quarantine, it takes the owner's start pack and the
 * space's pack on two streams, checks them (quarantine.c) and sends
 * the review it computes (qr_review.c).  docs/notes/spaced-git-codeout.md.
 */

#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "errors.h"
#include "git_proto.h"
#include "imsg.h"
#include "log.h"
#include "place_proto.h"
#include "proc.h"
#include "review_pack.h"
#include "stream.h"
#include "git_worker.h"
#include "quarantine.h"

#define QR_STDERR_MAX	200	/* the script's last words, in a refusal */
#define QR_STORE	"store.git"	/* in the quarantine's folder */
/* What the last check passed: base, start, tip and the space's pack. */
#define QR_KEPT		QR_STORE "/spaced-kept"

struct qr_in {
	struct stream_rx	 qi_rx;
	struct qr_feed		 qi_feed;
	struct qr_result	 qi_res;
	int			 qi_live;	/* a feed begun */
	int			 qi_ended;
	int			 qi_exec;	/* chunks carry a channel byte */
};

/* What apply's second step needs of the first (GIT_QR_KEEP). */
static struct {
	int			 qk_valid;
	git_oid			 qk_base, qk_start, qk_tip;
	struct qr_result	 qk_res;
} qk;

static struct {
	int			 qs_busy;
	uint32_t		 qs_peerid;
	struct imsgev		*qs_iev;
	struct git_qr_req	 qs_req;
	git_repository		*qs_repo;
	struct qr_caps		 qs_caps;
	struct qr_in		 qs_base, qs_space;
	const char		*qs_why;	/* the first refusal */
	char			 qs_err[QR_STDERR_MAX];
	size_t			 qs_errlen;
} qs;

/* The review's records, packed, as many a message as fit. */
static struct git_review_batch	 qr_batch;

static void
qr_done(const char *code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
qr_batch_flush(void)
{
	if (qr_batch.rb_used == 0)
		return;
	imsg_compose_event(qs.qs_iev, IMSG_GIT_QR_REC, qs.qs_peerid, 0, -1,
	    &qr_batch, sizeof(qr_batch));
	memset(&qr_batch, 0, sizeof(qr_batch));
}

static void
qr_done(const char *code, const char *fmt, ...)
{
	struct space_done	 sd;
	va_list			 ap;

	qr_batch_flush();
	memset(&sd, 0, sizeof(sd));
	sd.sd_exit = -1;
	if (code != NULL) {
		strlcpy(sd.sd_code, code, sizeof(sd.sd_code));
		va_start(ap, fmt);
		vsnprintf(sd.sd_message, sizeof(sd.sd_message), fmt, ap);
		va_end(ap);
	}
	imsg_compose_event(qs.qs_iev, IMSG_GIT_DONE, qs.qs_peerid, 0, -1, &sd,
	    sizeof(sd));
}

static void
qr_send_rec(const struct git_review_rec *rr)
{
	size_t	 n;

	if ((n = review_rec_pack(rr, qr_batch.rb_data + qr_batch.rb_used,
	    sizeof(qr_batch.rb_data) - qr_batch.rb_used)) == 0) {
		qr_batch_flush();
		n = review_rec_pack(rr, qr_batch.rb_data,
		    sizeof(qr_batch.rb_data));
	}
	qr_batch.rb_used += n;
}

/* The previous operation's packs go: each starts from an empty store. */
static void
qr_store_empty(void)
{
	DIR		*d;
	struct dirent	*de;

	if ((d = opendir(QR_STORE "/objects/pack")) == NULL)
		return;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			(void)unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
}

/*
 * GIT_QR_REUSE: the store the review left, when its record holds the
 * base, start and tip spaced kept of that review; into qk.
 */
static const char *
qr_reuse(const struct git_qr_req *qq)
{
	struct qr_kept	 k;
	git_oid		 base, start, tip;
	const char	*why;

	if (git_oid_fromstr(&base, qq->qq_base) != 0 ||
	    git_oid_fromstr(&start, qq->qq_start) != 0 ||
	    git_oid_fromstr(&tip, qq->qq_tip) != 0)
		return "the base, start or tip is not an object id";
	if ((why = qr_kept_take(QR_KEPT, &base, &start, &tip, &k)) != NULL)
		return why;
	memset(&qk, 0, sizeof(qk));
	qk.qk_base = k.qk_base;
	qk.qk_start = k.qk_start;
	qk.qk_tip = k.qk_tip;
	memcpy(qk.qk_res.qr_pack, k.qk_pack, sizeof(qk.qk_res.qr_pack));
	qk.qk_valid = 1;
	return NULL;
}

static void
qr_end(void)
{
	worker_stream_unregister(qs.qs_req.qq_base_stream);
	worker_stream_unregister(qs.qs_req.qq_space_stream);
	if (qs.qs_base.qi_live)
		qr_feed_free(&qs.qs_base.qi_feed);
	if (qs.qs_space.qi_live)
		qr_feed_free(&qs.qs_space.qi_feed);
	git_repository_free(qs.qs_repo);
	memset(&qs, 0, sizeof(qs));
}

static void
qr_refuse(const char *why)
{
	if (qs.qs_why == NULL)
		qs.qs_why = why;
}

/* Both packs are in: the checks, then the review. */
static void
qr_settle(void)
{
	git_oid		 base, start, tip;
	const char	*why = NULL;
	char		 err[QR_STDERR_MAX * 4 + 1];

	if (!qs.qs_base.qi_ended || !qs.qs_space.qi_ended)
		return;
	if (qs.qs_why == NULL &&
	    (qr_feed_finish(&qs.qs_base.qi_feed, &qs.qs_base.qi_res,
	    &why) == -1 || qr_feed_finish(&qs.qs_space.qi_feed,
	    &qs.qs_space.qi_res, &why) == -1))
		qr_refuse(why);
	if (qs.qs_why == NULL &&
	    (git_oid_fromstr(&base, qs.qs_req.qq_base) != 0 ||
	    git_oid_fromstr(&start, qs.qs_req.qq_start) != 0))
		qr_refuse("the base or start is not an object id");
	if (qs.qs_why == NULL && qr_tip(qs.qs_repo, &start,
	    &qs.qs_space.qi_res, &tip, &why) == -1)
		qr_refuse(why);
	if (qs.qs_why == NULL && qr_review(qs.qs_repo, &base, &start, &tip,
	    &qs.qs_caps, &qs.qs_space.qi_res, qs.qs_req.qq_flags, qr_send_rec,
	    &why) == -1)
		qr_refuse(why);
	if (qs.qs_why == NULL && (qs.qs_req.qq_flags & GIT_QR_KEEP)) {
		qk.qk_valid = 1;
		qk.qk_base = base;
		qk.qk_start = start;
		qk.qk_tip = tip;
		qk.qk_res = qs.qs_space.qi_res;
	}
	if (qs.qs_why == NULL)
		qr_kept_write(QR_KEPT, &base, &start, &tip,
		    qs.qs_space.qi_res.qr_pack);
	if (qs.qs_why != NULL) {
		policy_escape(err, sizeof(err), qs.qs_err, qs.qs_errlen);
		qr_done(ERR_CODE_OUT_REFUSED, "%s%s%s", qs.qs_why,
		    qs.qs_errlen > 0 ? "; the script said: " : "", err);
	} else
		qr_done(NULL, NULL);
	qr_end();
}

/* The script's stderr: its tail, for a refusal's message. */
static void
qr_stderr(const uint8_t *p, size_t len)
{
	if (len >= QR_STDERR_MAX) {
		p += len - QR_STDERR_MAX;
		len = QR_STDERR_MAX;
	}
	if (qs.qs_errlen + len > QR_STDERR_MAX) {
		memmove(qs.qs_err, qs.qs_err + (qs.qs_errlen + len -
		    QR_STDERR_MAX), QR_STDERR_MAX - len);
		qs.qs_errlen = QR_STDERR_MAX - len;
	}
	memcpy(qs.qs_err + qs.qs_errlen, p, len);
	qs.qs_errlen += len;
}

static void
qr_take(struct qr_in *in, const uint8_t *data, size_t len)
{
	const char	*why = NULL;

	if (in->qi_exec) {
		if (len == 0)
			return;
		if (data[0] != EXEC_OUT_STDOUT) {
			qr_stderr(data + 1, len - 1);
			return;
		}
		data++;
		len--;
	}
	if (qs.qs_why == NULL && in->qi_live && len > 0 &&
	    qr_feed_data(&in->qi_feed, data, len, &why) == -1)
		qr_refuse(why);
}

/* A chunk of either pack; once refused, the rest is credited unread. */
static void
qr_stream(struct imsgev *iev, struct imsg *imsg, void *arg)
{
	struct qr_in	*in = arg;
	const uint8_t	*data;
	size_t		 len;

	switch (imsg_get_type(imsg)) {
	case IMSG_STREAM_DATA:
		if (in->qi_ended ||
		    stream_rx_data(&in->qi_rx, imsg, &data, &len) == -1)
			fatalx("%s: bad stream data", __func__);
		qr_take(in, data, len);
		if (stream_rx_consumed(&in->qi_rx, &iev->ibuf, len) == -1)
			fatal("%s: stream_rx_consumed", __func__);
		imsg_event_add(iev);
		break;
	case IMSG_STREAM_END:
		if (in->qi_ended || stream_rx_end(&in->qi_rx, imsg) == -1)
			fatalx("%s: bad stream end", __func__);
		in->qi_ended = 1;
		if (in->qi_rx.sr_status != 0)
			qr_refuse(in == &qs.qs_base ? "the start's pack did "
			    "not come whole" : "the space's output did not "
			    "come whole (the script failed, hung or flooded)");
		qr_settle();
		break;
	default:
		fatalx("%s: unexpected imsg %u", __func__,
		    imsg_get_type(imsg));
	}
}

static int
qr_in_begin(struct qr_in *in, uint32_t stream, int exec, const char **why)
{
	stream_rx_init(&in->qi_rx, stream);
	in->qi_exec = exec;
	if (worker_stream_register(stream, qr_stream, in) == -1)
		fatal("%s: stream %u", __func__, stream);
	if (qs.qs_repo == NULL)
		return 0;
	if (qr_feed_begin(qs.qs_repo, &qs.qs_caps, &in->qi_feed, why) == -1)
		return -1;
	in->qi_live = 1;
	return 0;
}

/*
 * One review or apply at a time: spaced sends the next only after the
 * DONE.  The store is the working directory (the chroot's root).
 */
void
qr_serve(struct imsgev *iev, struct imsg *imsg)
{
	struct git_qr_req	 qq;
	const char		*why = NULL;

	if (imsg_get_data(imsg, &qq, sizeof(qq)) == -1 ||
	    memchr(qq.qq_space, '\0', sizeof(qq.qq_space)) == NULL ||
	    memchr(qq.qq_base, '\0', sizeof(qq.qq_base)) == NULL ||
	    memchr(qq.qq_start, '\0', sizeof(qq.qq_start)) == NULL ||
	    memchr(qq.qq_tip, '\0', sizeof(qq.qq_tip)) == NULL || qs.qs_busy)
		fatalx("%s: bad quarantine request", __func__);
	qk.qk_valid = 0;
	if (qq.qq_flags & GIT_QR_REUSE) {
		/* No stream: the store stays as the review left it. */
		if (qq.qq_base_stream != 0 || qq.qq_space_stream != 0)
			fatalx("%s: bad quarantine request", __func__);
		qs.qs_iev = iev;
		qs.qs_peerid = imsg_get_peerid(imsg);
		if ((why = qr_reuse(&qq)) != NULL)
			qr_done(ERR_CODE_OUT_FAILED, "%s", why);
		else
			qr_done(NULL, NULL);
		memset(&qs, 0, sizeof(qs));
		return;
	}
	if (qq.qq_space_stream == 0 || qq.qq_base_stream == 0 ||
	    qq.qq_base_stream == qq.qq_space_stream)
		fatalx("%s: bad quarantine request", __func__);
	qs.qs_busy = 1;
	qs.qs_iev = iev;
	qs.qs_peerid = imsg_get_peerid(imsg);
	qs.qs_req = qq;
	qr_caps_default(&qs.qs_caps);
	(void)unlink(QR_KEPT);
	qr_store_empty();
	if (git_repository_init(&qs.qs_repo, QR_STORE, 1) != 0)
		qr_refuse("the quarantine's store cannot be made");
	/* The streams are taken even so: their data must go somewhere. */
	if (qr_in_begin(&qs.qs_base, qq.qq_base_stream, 0, &why) == -1 ||
	    qr_in_begin(&qs.qs_space, qq.qq_space_stream, 1, &why) == -1)
		qr_refuse(why);
}

/* --- apply: the checked objects out, as a pack, under credit ------- */

#define QR_CREDIT_WAIT_MS	(60 * 1000)

/* Credit that crosses the END is owed nothing. */
static void
qr_out_late(struct imsgev *iev, struct imsg *imsg, void *arg)
{
}

/* The reasons flags holds, by name, for a refusal's message. */
static void
qr_flag_names(uint32_t flags, char *buf, size_t len)
{
	uint32_t	 bit;
	const char	*name;

	buf[0] = '\0';
	for (bit = 1; bit != 0; bit <<= 1)
		if ((flags & bit) && (name = policy_reason_name(bit)) != NULL) {
			if (buf[0] != '\0')
				strlcat(buf, ",", len);
			strlcat(buf, name, len);
		}
}

/*
 * The work the review step checked, as a pack for the owner: qr_pack_out
 * runs the checks again and refuses a flag the request did not allow.
 */
void
qr_out_serve(struct imsgev *iev, struct imsg *imsg)
{
	struct git_apply_req	 ap;
	struct git_tx		 o;
	struct qr_out		 out;
	struct qr_caps		 caps;
	struct qr_result	 res;
	git_repository		*q = NULL;
	const char		*why = NULL;
	uint32_t		 allow = 0, flags;
	uint32_t		 peerid = imsg_get_peerid(imsg);
	char			 names[256], never[256];
	int			 rc = -1;

	if (imsg_get_data(imsg, &ap, sizeof(ap)) == -1 ||
	    memchr(ap.ap_allow, '\0', sizeof(ap.ap_allow)) == NULL ||
	    memchr(ap.ap_have, '\0', sizeof(ap.ap_have)) == NULL ||
	    ap.ap_stream == 0 || qs.qs_busy)
		fatalx("%s: bad pack request", __func__);
	git_tx_init(&o, iev, ap.ap_stream, peerid, QR_CREDIT_WAIT_MS);
	if (worker_stream_register(ap.ap_stream, qr_out_late, NULL) == -1)
		fatal("%s: stream %u", __func__, ap.ap_stream);
	memset(&out, 0, sizeof(out));
	memset(&res, 0, sizeof(res));
	qr_caps_default(&caps);
	if (!qk.qk_valid)
		why = "no checked work to apply";
	else if (policy_allow_parse(ap.ap_allow, &allow) == -1)
		why = "--allow names a reason that cannot be allowed";
	else if (ap.ap_have[0] != '\0' &&
	    git_oid_fromstr(&out.qo_have, ap.ap_have) != 0)
		why = "the owner's commit is not an object id";
	else if (git_repository_open(&q, QR_STORE) != 0)
		why = "the quarantine's store cannot be opened";
	else {
		out.qo_base = qk.qk_base;
		out.qo_start = qk.qk_start;
		out.qo_tip = qk.qk_tip;
		out.qo_allow = allow;
		res = qk.qk_res;
		rc = qr_pack_out(q, &out, &caps, &res, git_tx_write, &o, &why);
	}
	git_repository_free(q);
	if (stream_tx_end(&o.gt_tx, &iev->ibuf, rc == 0 ? 0 : EIO) == -1)
		fatal("%s: stream_tx_end", __func__);
	worker_stream_unregister(ap.ap_stream);
	qs.qs_iev = iev;
	qs.qs_peerid = peerid;
	/* A flag not allowed: which (apply after a review sends no records). */
	flags = res.qr_flags & ~(allow & POLICY_ALLOWABLE);
	qr_flag_names(flags, names, sizeof(names));
	if (why == NULL)
		why = "the pack could not be written";
	if (rc == 0)
		qr_done(NULL, NULL);
	else if (names[0] != '\0' && (flags & ~POLICY_ALLOWABLE) == 0)
		qr_done(ERR_CODE_OUT_REFUSED, "%s (flagged: %s): look at it "
		    "with spacectl review -p, then apply with --allow %s", why,
		    names, names);
	else if (names[0] != '\0') {
		/* Never allowed: the work itself must change, say where. */
		qr_flag_names(flags & POLICY_NEVER, never, sizeof(never));
		qr_done(ERR_CODE_OUT_REFUSED, "%s (flagged: %s): no --allow "
		    "lets %s through; spacectl review names the paths: change "
		    "that work in the space (a repository the agent made inside "
		    "comes as a gitlink: remove its .git), review, then apply", why,
		    names, never);
	} else
		qr_done(ERR_CODE_OUT_REFUSED, "%s", why);
}
