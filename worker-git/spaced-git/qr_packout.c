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
 * The quarantine's pack for the owner: qr_check again, then every
 * object new commits reach that no hidden commit's tree holds, written
 * whole (no delta: libgit2's packbuilder names a delta's base by id,
 * which the owner's packscan refuses), through a callback in chunks.
 */

#include <sys/types.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>
#include <zlib.h>

#include "quarantine.h"

#define OUT_CHUNK	65536

/* Object ids, open addressing; the zero id marks an empty slot. */
struct oidset {
	git_oid		*os_v;
	size_t		 os_cap, os_n;
};

struct obj {
	git_oid		 o_id;
	git_object_t	 o_type;
};

struct packout {
	git_repository		*p_repo;
	const struct qr_caps	*p_caps;
	struct oidset		 p_old;		/* in a hidden commit's tree */
	struct oidset		 p_seen;
	struct obj		*p_objs;
	size_t			 p_nobjs, p_capobjs;
	time_t			 p_deadline;
	size_t			 p_ticks;
	const char		*p_why;
	/* the writer */
	qr_write_fn		*p_fn;
	void			*p_arg;
	EVP_MD_CTX		*p_md;
	z_stream		 p_z;
	uint8_t			 p_buf[OUT_CHUNK];
	size_t			 p_have;
};

static time_t
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static int
oid_zero(const git_oid *id)
{
	static const git_oid	 zero;

	return git_oid_equal(id, &zero);
}

static size_t
oidset_slot(const struct oidset *s, const git_oid *id)
{
	uint64_t	 h;

	memcpy(&h, id->id, sizeof(h));
	return (size_t)h & (s->os_cap - 1);
}

static int
oidset_has(const struct oidset *s, const git_oid *id)
{
	size_t	 i;

	if (s->os_cap == 0)
		return 0;
	for (i = oidset_slot(s, id); !oid_zero(&s->os_v[i]);
	    i = (i + 1) & (s->os_cap - 1))
		if (git_oid_equal(&s->os_v[i], id))
			return 1;
	return 0;
}

static int	oidset_add(struct oidset *, const git_oid *);

static int
oidset_grow(struct oidset *s)
{
	struct oidset	 n;
	size_t		 i;

	n.os_cap = s->os_cap ? s->os_cap * 2 : 1024;
	n.os_n = 0;
	if ((n.os_v = calloc(n.os_cap, sizeof(*n.os_v))) == NULL)
		return -1;
	for (i = 0; i < s->os_cap; i++)
		if (!oid_zero(&s->os_v[i]))
			oidset_add(&n, &s->os_v[i]);
	free(s->os_v);
	*s = n;
	return 0;
}

/* 1 added, 0 there already, -1 out of memory. */
static int
oidset_add(struct oidset *s, const git_oid *id)
{
	size_t	 i;

	if (oid_zero(id) || oidset_has(s, id))
		return 0;
	if ((s->os_n + 1) * 2 > s->os_cap && oidset_grow(s) == -1)
		return -1;
	for (i = oidset_slot(s, id); !oid_zero(&s->os_v[i]);
	    i = (i + 1) & (s->os_cap - 1))
		;
	git_oid_cpy(&s->os_v[i], id);
	s->os_n++;
	return 1;
}

static int
tick(struct packout *p)
{
	if ((++p->p_ticks & 1023) == 0 && now() > p->p_deadline) {
		p->p_why = "the pack took longer than the time cap";
		return -1;
	}
	return 0;
}

/* Every object of a hidden commit's tree: the owner has them. */
static int
mark_old(struct packout *p, const git_oid *tree_id, size_t depth)
{
	git_tree		*t = NULL;
	const git_tree_entry	*e;
	size_t			 i, n;
	int			 rc = 0;

	if (oidset_has(&p->p_old, tree_id))
		return 0;
	if (oidset_add(&p->p_old, tree_id) == -1 ||
	    depth > p->p_caps->qc_policy.pc_depth_max + 1 ||
	    git_tree_lookup(&t, p->p_repo, tree_id) != 0) {
		p->p_why = "a tree of the start cannot be read";
		return -1;
	}
	n = git_tree_entrycount(t);
	for (i = 0; i < n && rc == 0; i++) {
		e = git_tree_entry_byindex(t, i);
		if ((rc = tick(p)) == -1)
			break;
		if (git_tree_entry_type(e) == GIT_OBJECT_TREE)
			rc = mark_old(p, git_tree_entry_id(e), depth + 1);
		else if (oidset_add(&p->p_old, git_tree_entry_id(e)) == -1)
			rc = -1;
	}
	git_tree_free(t);
	return rc;
}

static int
take(struct packout *p, const git_oid *id, git_object_t type)
{
	struct obj	*v;
	int		 added;

	if (oidset_has(&p->p_old, id))
		return 0;
	if ((added = oidset_add(&p->p_seen, id)) <= 0) {
		if (added == -1)
			p->p_why = "out of memory";
		return added;
	}
	if (p->p_nobjs >= p->p_caps->qc_pack.ps_objects_max) {
		p->p_why = "more objects than the cap";
		return -1;
	}
	if (p->p_nobjs == p->p_capobjs) {
		size_t	 ncap = p->p_capobjs ? p->p_capobjs * 2 : 1024;

		if ((v = reallocarray(p->p_objs, ncap, sizeof(*v))) == NULL) {
			p->p_why = "out of memory";
			return -1;
		}
		p->p_objs = v;
		p->p_capobjs = ncap;
	}
	git_oid_cpy(&p->p_objs[p->p_nobjs].o_id, id);
	p->p_objs[p->p_nobjs++].o_type = type;
	return 1;
}

/* A new tree and what in it the owner does not have. */
static int
take_tree(struct packout *p, const git_oid *tree_id, size_t depth)
{
	git_tree		*t = NULL;
	const git_tree_entry	*e;
	size_t			 i, n;
	int			 rc;

	if ((rc = take(p, tree_id, GIT_OBJECT_TREE)) <= 0)
		return rc;
	if (depth > p->p_caps->qc_policy.pc_depth_max + 1 ||
	    git_tree_lookup(&t, p->p_repo, tree_id) != 0) {
		p->p_why = "a tree of the work cannot be read";
		return -1;
	}
	n = git_tree_entrycount(t);
	for (i = 0, rc = 0; i < n && rc >= 0; i++) {
		e = git_tree_entry_byindex(t, i);
		if ((rc = tick(p)) == -1)
			break;
		switch (git_tree_entry_type(e)) {
		case GIT_OBJECT_TREE:
			rc = take_tree(p, git_tree_entry_id(e), depth + 1);
			break;
		case GIT_OBJECT_BLOB:
			rc = take(p, git_tree_entry_id(e), GIT_OBJECT_BLOB);
			break;
		default:	/* a gitlink: the user's, never sent */
			break;
		}
	}
	git_tree_free(t);
	return rc < 0 ? -1 : 0;
}

/* Hidden: base, start and what the owner has, if it is on the work. */
static int
hide(struct packout *p, const git_oid *id)
{
	git_commit	*c = NULL;
	int		 rc;

	if (git_commit_lookup(&c, p->p_repo, id) != 0) {
		p->p_why = "the start is not in the quarantine";
		return -1;
	}
	rc = mark_old(p, git_commit_tree_id(c), 0);
	git_commit_free(c);
	if (rc == 0 && oidset_add(&p->p_old, id) == -1) {
		p->p_why = "out of memory";
		rc = -1;
	}
	return rc;
}

/*
 * The new commits are the pack's own from tip (qr_commits), never a
 * walk past the base: the quarantine holds the base without its
 * parents (code in's pack is shallow; libgit2 1.5 has no shallow file).
 * What the owner has, when it is one of them, is hidden with all it
 * reaches.
 */
static int
enumerate(struct packout *p, const struct qr_out *req,
    const struct qr_result *res)
{
	git_commit	*c;
	git_oid		*work = NULL, *had = NULL;
	const git_oid	*start = oid_zero(&req->qo_start) ? &req->qo_base :
			    &req->qo_start, *have = &req->qo_have;
	const char	*why = NULL;
	size_t		 nwork = 0, nhad = 0, i;
	int		 rc = -1, on_work = 0;

	if (hide(p, &req->qo_base) == -1 || hide(p, start) == -1)
		goto out;
	if (qr_commits(p->p_repo, res, &req->qo_tip, &work, &nwork, &why) ==
	    -1) {
		p->p_why = why;
		goto out;
	}
	for (i = 0; i < nwork && !oid_zero(have); i++)
		if (git_oid_equal(&work[i], have))
			on_work = 1;
	if (on_work) {
		if (qr_commits(p->p_repo, res, have, &had, &nhad, &why) == -1) {
			p->p_why = why;
			goto out;
		}
		for (i = 0; i < nhad; i++)
			if (hide(p, &had[i]) == -1)
				goto out;
	}
	for (i = 0; i < nwork; i++) {
		if (oidset_has(&p->p_old, &work[i]))
			continue;
		if (take(p, &work[i], GIT_OBJECT_COMMIT) == -1 ||
		    git_commit_lookup(&c, p->p_repo, &work[i]) != 0)
			goto out;
		rc = take_tree(p, git_commit_tree_id(c), 0);
		git_commit_free(c);
		if (rc == -1)
			goto out;
		rc = -1;
	}
	rc = 0;
out:
	if (rc == -1 && p->p_why == NULL)
		p->p_why = "a commit of the work cannot be read";
	free(work);
	free(had);
	return rc;
}

/* Bytes to the callback in chunks, each counted in the trailer's hash. */
static int
out_flush(struct packout *p)
{
	if (p->p_have > 0 && p->p_fn(p->p_arg, p->p_buf, p->p_have) != 0) {
		p->p_why = "the pack could not be written";
		return -1;
	}
	p->p_have = 0;
	return 0;
}

static int
out_put(struct packout *p, const void *buf, size_t len, int hashed)
{
	const uint8_t	*b = buf;
	size_t		 n;

	if (hashed && EVP_DigestUpdate(p->p_md, buf, len) != 1) {
		p->p_why = "sha1";
		return -1;
	}
	while (len > 0) {
		n = sizeof(p->p_buf) - p->p_have;
		if (n > len)
			n = len;
		memcpy(p->p_buf + p->p_have, b, n);
		p->p_have += n;
		b += n;
		len -= n;
		if (p->p_have == sizeof(p->p_buf) && out_flush(p) == -1)
			return -1;
	}
	return 0;
}

/* One object, whole: its type and size, then its bytes deflated. */
static int
out_object(struct packout *p, git_odb *odb, const struct obj *o)
{
	git_odb_object	*obj = NULL;
	uint8_t		 head[16], z[OUT_CHUNK];
	size_t		 size, n = 0;
	int		 rc = -1, zr;

	if (git_odb_read(&obj, odb, &o->o_id) != 0) {
		p->p_why = "an object of the work is missing";
		return -1;
	}
	size = git_odb_object_size(obj);
	if (size > p->p_caps->qc_pack.ps_object_max || size > UINT32_MAX) {
		p->p_why = "an object over the size cap";
		goto out;
	}
	head[n++] = (uint8_t)((o->o_type << 4) | (size & 15));
	for (size >>= 4; size > 0; size >>= 7) {
		head[n - 1] |= 0x80;
		head[n++] = size & 0x7f;
	}
	if (out_put(p, head, n, 1) == -1 || deflateReset(&p->p_z) != Z_OK)
		goto out;
	p->p_z.next_in = (Bytef *)(uintptr_t)git_odb_object_data(obj);
	p->p_z.avail_in = (uInt)git_odb_object_size(obj);
	do {
		p->p_z.next_out = z;
		p->p_z.avail_out = sizeof(z);
		zr = deflate(&p->p_z, Z_FINISH);
		if ((zr != Z_OK && zr != Z_STREAM_END) ||
		    out_put(p, z, sizeof(z) - p->p_z.avail_out, 1) == -1) {
			if (p->p_why == NULL)
				p->p_why = "zlib";
			goto out;
		}
	} while (zr != Z_STREAM_END);
	rc = tick(p);
out:
	git_odb_object_free(obj);
	return rc;
}

static int
write_pack(struct packout *p)
{
	git_odb		*odb = NULL;
	uint8_t		 head[12] = { 'P', 'A', 'C', 'K', 0, 0, 0, 2 };
	unsigned char	 md[EVP_MAX_MD_SIZE];
	unsigned int	 mdlen = 0;
	size_t		 i;
	int		 rc = -1;

	head[8] = (uint8_t)(p->p_nobjs >> 24);
	head[9] = (uint8_t)(p->p_nobjs >> 16);
	head[10] = (uint8_t)(p->p_nobjs >> 8);
	head[11] = (uint8_t)p->p_nobjs;
	if (git_repository_odb(&odb, p->p_repo) != 0 ||
	    (p->p_md = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestInit_ex(p->p_md, EVP_sha1(), NULL) != 1 ||
	    deflateInit(&p->p_z, Z_BEST_SPEED) != Z_OK) {
		p->p_why = "out of memory";
		goto out;
	}
	if (out_put(p, head, sizeof(head), 1) == -1)
		goto end;
	for (i = 0; i < p->p_nobjs; i++)
		if (out_object(p, odb, &p->p_objs[i]) == -1)
			goto end;
	if (EVP_DigestFinal_ex(p->p_md, md, &mdlen) != 1 || mdlen != 20) {
		p->p_why = "sha1";
		goto end;
	}
	if (out_put(p, md, mdlen, 0) == 0 && out_flush(p) == 0)
		rc = 0;
end:
	deflateEnd(&p->p_z);
out:
	EVP_MD_CTX_free(p->p_md);
	git_odb_free(odb);
	return rc;
}

static void
flags_only(void *arg, uint32_t reason, const git_oid *commit,
    const char *path, size_t len)
{
}

/*
 * The work, checked again, as a pack through fn; res->qr_pack names
 * the space's pack (qr_index).  -1 with *why when a check fails or a
 * reason the request does not allow is flagged (res->qr_flags says
 * which), before any byte; or when fn stops the pack.
 */
int
qr_pack_out(git_repository *q, const struct qr_out *req,
    const struct qr_caps *caps, struct qr_result *res, qr_write_fn *fn,
    void *arg, const char **why)
{
	struct packout	*p;
	const git_oid	*start = oid_zero(&req->qo_start) ? &req->qo_base :
			    &req->qo_start;
	int		 rc = -1;

	*why = NULL;
	if (qr_check(q, &req->qo_base, start, &req->qo_tip, caps, flags_only,
	    NULL, res, why) == -1)
		return -1;
	if (res->qr_flags & ~(req->qo_allow & POLICY_ALLOWABLE)) {
		*why = "a reason the request does not allow is flagged";
		return -1;
	}
	if ((p = calloc(1, sizeof(*p))) == NULL) {
		*why = "out of memory";
		return -1;
	}
	p->p_repo = q;
	p->p_caps = caps;
	p->p_fn = fn;
	p->p_arg = arg;
	p->p_deadline = now() + caps->qc_seconds;
	if (enumerate(p, req, res) == 0 && write_pack(p) == 0) {
		res->qr_objects = (uint32_t)p->p_nobjs;
		rc = 0;
	}
	*why = p->p_why;
	free(p->p_old.os_v);
	free(p->p_seen.os_v);
	free(p->p_objs);
	free(p);
	return rc;
}
