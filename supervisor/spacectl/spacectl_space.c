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
 * The space commands: create, list, show, verify, stop, start, remove.
 * The answer is gathered whole before anything is shown.
 */

#include <sys/types.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "labels.h"
#include "space_parse.h"
#include "spacectl.h"
#include "spacectl_output.h"

/* The records are told apart by their length, then by their kind. */
_Static_assert(sizeof(struct space_info) != sizeof(struct space_violation) &&
    sizeof(struct space_info) != sizeof(struct space_resource) &&
    sizeof(struct space_info) != sizeof(struct space_done) &&
    sizeof(struct space_violation) != sizeof(struct space_resource) &&
    sizeof(struct space_violation) != sizeof(struct space_done) &&
    sizeof(struct space_resource) != sizeof(struct space_done),
    "space records must differ in length");

/* What the answer said, gathered before anything is shown. */
struct space_answer {
	uint32_t		 sa_type;	/* the request */
	json_t			*sa_infos;	/* the spaces */
	json_t			*sa_violations;
	json_t			*sa_removed;
	json_t			*sa_failed;	/* remove's, or a rollback's */
	const char		*sa_id;		/* the ID asked for */
};

/* The space of id among those of the answer, or NULL. */
static json_t *
space_of(struct space_answer *sa, const char *id)
{
	json_t	*info;
	size_t	 i;

	json_array_foreach(sa->sa_infos, i, info)
		if (strcmp(jstr(info, "id"), id) == 0)
			return info;
	return NULL;
}

static void
space_resource(struct space_answer *sa, struct imsg *imsg)
{
	struct space_resource	 sr;
	json_t			*r, *info;

	if (imsg_get_data(imsg, &sr, sizeof(sr)) == -1)
		failed("bad_answer", "resource");
	r = out_space_resource(&sr);
	switch (sr.sr_state) {
	case SPACE_RES_REMOVED:
		json_array_append_new(sa->sa_removed, r);
		break;
	case SPACE_RES_FAILED:
		json_array_append_new(sa->sa_failed, r);
		break;
	case SPACE_RES_ORPHAN:
		/* It belongs to a space of the answer. */
		if ((info = space_of(sa, nstr(sr.sr_id, sizeof(sr.sr_id)))) ==
		    NULL)
			failed("bad_answer", "orphan of no space");
		json_array_append_new(json_object_get(info, "orphans"), r);
		break;
	default:
		failed("bad_answer", "resource state");
	}
}

static void
space_ready(struct space_answer *sa, struct imsg *imsg)
{
	struct ctl_ready	 cy;
	json_t			*info;

	if (imsg_get_data(imsg, &cy, sizeof(cy)) == -1)
		failed("bad_answer", "readiness");
	info = space_of(sa, nstr(cy.cy_id, sizeof(cy.cy_id)));
	if (info == NULL || (cy.cy_ready != CTL_READY_YES &&
	    cy.cy_ready != CTL_READY_NO))
		failed("bad_answer", "readiness of no space");
	out_space_ready(info, &cy);
}

/* create --code: the folder, and the space its code goes to. */
static const char	*code_dir;
static char		 code_space[SPACE_ID_SIZE];
static struct ctl_codein code_ci;
static int		 space_remove_quiet(const char *);

/* Each record of create's answer has a size of its own. */
_Static_assert(sizeof(struct ctl_space_running) != sizeof(struct ctl_ready) &&
    sizeof(struct ctl_space_running) != sizeof(struct space_info) &&
    sizeof(struct ctl_space_running) != sizeof(struct space_violation) &&
    sizeof(struct ctl_space_running) != sizeof(struct space_resource) &&
    sizeof(struct ctl_space_running) != sizeof(struct space_done),
    "create's records are told apart by their size");

/* The space runs and its server starts: the code goes in meanwhile. */
static void
space_running(struct ctl_req *cr, struct imsg *imsg)
{
	struct space_answer		*sa = cr->cr_arg;
	struct ctl_space_running	 cn;

	if (sa->sa_type != IMSG_CTL_CREATE ||
	    imsg_get_data(imsg, &cn, sizeof(cn)) == -1 ||
	    memchr(cn.cn_id, '\0', sizeof(cn.cn_id)) == NULL ||
	    !space_id_valid(cn.cn_id))
		failed("bad_answer", "a running space");
	if (code_dir == NULL || code_space[0] != '\0')
		return;
	strlcpy(code_space, cn.cn_id, sizeof(code_space));
	codein_create_begin(&code_ci, code_space, cr->cr_fd);
}

