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
 * What the tools volume's operations share: the requests in flight (for
 * the files spaced sends after a request), each volume's turn in this
 * worker, the answer, and the owner's volumes.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "labels.h"
#include "log.h"
#include "docker_env.h"
#include "tools_answer.h"
#include "tools_volume.h"

#define TV_FILLER_MAX		(256 * 1024)

void
tools_track(struct tv *tv)
{
	TAILQ_INSERT_TAIL(&env->de_tools, tv, entry);
}

void
tools_untrack(struct tv *tv)
{
	TAILQ_REMOVE(&env->de_tools, tv, entry);
}

/* --- the turn of a volume: one request of this worker at a time ------ */

int
turn_take(const char *volume, uint32_t peerid)
{
	size_t	 i, free_slot = DOCKER_TOOLS_HOLDERS;

	for (i = 0; i < DOCKER_TOOLS_HOLDERS; i++) {
		if (env->de_holders[i].h_peerid == 0) {
			if (free_slot == DOCKER_TOOLS_HOLDERS)
				free_slot = i;
			continue;
		}
		if (strcmp(env->de_holders[i].h_volume, volume) == 0)
			return env->de_holders[i].h_peerid == peerid;
	}
	if (free_slot == DOCKER_TOOLS_HOLDERS)
		return 0;
	strlcpy(env->de_holders[free_slot].h_volume, volume,
	    sizeof(env->de_holders[free_slot].h_volume));
	env->de_holders[free_slot].h_peerid = peerid;
	return 1;
}

void
turn_release(const char *volume, uint32_t peerid)
{
	size_t	 i;

	for (i = 0; i < DOCKER_TOOLS_HOLDERS; i++)
		if (env->de_holders[i].h_peerid == peerid &&
		    strcmp(env->de_holders[i].h_volume, volume) == 0) {
			env->de_holders[i].h_peerid = 0;
			env->de_holders[i].h_volume[0] = '\0';
		}
}

/* --- the volumes a create or start is yet to mount (tools_prune.h) -- */

time_t
tools_clock(void)
{
	struct timespec	 ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		fatal("%s", __func__);
	return ts.tv_sec;
}

void
tools_keep(const char *volume, uint32_t peerid, time_t now)
{
	size_t	 i;

	for (i = 0; i < DOCKER_TOOLS_HOLDERS; i++)
		if (env->de_kept[i].k_peerid == 0) {
			strlcpy(env->de_kept[i].k_volume, volume,
			    sizeof(env->de_kept[i].k_volume));
			env->de_kept[i].k_peerid = peerid;
			env->de_kept[i].k_claimed = 0;
			env->de_kept[i].k_since = now;
			return;
		}
	log_warnx("tools: %s: no room to keep it from a prune", volume);
}

/* Its request began: kept till that request's end, however long. */
void
tools_claim(uint32_t peerid)
{
	size_t	 i;

	for (i = 0; i < DOCKER_TOOLS_HOLDERS; i++)
		if (env->de_kept[i].k_peerid == peerid)
			env->de_kept[i].k_claimed = 1;
}

void
tools_unkeep(uint32_t peerid)
{
	size_t	 i;

	for (i = 0; i < DOCKER_TOOLS_HOLDERS; i++)
		if (env->de_kept[i].k_peerid == peerid) {
			env->de_kept[i].k_peerid = 0;
			env->de_kept[i].k_volume[0] = '\0';
		}
}

int
tools_kept(const char *volume, time_t now)
{
	size_t	 i;
	int	 kept = 0;

	for (i = 0; i < DOCKER_TOOLS_HOLDERS; i++) {
		if (env->de_kept[i].k_peerid == 0)
			continue;
		/* A create that never came: spaced moved on long ago. */
		if (!env->de_kept[i].k_claimed &&
		    now - env->de_kept[i].k_since >= TOOLS_KEEP_UNCLAIMED_S) {
			log_info("tools: %s: no create came for it (peer %u): "
			    "no longer kept", env->de_kept[i].k_volume,
			    env->de_kept[i].k_peerid);
			env->de_kept[i].k_peerid = 0;
			env->de_kept[i].k_volume[0] = '\0';
			continue;
		}
		if (strcmp(env->de_kept[i].k_volume, volume) == 0)
			kept = 1;
	}
	return kept;
}

