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
 * The tools volume, spaced's side (spec "Tools volume").  spaced-docker
 * opens no file, so spaced opens at start what a fill needs (the filler,
 * each packed tarball, the CA bundle); an ensure sends the key and one
 * fresh dup of each fd.  The owner is the install id and the kernel's
 * uid of the caller, never the client's word.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "space_parse.h"
#include "spaced.h"
#include "tools_key.h"

#define SPACED_FILLER		"spaced-filler.js"	/* in libexec */
#define TOOLS_FILLER_MAX	(256 * 1024)	/* spaced-docker's cap too */
#define TOOLS_TARBALL_MAX	(512ULL * 1024 * 1024)
#define TOOLS_CA_BUNDLE_MAX	(1024 * 1024)

/* What a fill sends, opened once; the profiles with tarballs hashed. */
static struct {
	int			 filler_fd;
	uint64_t		 filler_size;
	char			 filler_sha[SHA256_HEX_LEN + 1];
	struct agent_profile	 profiles[AGENT_PROFILES_MAX];
	int			 profile_ok[AGENT_PROFILES_MAX];
	int			 packed_fd[AGENT_PROFILES_MAX]
			    [AGENT_PACKAGES_MAX];
	uint32_t		 nprofiles;
	int			 ca_fd;
	uint64_t		 ca_size;
} tv = {
	.filler_fd = -1,
	.ca_fd = -1,
};

static int
open_regular(const char *path, uint64_t max, char sha[SHA256_HEX_LEN + 1],
    uint64_t *size)
{
	struct stat	 sb;
	const char	*why;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) == -1) {
		log_warn("tools: %s", path);
		return -1;
	}
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    tools_sha256_fd(fd, max, sha, size) == -1 || *size == 0) {
		log_warnx("tools: %s: not a regular file of at most %llu "
		    "bytes", path, (unsigned long long)max);
		close(fd);
		return -1;
	}
	/* Read again later, from this fd: no one else may write it. */
	if ((why = runtime_file_why(fd, path)) != NULL) {
		log_warnx("tools: %s: %s", path, why);
		close(fd);
		return -1;
	}
	return fd;
}

void
tools_open(const char *libexec)
{
	const struct spaced_conf	*conf = spaced_config();
	struct agent_package		*ap;
	char				 path[PATH_MAX], sha[SHA256_HEX_LEN + 1];
	uint32_t			 i, j;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", libexec,
	    SPACED_FILLER) < sizeof(path) &&
	    (tv.filler_fd = open_regular(path, TOOLS_FILLER_MAX, tv.filler_sha,
	    &tv.filler_size)) != -1)
		log_info("tools: %s, sha256 %.16s..., %llu bytes", path,
		    tv.filler_sha, (unsigned long long)tv.filler_size);
	tv.nprofiles = conf->sc_nagents;
	for (i = 0; i < tv.nprofiles; i++) {
		tv.profiles[i] = conf->sc_agents[i];
		tv.profile_ok[i] = 1;
		for (j = 0; j < AGENT_PACKAGES_MAX; j++)
			tv.packed_fd[i][j] = -1;
		for (j = 0; j < tv.profiles[i].ag_npackages; j++) {
			ap = &tv.profiles[i].ag_packages[j];
			if (ap->ap_tarball[0] == '\0')
				continue;
			/* Read and hashed once: the key says what is sent. */
			if ((tv.packed_fd[i][j] = open_regular(ap->ap_tarball,
			    TOOLS_TARBALL_MAX, ap->ap_sha256,
			    &ap->ap_size)) == -1)
				tv.profile_ok[i] = 0;
		}
	}
	if (conf->sc_tools_ca[0] != '\0' && (tv.ca_fd =
	    open_regular(conf->sc_tools_ca, TOOLS_CA_BUNDLE_MAX, sha,
	    &tv.ca_size)) == -1)
		log_warnx("tools: the CA bundle %s cannot be read: fills "
		    "answer %s", conf->sc_tools_ca, ERR_TOOLS_FILL_FAILED);
}

/* The profile of that name ("" the default), or NULL; its index. */
static struct agent_profile *
profile_find(const char *name, uint32_t *idx)
{
	const struct spaced_conf	*conf = spaced_config();
	uint32_t			 i;

	if (name == NULL || name[0] == '\0')
		name = conf->sc_agent;
	for (i = 0; i < tv.nprofiles; i++)
		if (strcmp(tv.profiles[i].ag_name, name) == 0) {
			*idx = i;
			return &tv.profiles[i];
		}
	return NULL;
}