static void
space_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct space_answer	*sa = cr->cr_arg;
	struct space_info	 si;
	struct space_violation	 sv;
	size_t			 len = imsg_get_len(imsg);

	if (len == sizeof(si)) {
		if (imsg_get_data(imsg, &si, sizeof(si)) == -1)
			failed("bad_answer", "space info");
		json_array_append_new(sa->sa_infos, out_space_info(&si,
		    sa->sa_type != IMSG_CTL_LIST));
	} else if (len == sizeof(sv)) {
		if (imsg_get_data(imsg, &sv, sizeof(sv)) == -1)
			failed("bad_answer", "violation");
		json_array_append_new(sa->sa_violations,
		    out_space_violation(&sv));
	} else if (len == sizeof(struct space_resource))
		space_resource(sa, imsg);
	else if (len == sizeof(struct ctl_ready))
		space_ready(sa, imsg);
	else if (len == sizeof(struct ctl_space_running))
		space_running(cr, imsg);
	else if (ctl_take_done(cr, imsg)) {
		if (!space_code_valid(cr->cr_done.sd_code,
		    sizeof(cr->cr_done.sd_code)))
			failed("bad_answer", "error code");
	} else
		failed("bad_answer", "unexpected data");
}

static void
space_fail(struct ctl_req *cr, const char *code)
{
	struct space_answer	*sa = cr->cr_arg;

	/* create --code: the code stops, and what it left goes. */
	if (code_space[0] != '\0') {
		codein_create_abandon();
		(void)space_remove_quiet(code_space);
	}
	out_space_failed(nstr(code, CTL_CODE_MAX), cr->cr_have_done ?
	    &cr->cr_done : NULL, sa->sa_failed);
}

/* The answer ended well: show it; the exit status. */
static int
space_show(struct space_answer *sa)
{
	json_t	*o = json_array_get(sa->sa_infos, 0);

	switch (sa->sa_type) {
	case IMSG_CTL_CREATE:
		if (o == NULL)
			failed("bad_answer", "no space in the answer");
		out_space_created(o);
		break;
	case IMSG_CTL_LIST:
		out_space_list(sa->sa_infos);
		break;
	case IMSG_CTL_SHOW:
	case IMSG_CTL_START:
		if (o == NULL && sa->sa_type == IMSG_CTL_SHOW)
			failed("bad_answer", "no space in the answer");
		out_space_show(o);
		break;
	case IMSG_CTL_VERIFY:
		out_space_verified(sa->sa_violations);
		return json_array_size(sa->sa_violations) == 0 ? 0 : 1;
	case IMSG_CTL_STOP:
		out_empty();
		break;
	case IMSG_CTL_REMOVE:
		out_space_removed(sa->sa_removed, sa->sa_failed);
		/*
		 * Done as the spec says, but never silently: the same words
		 * for an unknown ID and another owner's, which stays unseen.
		 */
		if (json_array_size(sa->sa_removed) == 0 &&
		    json_array_size(sa->sa_failed) == 0)
			fprintf(stderr, "spacectl: nothing removed: no space "
			    "%s of yours\n", sa->sa_id);
		return json_array_size(sa->sa_failed) == 0 ? 0 : 1;
	}
	return 0;
}

/* A remove of our own making: its answer is not the command's. */
static void
remove_quiet_data(struct ctl_req *cr, struct imsg *imsg)
{
	(void)ctl_take_done(cr, imsg);
}

static void
remove_quiet_fail(struct ctl_req *cr, const char *code)
{
	cr->cr_arg = (void *)(uintptr_t)1;
}

/*
 * create --code rolled back: the space goes, and the refs its code in
 * left in the repository (a space already gone still has them).
 */
static int
space_remove_quiet(const char *id)
{
	struct ctl_space	 cs;
	struct ctl_req		 cr;

	memset(&cs, 0, sizeof(cs));
	memset(&cr, 0, sizeof(cr));
	strlcpy(cs.cs_id, id, sizeof(cs.cs_id));
	ctl_req_set(&cr, IMSG_CTL_REMOVE, &cs, sizeof(cs), NULL,
	    remove_quiet_data);
	cr.cr_fail = remove_quiet_fail;
	ctl_call(&cr);
	return cr.cr_arg == NULL ? 0 : -1;
}