/* --- the answer, and what the checkers check ----------------------- */

void
tools_reply(struct docker_req *rq, struct tv *tv, const char *code,
    const char *message, int uncertain, int exit_code)
{
	struct tools_done	 td;

	if (tv->holder) {
		turn_release(tv->req.te_volume, tv->peerid);
		tv->holder = 0;
	}
	memset(&td, 0, sizeof(td));
	strlcpy(td.td_done.sd_code, code, sizeof(td.td_done.sd_code));
	if (message != NULL)
		strlcpy(td.td_done.sd_message, message,
		    sizeof(td.td_done.sd_message));
	td.td_done.sd_uncertain = uncertain;
	td.td_done.sd_exit = exit_code;
	strlcpy(td.td_volume, tv->req.te_volume, sizeof(td.td_volume));
	strlcpy(td.td_key, tv->req.te_key, sizeof(td.td_key));
	td.td_filled = tv->filled;
	td.td_pruned = tv->pruned;
	if (code[0] == '\0' && tv->req.te_hold)
		tools_keep(tv->req.te_volume, tv->peerid, tools_clock());
	docker_req_reply(rq, &td, sizeof(td));
}

void
tools_params(struct tv *tv, enum tools_role role)
{
	memset(&tv->tp, 0, sizeof(tv->tp));
	tv->tp.tp_role = role;
	tv->tp.tp_image = tv->req.te_image;
	tv->tp.tp_volume = tv->volume;
	tv->tp.tp_owner = tv->req.te_owner;
	tv->tp.tp_key = tv->key;
	tv->tp.tp_description = tv->desc;
	tv->tp.tp_created = tv->created;
	tv->tp.tp_uid = tools_fill_uid(tv->key, tv->req.te_uid_first,
	    tv->req.te_uid_count);
	tv->tp.tp_gk_image = tv->req.te_gk_image;
	tv->tp.tp_subnet = tv->net_subnet;
	tv->tp.tp_runtime_key = tv->rt.rt_key;
}

/* "<install>:<uid>" to the volume name of key; -1 when not one. */
int
tools_owner_volume(const char *owner, const char *key, char *buf, size_t len)
{
	char		 install[INSTALL_ID_MAX + 1];
	const char	*colon, *errstr;
	long long	 uid;

	if (!space_owner_valid(owner) || (colon = strchr(owner, ':')) ==
	    NULL || (size_t)(colon - owner) >= sizeof(install))
		return -1;
	memcpy(install, owner, colon - owner);
	install[colon - owner] = '\0';
	uid = strtonum(colon + 1, 0, UINT32_MAX, &errstr);
	if (errstr != NULL)
		return -1;
	return tools_volume_name(buf, len, install, (uid_t)uid, key);
}

int
tools_runtime_owner(const char *owner, uint32_t uid, char *buf, size_t len)
{
	char		 install[INSTALL_ID_MAX + 1];
	const char	*colon;

	if (!space_owner_valid(owner) || (colon = strchr(owner, ':')) ==
	    NULL || (size_t)(colon - owner) >= sizeof(install))
		return -1;
	memcpy(install, owner, colon - owner);
	install[colon - owner] = '\0';
	if (space_owner_fmt(buf, len, install, (uid_t)uid) == -1)
		return -1;
	return space_owner_valid(buf) ? 0 : -1;
}

/* --- files from spaced ------------------------------------------------ */