int
tools_agent_known(const char *agent)
{
	uint32_t	 idx;

	return profile_find(agent, &idx) != NULL;
}

/* "opencode-ai 1.18.33, x 1.0 (packed)": the label, for people. */
static void
tools_label(const struct agent_profile *ag, char *buf, size_t len)
{
	uint32_t	 i;

	buf[0] = '\0';
	for (i = 0; i < ag->ag_npackages; i++) {
		if (i > 0)
			strlcat(buf, ", ", len);
		strlcat(buf, ag->ag_packages[i].ap_name, len);
		strlcat(buf, " ", len);
		strlcat(buf, ag->ag_packages[i].ap_version, len);
		if (ag->ag_packages[i].ap_tarball[0] != '\0')
			strlcat(buf, " (packed)", len);
	}
	if (ag->ag_revision[0] != '\0') {
		strlcat(buf, ", revision ", len);
		strlcat(buf, ag->ag_revision, len);
	}
}

int
tools_current(const char *agent, uid_t uid, struct ctl_tools_info *ti)
{
	const struct spaced_conf	*conf = spaced_config();
	const struct agent_profile	*ag;
	uint32_t			 idx;

	memset(ti, 0, sizeof(*ti));
	if ((ag = profile_find(agent, &idx)) == NULL || !tv.profile_ok[idx] ||
	    tv.filler_fd == -1)
		return -1;
	strlcpy(ti->ti_agent, ag->ag_name, sizeof(ti->ti_agent));
	if (tools_key(ag, conf->sc_space_image, tv.filler_sha, ti->ti_key) ==
	    -1 || tools_describe(ag, conf->sc_space_image, tv.filler_sha,
	    ti->ti_description, sizeof(ti->ti_description)) == -1 ||
	    tools_volume_name(ti->ti_volume, sizeof(ti->ti_volume),
	    conf->sc_install_id, uid, ti->ti_key) == -1)
		return -1;
	tools_label(ag, ti->ti_label, sizeof(ti->ti_label));
	return 0;
}

/*
 * The current volume of every profile for uid: a prune takes only what
 * no profile uses any more, so one used in turn with another is never
 * filled again (spaced.conf(5): the bound).
 */
void
tools_keep_current(uid_t uid, struct tools_keep *tk)
{
	static struct ctl_tools_info	 ti;
	uint32_t			 i, n = 0;

	memset(tk, 0, sizeof(*tk));
	for (i = 0; i < tv.nprofiles && n < AGENT_PROFILES_MAX; i++)
		if (tools_current(tv.profiles[i].ag_name, uid, &ti) == 0)
			strlcpy(tk->tk_volume[n++], ti.ti_volume,
			    sizeof(tk->tk_volume[0]));
}

static int
send_file(struct request *r, int fd, uint32_t kind, uint32_t index,
    uint64_t size)
{
	struct tools_file_msg	 tf;
	int			 dup;

	if ((dup = fcntl(fd, F_DUPFD_CLOEXEC, 0)) == -1) {
		log_warn("tools: dup");
		return -1;
	}
	memset(&tf, 0, sizeof(tf));
	tf.tf_kind = kind;
	tf.tf_index = index;
	tf.tf_size = size;
	/* To the place of the ensure: the native one fills its own. */
	return worker_compose(r->r_place == PROC_NS ? PROC_NS : PROC_DOCKER,
	    IMSG_TOOLS_FILE, r->r_id, dup, &tf, sizeof(tf));
}