/* The create is answered: its code went in too, or it is undone. */
static void
code_settle(struct space_answer *sa)
{
	json_t	*o;

	/* No server was waited for: no word of a running space came. */
	if (code_space[0] == '\0') {
		if ((o = json_array_get(sa->sa_infos, 0)) == NULL ||
		    jstr(o, "id") == NULL)
			return;
		strlcpy(code_space, jstr(o, "id"), sizeof(code_space));
		codein_create_begin(&code_ci, code_space, -1);
	}
	if (codein_create_wait() == 0)
		return;
	fprintf(stderr, "spacectl: the code did not go in: space %s %s\n",
	    code_space, space_remove_quiet(code_space) == 0 ? "removed" :
	    "could not be removed (spacectl remove it)");
	exit(1);
}

/* create's --code DIR (a long option) out of argv; the new argc. */
static int
take_code(int argc, char *argv[])
{
	int	 i, j;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--code") != 0)
			continue;
		if (i + 1 >= argc)
			usage();
		code_dir = argv[i + 1];
		for (j = i; j + 2 <= argc; j++)
			argv[j] = argv[j + 2];
		return argc - 2;
	}
	return argc;
}

/* The command's options and ID into cs. */
static void
space_args(int argc, char *argv[], uint32_t type, struct ctl_space *cs)
{
	const char	*errstr;
	int		 ch, takes_id;

	if (type == IMSG_CTL_CREATE)
		argc = take_code(argc, argv);
	optind = 0;	/* glibc: start over, at argv[1] */
	while ((ch = getopt(argc, argv, type == IMSG_CTL_CREATE ? "+jm:n:p:" : "+j"))
	    != -1) {
		switch (ch) {
		case 'j':
			env->sc_json = 1;
			break;
		case 'm':
			if (space_memory_parse(optarg, &cs->cs_memory, &errstr)
			    == -1)
				bad_value("invalid_memory", "-m", optarg, errstr,
				    "digits with an optional unit b, k, m or g, "
				    "6m to 1024g");
			break;
		case 'p':
			if (strcmp(optarg, "docker") != 0 &&
			    strcmp(optarg, "native") != 0)
				failed("invalid_place", "docker or native");
			strlcpy(cs->cs_place, optarg, sizeof(cs->cs_place));
			break;
		case 'n':
			if (!space_name_valid(optarg))
				failed("invalid_name", "1 to 64 bytes, no "
				    "control characters");
			strlcpy(cs->cs_name, optarg, sizeof(cs->cs_name));
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	takes_id = type != IMSG_CTL_CREATE && type != IMSG_CTL_LIST;
	if (argc != takes_id)
		usage();
	if (takes_id) {
		/* Checked here: a bad id never reaches spaced. */
		check_space_id(argv[0]);
		strlcpy(cs->cs_id, argv[0], sizeof(cs->cs_id));
	}
}

int
space_main(int argc, char *argv[])
{
	struct ctl_space	 cs;
	struct space_answer	 sa;
	struct ctl_req		 cr;

	memset(&cs, 0, sizeof(cs));
	memset(&sa, 0, sizeof(sa));
	memset(&cr, 0, sizeof(cr));
	sa.sa_type = env->sc_cmd->cc_type;
	space_args(argc, argv, sa.sa_type, &cs);
	sa.sa_id = cs.cs_id;
	sa.sa_infos = json_array();
	sa.sa_violations = env->sc_violations = json_array();
	sa.sa_removed = json_array();
	sa.sa_failed = json_array();
	ctl_req_set(&cr, sa.sa_type, &cs, sizeof(cs), &sa, space_data);
	cr.cr_fail = space_fail;
	/* Refused before anything is made: a folder without a repository. */
	if (code_dir != NULL)
		codein_create_prepare(&code_ci, code_dir);
	/* A create takes minutes: we wait as long as PROGRESS comes. */
	ctl_call(&cr);
	if (code_dir != NULL)
		code_settle(&sa);
	return space_show(&sa);
}
