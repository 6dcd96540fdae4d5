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
 * The packs of code in: only the objects the space's commits reach,
 * each copied from the repository's packs where it can be (git's own
 * reuse), else deflated anew (docs/notes/spaced-git-packs.md).
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>
#include <openssl/evp.h>
#include <zlib.h>

#include "errors.h"
#include "git_proto.h"
#include "imsg.h"
#include "place_proto.h"
#include "log.h"
#include "proc.h"
#include "stream.h"
#include "git_worker.h"
#include "packidx.h"

/* A pack waits this long for credit before it gives up. */
#define CREDIT_WAIT_MS	(120 * 1000)
/* The packs of a repository read, at most; more are read through git. */
#define PACKS_MAX	256
/* Reads of a pack go through a window of this size. */
#define WINDOW_SIZE	(1024 * 1024)
/* Deflate of an object written anew: speed, the space inflates it once. */
#define DEFLATE_LEVEL	1

/*
 * The objects to send: an open-addressed table by id, seeded so that a
 * repository made to collide cannot make it slow.
 */
struct pack_obj {
	git_oid		 po_id;
	int		 po_used;
	int		 po_pack;	/* -1: in no pack read here */
	uint32_t	 po_pos;
	uint64_t	 po_written;	/* its offset in the new pack; 0 not yet */
};

struct objset {
	struct pack_obj	*os_slot;
	size_t		 os_cap;	/* a power of two */
	size_t		 os_count;
	uint64_t	 os_seed;
};

struct pack_file {
	int		 pf_fd;
	uint8_t		*pf_idxbuf;
	struct packidx	 pf_idx;
};

/*
 * A pack goes out under credit, so the wait for it is a poll on the
 * channel right here (git_tx.c).  spaced sends one request at a time, so what
 * comes meanwhile is this stream's credit or this request's cancel.
 */
struct pack_out {
	struct git_tx	 po_gt;
	const char	*po_damaged;	/* a pack entry that failed its check */
	EVP_MD_CTX	*po_sha;
	uint64_t	 po_offset;
	size_t		 po_reused;
	struct objset	*po_set;
	git_odb		*po_odb;
	z_stream	 po_z;
	uint8_t		*po_zbuf;
	struct pack_file po_packs[PACKS_MAX];
	int		 po_npacks;
	uint8_t		*po_win;
	int		 po_win_pack;
	uint64_t	 po_win_start;
	size_t		 po_win_len;
};