void
tools_file(uint32_t peerid, const struct tools_file_msg *tf,
    int fd)
{
	struct tv	*tv;
	struct stat	 sb;
	size_t		 i;

	TAILQ_FOREACH(tv, &env->de_tools, entry)
		if (tv->peerid == peerid && tv->op == IMSG_TOOLS_ENSURE_REQ)
			break;
	/* An ensure that already answered (refused, cancelled). */
	if (tv == NULL || tv->nfiles >= tv->req.te_nfiles ||
	    tv->nfiles >= TOOLS_MSG_FILES_MAX) {
		if (fd != -1)
			close(fd);
		return;
	}
	if (fd == -1 || fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    (uint64_t)sb.st_size != tf->tf_size ||
	    tf->tf_kind < TOOLS_FILE_FILLER || tf->tf_kind > TOOLS_FILE_CA ||
	    (tf->tf_kind == TOOLS_FILE_PACKED &&
	    (tf->tf_index >= tv->req.te_profile.ag_npackages ||
	    tv->req.te_profile.ag_packages[tf->tf_index].ap_tarball[0] ==
	    '\0' || tv->req.te_profile.ag_packages[tf->tf_index].ap_size !=
	    tf->tf_size)) ||
	    (tf->tf_kind == TOOLS_FILE_FILLER && tf->tf_size > TV_FILLER_MAX) ||
	    (tf->tf_kind == TOOLS_FILE_CA && tf->tf_size > TOOLS_CA_MAX)) {
		log_warnx("tools: a file from spaced that is not what it says "
		    "(kind %u)", tf->tf_kind);
		if (fd != -1)
			close(fd);
		return;
	}
	for (i = 0; i < tv->nfiles; i++)
		if (tv->files[i].f_kind == tf->tf_kind &&
		    tv->files[i].f_index == tf->tf_index) {
			close(fd);
			return;
		}
	tv->files[tv->nfiles].f_fd = fd;
	tv->files[tv->nfiles].f_kind = tf->tf_kind;
	tv->files[tv->nfiles].f_index = tf->tf_kind == TOOLS_FILE_PACKED ?
	    tf->tf_index : 0;
	tv->files[tv->nfiles].f_size = tf->tf_size;
	tv->nfiles++;
}

struct tv_file *
tools_file_find(struct tv *tv, uint32_t kind, uint32_t index)
{
	size_t	 i;

	for (i = 0; i < tv->nfiles; i++)
		if (tv->files[i].f_kind == kind &&
		    (kind != TOOLS_FILE_PACKED || tv->files[i].f_index ==
		    index) && tv->files[i].f_fd != -1)
			return &tv->files[i];
	return NULL;
}

/* All of a file, from offset 0; NULL on a short read. */
uint8_t *
tools_file_read(const struct tv_file *f)
{
	uint8_t		*buf;
	uint64_t	 off = 0;
	ssize_t		 n;

	if ((buf = malloc(f->f_size + 1)) == NULL)
		return NULL;
	while (off < f->f_size) {
		n = pread(f->f_fd, buf + off, f->f_size - off, (off_t)off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			free(buf);
			return NULL;
		}
		off += (uint64_t)n;
	}
	buf[f->f_size] = '\0';
	return buf;
}

/* --- the owner's volumes -------------------------------------------- */

void
tools_owner_filter(char *buf, size_t len, const char *owner)
{
	char	 raw[256];

	if ((size_t)snprintf(raw, sizeof(raw), "%s=%s", LABEL_OWNER, owner) >=
	    sizeof(raw))
		fatalx("%s: owner", __func__);
	engine_label_filter(buf, len, 2, LABEL_ROLE "=tools", raw);
}

static int
kept_now(const char *volume, void *arg)
{
	return tools_kept(volume, *(const time_t *)arg);
}

/* The listing read by tools_answer.c; the kept ones are this worker's. */
size_t
tools_prune_list(const struct docker_parser *p, const char *owner,
    const char *keep, const struct tools_keep *tk,
    char (*names)[SPACE_RESOURCE_MAX], size_t max)
{
	time_t	 now = tools_clock();

	return tools_prune_take(p, owner, keep, tk, kept_now, &now, names,
	    max);
}