const char *
tools_ensure(struct request *r, const char *agent, int hold)
{
	const struct spaced_conf	*conf = spaced_config();
	static struct tools_ensure_req	 te;
	struct ctl_tools_info		*ti;
	const struct agent_profile	*ag;
	const char			*code;
	uint32_t			 idx, i, n;

	if ((ag = profile_find(agent, &idx)) == NULL)
		return ERR_BAD_REQUEST;
	if (!tv.profile_ok[idx] || tv.filler_fd == -1 ||
	    (conf->sc_tools_ca[0] != '\0' && tv.ca_fd == -1))
		return ERR_TOOLS_FILL_FAILED;
	if ((ti = calloc(1, sizeof(*ti))) == NULL)
		return ERR_INTERNAL;
	memset(&te, 0, sizeof(te));
	if (tools_current(agent, r->r_uid, ti) == -1 ||
	    space_owner_fmt(te.te_owner, sizeof(te.te_owner),
	    conf->sc_install_id, r->r_uid) == -1) {
		free(ti);
		return ERR_INTERNAL;
	}
	strlcpy(te.te_key, ti->ti_key, sizeof(te.te_key));
	strlcpy(te.te_volume, ti->ti_volume, sizeof(te.te_volume));
	strlcpy(te.te_description, ti->ti_label, sizeof(te.te_description));
	free(ti);
	strlcpy(te.te_image, conf->sc_space_image, sizeof(te.te_image));
	te.te_profile = *ag;
	for (i = 0, n = 1; i < ag->ag_npackages; i++)
		if (ag->ag_packages[i].ap_tarball[0] != '\0')
			n++;
	te.te_nfiles = n + (tv.ca_fd != -1);
	te.te_hold = hold != 0;
	te.te_runtime_uid = geteuid();
	tools_keep_current(r->r_uid, &te.te_keep);
	config_space_uids(conf, &te.te_uid_first, &te.te_uid_count);
	strlcpy(te.te_gk_image, conf->sc_gk_image, sizeof(te.te_gk_image));
	if (config_space_net(conf, &te.te_net_base, &te.te_net_pool_prefix,
	    &te.te_net_prefix) == -1)
		fatalx("%s: network pool", __func__);
	if ((code = place_send(r, IMSG_TOOLS_ENSURE_REQ, &te, sizeof(te))) !=
	    NULL)
		return code;
	/* The files follow, each with its own fd: spaced-docker opens none. */
	if (send_file(r, tv.filler_fd, TOOLS_FILE_FILLER, 0,
	    tv.filler_size) == -1)
		return NULL;	/* it answers: a file is missing */
	for (i = 0; i < ag->ag_npackages; i++)
		if (tv.packed_fd[idx][i] != -1 &&
		    send_file(r, tv.packed_fd[idx][i], TOOLS_FILE_PACKED, i,
		    ag->ag_packages[i].ap_size) == -1)
			return NULL;
	if (tv.ca_fd != -1)
		(void)send_file(r, tv.ca_fd, TOOLS_FILE_CA, 0, tv.ca_size);
	return NULL;
}

int
tools_done_read(struct request *r, enum procid from, struct imsg *imsg,
    struct tools_done *td)
{
	if ((from != PROC_DOCKER && from != PROC_NS) ||
	    imsg_get_type(imsg) != IMSG_TOOLS_DONE ||
	    imsg_get_data(imsg, td, sizeof(*td)) == -1)
		return -1;
	if (memchr(td->td_done.sd_code, '\0', sizeof(td->td_done.sd_code)) ==
	    NULL || memchr(td->td_done.sd_message, '\0',
	    sizeof(td->td_done.sd_message)) == NULL ||
	    memchr(td->td_volume, '\0', sizeof(td->td_volume)) == NULL ||
	    memchr(td->td_key, '\0', sizeof(td->td_key)) == NULL ||
	    (td->td_done.sd_code[0] != '\0' &&
	    !space_code_valid(td->td_done.sd_code,
	    sizeof(td->td_done.sd_code))) ||
	    (td->td_key[0] != '\0' && !tools_key_valid(td->td_key)) ||
	    /* an ensure that worked names its volume (a listing none) */
	    (td->td_done.sd_code[0] == '\0' &&
	    r->r_op->op_type != IMSG_CTL_TOOLS &&
	    (td->td_volume[0] == '\0' || td->td_key[0] == '\0')) ||
	    td->td_filled < 0 || td->td_filled > 1 || td->td_pruned < 0)
		return -1;
	return 0;
}

int
agent_fill(uid_t uid, struct space_agent *sa)
{
	static struct ctl_tools_info	 ti;
	const struct agent_profile	*ag;

	memset(sa, 0, sizeof(*sa));
	if ((ag = agent_profile()) == NULL)
		return 0;
	if (tools_current("", uid, &ti) == -1 ||
	    strlcpy(sa->sa_tools, ti.ti_volume, sizeof(sa->sa_tools)) >=
	    sizeof(sa->sa_tools) || space_agent_build(ag, sa) == -1) {
		memset(sa, 0, sizeof(*sa));
		return -1;
	}
	return 0;
}