static uint64_t
objset_hash(const struct objset *os, const git_oid *id)
{
	uint64_t	 h;

	memcpy(&h, id->id, sizeof(h));
	h ^= os->os_seed;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

static struct pack_obj *
objset_slot(const struct objset *os, const git_oid *id)
{
	size_t		 i = objset_hash(os, id) & (os->os_cap - 1);

	while (os->os_slot[i].po_used &&
	    git_oid_cmp(&os->os_slot[i].po_id, id) != 0)
		i = (i + 1) & (os->os_cap - 1);
	return &os->os_slot[i];
}

static struct pack_obj *
objset_get(const struct objset *os, const uint8_t *raw)
{
	struct pack_obj	*o;
	git_oid		 id;

	memcpy(id.id, raw, PACK_OID_LEN);
	o = objset_slot(os, &id);
	return o->po_used ? o : NULL;
}

/* 1: added, 0: there already, -1: no memory. */
static int
objset_add(struct objset *os, const git_oid *id)
{
	struct pack_obj	*o, *old;
	size_t		 i, oldcap;

	if (os->os_count + 1 > os->os_cap / 2) {
		old = os->os_slot;
		oldcap = os->os_cap;
		os->os_cap = oldcap == 0 ? 1024 : oldcap * 2;
		if ((os->os_slot = calloc(os->os_cap, sizeof(*o))) == NULL) {
			os->os_slot = old;
			os->os_cap = oldcap;
			return -1;
		}
		for (i = 0; i < oldcap; i++)
			if (old[i].po_used)
				*objset_slot(os, &old[i].po_id) = old[i];
		free(old);
	}
	if ((o = objset_slot(os, id))->po_used)
		return 0;
	o->po_id = *id;
	o->po_used = 1;
	o->po_pack = -1;
	os->os_count++;
	return 1;
}

/* A tree and all it reaches, without recursion: a tree can nest deep. */
static int
objset_tree(git_repository *r, struct objset *os, const git_oid *root)
{
	git_oid		*stack = NULL, *grown, id;
	size_t		 depth = 0, room = 0, i, n;
	git_tree	*tree;
	const git_tree_entry *te;
	int		 rc = -1, added;

	if ((added = objset_add(os, root)) <= 0)
		return added;
	id = *root;
	for (;;) {
		if (git_tree_lookup(&tree, r, &id) != 0)
			goto out;
		n = git_tree_entrycount(tree);
		for (i = 0; i < n; i++) {
			te = git_tree_entry_byindex(tree, i);
			switch (git_tree_entry_type(te)) {
			case GIT_OBJECT_BLOB:
				if (objset_add(os, git_tree_entry_id(te)) == -1)
					goto free;
				break;
			case GIT_OBJECT_TREE:
				if ((added = objset_add(os,
				    git_tree_entry_id(te))) == -1)
					goto free;
				if (added == 0)
					break;
				if (depth == room) {
					room = room == 0 ? 64 : room * 2;
					if ((grown = reallocarray(stack, room,
					    sizeof(*stack))) == NULL)
						goto free;
					stack = grown;
				}
				stack[depth++] = *git_tree_entry_id(te);
				break;
			default:	/* a submodule's commit stays behind */
				break;
			}
		}
		git_tree_free(tree);
		if (depth == 0)
			break;
		id = stack[--depth];
	}
	rc = 0;
	goto out;
free:
	git_tree_free(tree);
out:
	free(stack);
	return rc;
}

static int
objset_commit(git_repository *r, struct objset *os, const git_oid *id)
{
	git_commit	*c;
	int		 rc;

	if (objset_add(os, id) == -1 || git_commit_lookup(&c, r, id) != 0)
		return -1;
	rc = objset_tree(r, os, git_commit_tree_id(c));
	git_commit_free(c);
	return rc;
}

/* The start: the base, the two snapshot commits and their trees. */
static int
objset_fill(git_repository *r, struct objset *os,
    const struct git_pack_req *gp)
{
	const char	*start[] = { gp->gp_base, gp->gp_staged, gp->gp_start };
	git_revwalk	*walk;
	git_oid		 id;
	size_t		 i;
	int		 rc;

	if (gp->gp_kind == GIT_PACK_START) {
		for (i = 0; i < sizeof(start) / sizeof(start[0]); i++)
			if (git_oid_fromstr(&id, start[i]) != 0 ||
			    objset_commit(r, os, &id) != 0)
				return -1;
		return 0;
	}
	if (git_oid_fromstr(&id, gp->gp_base) != 0 ||
	    git_revwalk_new(&walk, r) != 0)
		return -1;
	if ((rc = git_revwalk_push(walk, &id)) == 0)
		while ((rc = git_revwalk_next(&id, walk)) == 0)
			if ((rc = objset_commit(r, os, &id)) != 0)
				break;
	git_revwalk_free(walk);
	return rc == GIT_ITEROVER ? 0 : -1;
}

/*
 * The repository's packs, each checked against its index.  One that
 * cannot be read or does not pass is left to libgit2, which reads its
 * objects the slow way or says what is wrong with them.
 */
static void
pack_open(struct pack_out *po, int dfd, const char *name)
{
	struct pack_file *pf = &po->po_packs[po->po_npacks];
	struct stat	 st;
	uint8_t		 head[12], trailer[PACK_TRAILER];
	char		 packname[NAME_MAX + 1];
	const char	*why;
	size_t		 len;
	ssize_t		 n;
	int		 ifd;

	len = strlen(name);
	if (len < 5 || len > NAME_MAX - 1 || strcmp(name + len - 4, ".idx") != 0)
		return;
	memcpy(packname, name, len - 4);
	strlcpy(packname + len - 4, ".pack", sizeof(packname) - (len - 4));
	if ((pf->pf_fd = openat(dfd, packname,
	    O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1)
		return;
	if ((ifd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1)
		goto close;
	if (fstat(ifd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_size > (off_t)PACKIDX_MAX ||
	    (pf->pf_idxbuf = malloc(st.st_size > 0 ? st.st_size : 1)) == NULL ||
	    (n = pread(ifd, pf->pf_idxbuf, st.st_size, 0)) != st.st_size)
		goto free;
	len = st.st_size;
	if (fstat(pf->pf_fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_size < (off_t)(sizeof(head) + sizeof(trailer)) ||
	    pread(pf->pf_fd, head, sizeof(head), 0) != sizeof(head) ||
	    pread(pf->pf_fd, trailer, sizeof(trailer),
	    st.st_size - sizeof(trailer)) != sizeof(trailer))
		goto free;
	if (packidx_parse(&pf->pf_idx, pf->pf_idxbuf, len, head, trailer,
	    st.st_size, &why) == -1) {
		log_warnx("%s: %s", name, why);
		goto free;
	}
	close(ifd);
	po->po_npacks++;
	return;
free:
	free(pf->pf_idxbuf);
	pf->pf_idxbuf = NULL;
	close(ifd);
close:
	close(pf->pf_fd);
}

static void
packs_open(struct pack_out *po, git_repository *r)
{
	char		 dir[PATH_MAX];
	struct dirent	*de;
	DIR		*d;

	if (snprintf(dir, sizeof(dir), "%sobjects/pack",
	    git_repository_commondir(r)) >= (int)sizeof(dir) ||
	    (d = opendir(dir)) == NULL)
		return;
	while (po->po_npacks < PACKS_MAX && (de = readdir(d)) != NULL)
		pack_open(po, dirfd(d), de->d_name);
	closedir(d);
}

static void
packs_close(struct pack_out *po)
{
	int		 i;

	for (i = 0; i < po->po_npacks; i++) {
		packidx_free(&po->po_packs[i].pf_idx);
		free(po->po_packs[i].pf_idxbuf);
		close(po->po_packs[i].pf_fd);
	}
	po->po_npacks = 0;
}

/* The new pack's bytes, counted and hashed for its trailer. */
static int
pack_write(struct pack_out *po, const void *buf, size_t size)
{
	if (EVP_DigestUpdate(po->po_sha, buf, size) != 1)
		fatalx("%s: sha1", __func__);
	po->po_offset += size;
	return git_tx_write(&po->po_gt, buf, size);
}

/* [off, off + want) of a pack through the window; want <= WINDOW_SIZE. */
static const uint8_t *
pack_read(struct pack_out *po, int pack, uint64_t off, size_t want)
{
	const struct pack_file *pf = &po->po_packs[pack];
	uint64_t	 room = pf->pf_idx.pi_datasize - off;
	size_t		 n, got;
	ssize_t		 r;

	if (pack == po->po_win_pack && off >= po->po_win_start &&
	    off + want <= po->po_win_start + po->po_win_len)
		return po->po_win + (off - po->po_win_start);
	n = room < WINDOW_SIZE ? room : WINDOW_SIZE;
	po->po_win_pack = -1;
	for (got = 0; got < n; got += r)
		if ((r = pread(pf->pf_fd, po->po_win + got, n - got,
		    off + got)) <= 0)
			return NULL;	/* the pack shrank under us */
	po->po_win_pack = pack;
	po->po_win_start = off;
	po->po_win_len = n;
	return po->po_win;
}

/* An object read through libgit2 and deflated: always right, slower. */
static int
pack_write_whole(struct pack_out *po, struct pack_obj *o)
{
	git_odb_object	*obj;
	uint8_t		 hdr[PACKENT_MAX];
	const uint8_t	*data;
	size_t		 size, in;
	int		 zrc, flush;

	if (git_odb_read(&obj, po->po_odb, &o->po_id) != 0)
		return -1;
	o->po_written = po->po_offset;
	data = git_odb_object_data(obj);
	size = git_odb_object_size(obj);
	if (pack_write(po, hdr, packent_header(hdr,
	    (enum pack_type)git_odb_object_type(obj), size)) == -1)
		goto fail;
	if (deflateReset(&po->po_z) != Z_OK)
		fatalx("%s: deflateReset", __func__);
	do {
		in = size > UINT_MAX ? UINT_MAX : size;
		po->po_z.next_in = (Bytef *)(uintptr_t)data;
		po->po_z.avail_in = in;
		data += in;
		size -= in;
		flush = size == 0 ? Z_FINISH : Z_NO_FLUSH;
		do {
			po->po_z.next_out = po->po_zbuf;
			po->po_z.avail_out = STREAM_CHUNK;
			zrc = deflate(&po->po_z, flush);
			if (zrc == Z_STREAM_ERROR)
				fatalx("%s: deflate", __func__);
			if (pack_write(po, po->po_zbuf,
			    STREAM_CHUNK - po->po_z.avail_out) == -1)
				goto fail;
		} while (po->po_z.avail_out == 0);
	} while (size > 0);
	git_odb_object_free(obj);
	return zrc == Z_STREAM_END ? 0 : -1;
fail:
	git_odb_object_free(obj);
	return -1;
}

/*
 * An entry copied as the pack stores it, its header first written anew
 * when it is a delta (its base named by where it went in the new pack).
 * A small entry is checked before a byte of it goes out and otherwise
 * written whole; a large one is checked as it goes and ends the pack.
 */
static int
pack_copy(struct pack_out *po, struct pack_obj *o, const uint8_t *hdr,
    size_t hdrlen, size_t skip)
{
	const struct pack_file *pf = &po->po_packs[o->po_pack];
	const uint8_t	*p;
	uint64_t	 off, end, at;
	uint32_t	 crc, want = packidx_crc(&pf->pf_idx, o->po_pos);
	size_t		 n, old;

	packidx_span(&pf->pf_idx, o->po_pos, &off, &end);
	if (end - off <= WINDOW_SIZE) {
		if ((p = pack_read(po, o->po_pack, off, end - off)) == NULL ||
		    crc32(0, p, end - off) != want)
			return pack_write_whole(po, o);
		o->po_written = po->po_offset;
		po->po_reused++;
		return (hdrlen > 0 && pack_write(po, hdr, hdrlen) == -1) ||
		    pack_write(po, p + skip, end - off - skip) == -1 ? -1 : 0;
	}
	o->po_written = po->po_offset;
	po->po_reused++;
	if (hdrlen > 0 && pack_write(po, hdr, hdrlen) == -1)
		return -1;
	crc = crc32(0, NULL, 0);
	for (at = off; at < end; at += n) {
		n = end - at < WINDOW_SIZE ? end - at : WINDOW_SIZE;
		if ((p = pack_read(po, o->po_pack, at, n)) == NULL)
			goto damaged;
		crc = crc32(crc, p, n);
		/* The old header (the first window holds it) stays behind. */
		old = at < off + skip ? off + skip - at : 0;
		if (pack_write(po, p + old, n - old) == -1)
			return -1;
	}
	if (crc == want)
		return 0;
damaged:
	po->po_damaged = "an entry that does not match its index's CRC";
	return -1;
}

static int
pack_write_entry(struct pack_out *po, struct pack_obj *o)
{
	const struct packidx *pi = &po->po_packs[o->po_pack].pf_idx;
	struct pack_obj	*base = NULL;
	struct packent	 pe;
	const uint8_t	*p;
	uint8_t		 hdr[2 * PACKENT_MAX];
	uint64_t	 off, end;
	uint32_t	 bpos;
	size_t		 n;

	packidx_span(pi, o->po_pos, &off, &end);
	n = end - off < 2 * PACKENT_MAX + PACK_OID_LEN ? end - off :
	    2 * PACKENT_MAX + PACK_OID_LEN;
	if ((p = pack_read(po, o->po_pack, off, n)) == NULL ||
	    packent_parse(p, n, &pe) == -1)
		return pack_write_whole(po, o);
	switch (pe.pe_type) {
	case PACK_OFS_DELTA:
		if (pe.pe_ofs <= off &&
		    packidx_at(pi, off - pe.pe_ofs, &bpos) == 0)
			base = objset_get(po->po_set, packidx_oid(pi, bpos));
		break;
	case PACK_REF_DELTA:
		base = objset_get(po->po_set, pe.pe_base);
		break;
	default:
		return pack_copy(po, o, NULL, 0, 0);
	}
	if (base == NULL || base->po_written == 0)
		return pack_write_whole(po, o);
	n = packent_header(hdr, PACK_OFS_DELTA, pe.pe_size);
	n += packent_ofs(hdr + n, po->po_offset - base->po_written);
	return pack_copy(po, o, hdr, n, pe.pe_len);
}

/* The order of the new pack: each pack's entries as it stores them. */
struct pack_place {
	int		 pp_pack;	/* INT_MAX: in no pack, last */
	uint64_t	 pp_offset;
	struct pack_obj	*pp_obj;
};

static int
pack_place_cmp(const void *a, const void *b)
{
	const struct pack_place *x = a, *y = b;

	if (x->pp_pack != y->pp_pack)
		return x->pp_pack < y->pp_pack ? -1 : 1;
	return x->pp_offset < y->pp_offset ? -1 : x->pp_offset > y->pp_offset;
}

static struct pack_place *
pack_order(struct pack_out *po, struct objset *os)
{
	struct pack_place *pl;
	struct pack_obj	*o;
	uint64_t	 end;
	size_t		 i, n = 0;
	int		 k;

	if ((pl = calloc(os->os_count, sizeof(*pl))) == NULL)
		return NULL;
	for (i = 0; i < os->os_cap; i++) {
		if (!(o = &os->os_slot[i])->po_used)
			continue;
		pl[n].pp_obj = o;
		pl[n].pp_pack = INT_MAX;
		for (k = 0; k < po->po_npacks; k++)
			if (packidx_find(&po->po_packs[k].pf_idx, o->po_id.id,
			    &o->po_pos) == 0) {
				o->po_pack = pl[n].pp_pack = k;
				packidx_span(&po->po_packs[k].pf_idx, o->po_pos,
				    &pl[n].pp_offset, &end);
				break;
			}
		n++;
	}
	qsort(pl, n, sizeof(*pl), pack_place_cmp);
	return pl;
}

static int
pack_write_all(struct pack_out *po, struct objset *os, struct pack_place *pl)
{
	uint8_t		 head[12] = { 'P', 'A', 'C', 'K', 0, 0, 0, 2 };
	uint8_t		 md[EVP_MAX_MD_SIZE];
	unsigned int	 mdlen;
	size_t		 i;

	head[8] = os->os_count >> 24;
	head[9] = os->os_count >> 16;
	head[10] = os->os_count >> 8;
	head[11] = os->os_count;
	if (pack_write(po, head, sizeof(head)) == -1)
		return -1;
	for (i = 0; i < os->os_count; i++)
		if ((pl[i].pp_obj->po_pack >= 0 ?
		    pack_write_entry(po, pl[i].pp_obj) :
		    pack_write_whole(po, pl[i].pp_obj)) == -1)
			return -1;
	if (EVP_DigestFinal_ex(po->po_sha, md, &mdlen) != 1 ||
	    mdlen != PACK_OID_LEN)
		fatalx("%s: sha1", __func__);
	return git_tx_write(&po->po_gt, md, mdlen);
}

int
pack_send(git_repository *r, struct imsgev *iev, uint32_t request,
    const struct git_pack_req *gp, struct space_done *sd)
{
	struct pack_out	 po;
	struct objset	 os;
	struct pack_place *pl = NULL;
	int		 rc = -1, zinit = 0;

	memset(&po, 0, sizeof(po));
	memset(&os, 0, sizeof(os));
	po.po_set = &os;
	po.po_win_pack = -1;
	git_tx_init(&po.po_gt, iev, gp->gp_stream, request, CREDIT_WAIT_MS);
	arc4random_buf(&os.os_seed, sizeof(os.os_seed));
	if (objset_fill(r, &os, gp) != 0) {
		snap_libgit2(sd, "pack objects");
		goto end;
	}
	if (os.os_count > UINT32_MAX) {
		snap_refuse(sd, ERR_GIT_COMMAND_FAILED, "%zu objects: more "
		    "than a pack holds", os.os_count);
		goto end;
	}
	if (git_repository_odb(&po.po_odb, r) != 0) {
		snap_libgit2(sd, "pack");
		goto end;
	}
	packs_open(&po, r);
	if ((pl = pack_order(&po, &os)) == NULL ||
	    (po.po_win = malloc(WINDOW_SIZE)) == NULL ||
	    (po.po_zbuf = malloc(STREAM_CHUNK)) == NULL ||
	    (po.po_sha = EVP_MD_CTX_new()) == NULL)
		fatal("%s", __func__);
	if (EVP_DigestInit_ex(po.po_sha, EVP_sha1(), NULL) != 1 ||
	    deflateInit(&po.po_z, DEFLATE_LEVEL) != Z_OK)
		fatalx("%s: sha1 or deflate", __func__);
	zinit = 1;
	if (pack_write_all(&po, &os, pl) == -1) {
		if (po.po_gt.gt_cancelled)
			snap_refuse(sd, ERR_CANCELLED, "cancelled");
		else if (po.po_gt.gt_stalled)
			snap_refuse(sd, ERR_TIMEOUT, "the pack's reader took "
			    "nothing for %d s", CREDIT_WAIT_MS / 1000);
		else if (po.po_damaged != NULL)
			snap_refuse(sd, ERR_GIT_COMMAND_FAILED, "pack: %s",
			    po.po_damaged);
		else
			snap_libgit2(sd, "pack");
		goto end;
	}
	snprintf(sd->sd_message, sizeof(sd->sd_message), "%zu objects "
	    "(%zu as stored), %llu bytes", os.os_count, po.po_reused,
	    (unsigned long long)po.po_gt.gt_tx.st_sent);
	rc = 0;
end:
	if (zinit)
		deflateEnd(&po.po_z);
	EVP_MD_CTX_free(po.po_sha);
	free(po.po_zbuf);
	free(po.po_win);
	free(pl);
	packs_close(&po);
	git_odb_free(po.po_odb);
	free(os.os_slot);
	if (stream_tx_end(&po.po_gt.gt_tx, &iev->ibuf, rc == 0 ? 0 : EIO) == -1)
		fatal("%s: stream_tx_end", __func__);
	return rc;
}
