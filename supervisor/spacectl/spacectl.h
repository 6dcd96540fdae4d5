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

#ifndef SPACED_SPACECTL_H
#define SPACED_SPACECTL_H

/*
 * spacectl's files call downwards only: spacectl.c (the command table)
 * calls the commands, which call spacectl_call.c (the request loop),
 * spacectl_help.c (usage and help, from the table) and spacectl_output.c
 * (every other line printed, and the environment).
 * The layout: docs/notes/spacectl-commands.md.
 */

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "imsg.h"
#include "log.h"	/* __dead */
#include "place_proto.h"	/* struct space_done */

#define SPACECTL_EXEC_FAILED	125	/* exec: spaced or the place failed */
#define SPACECTL_USAGE		64	/* EX_USAGE: a usage error */

struct json_t;

/* How a failure looks with -j: a command's row says which. */
enum ctl_fail_style {
	FAIL_TEXT,		/* always the text on stderr */
	FAIL_JSON,		/* {"error", "message"} on stdout */
	FAIL_SPACE,		/* that, with the space's "details" */
	FAIL_EVENT,		/* one {"event": "error"} line (prompt) */
};

/* One row a command: dispatch, usage and the list of commands. */
struct ctl_cmd {
	const char		*cc_name;
	const char		*cc_args;	/* usage, after the name */
	int			 cc_list;	/* how the usage list joins it */
	int			 cc_group;	/* usage lines shown together */
	enum ctl_fail_style	 cc_fail;
	uint32_t		 cc_type;	/* the request, if one */
	int			(*cc_main)(int, char *[]);
	const char		*cc_help;	/* one line for help; NULL: none */
};
#define USAGE_LINE	0	/* starts a line of the usage list */
#define USAGE_NEXT	1	/* " | " after the previous command */
#define USAGE_ALIAS	2	/* "|": shares the next one's arguments */

struct spacectl {
	int			 sc_json;	/* -j */
	const char		*sc_socket;
	char			 sc_sockbuf[256];
	const struct ctl_cmd	*sc_cmds;	/* the table, for usage */
	size_t			 sc_ncmds;
	const struct ctl_cmd	*sc_cmd;	/* the command running */
	struct json_t		*sc_violations;	/* a space failure's details */
	int			 sc_stdin_flags; /* exec: restored at exit */
	const char		*sc_session;	/* prompt: in its error line */
};
extern struct spacectl	*env;

/*
 * One request and its answer (spacectl_call.c).  The loop checks the
 * peer and the FAIL; each callback reads its records with their length
 * checked.  NULL callbacks: that message is refused (stream, data), or
 * the default is used (fail: request_failed, the rest: nothing).
 */
struct ctl_req {
	uint32_t		 cr_type;
	const void		*cr_payload;
	size_t			 cr_len;
	void			*cr_arg;
	void			(*cr_data)(struct ctl_req *, struct imsg *);
	void			(*cr_progress)(struct ctl_req *, struct imsg *);
	void			(*cr_stream)(struct ctl_req *, struct imsg *);
	void			(*cr_fail)(struct ctl_req *, const char *);
	/* exec: a second fd polled for input, when it returns one */
	int			(*cr_input_fd)(struct ctl_req *);
	void			(*cr_input)(struct ctl_req *);
	/* exec -t: before each wait, and the signals that wait unblocks */
	void			(*cr_tick)(struct ctl_req *);
	const sigset_t		*cr_sigmask;
	int			 cr_nonblock;	/* written on POLLOUT */
	int			 cr_patience;	/* silent waits before giving up */
	int			 cr_fd;
	struct imsgbuf		 cr_ibuf;
	struct space_done	 cr_done;
	int			 cr_have_done;
	int			 cr_finished;	/* END or FAIL */
};

int		 connect_socket(const char *);
void		 ctl_send(struct ctl_req *, int);
void		 ctl_wait(struct ctl_req *);
void		 ctl_call(struct ctl_req *);
/* What a request sends and who takes its data (the rest stays as it is). */
void		 ctl_req_set(struct ctl_req *, uint32_t type, const void *,
		    size_t, void *arg,
		    void (*data)(struct ctl_req *, struct imsg *));
int		 ctl_take_done(struct ctl_req *, struct imsg *);
void		 ctl_read(struct imsg *, void *, size_t);

/* The commands, each in its file; they return the exit status. */
int		 status_main(int, char *[]);
int		 privileges_main(int, char *[]);
int		 check_main(int, char *[]);
int		 probe_main(int, char *[]);
int		 ping_main(int, char *[]);
int		 stream_test_main(int, char *[]);
int		 verbose_main(int, char *[]);
int		 space_main(int, char *[]);
int		 exec_main(int, char *[]);
int		 network_main(int, char *[]);
int		 grant_main(int, char *[]);
int		 journal_main(int, char *[]);
int		 files_main(int, char *[]);
int		 limits_main(int, char *[]);
int		 codein_main(int, char *[]);
int		 history_main(int, char *[]);
int		 server_main(int, char *[]);
int		 token_main(int, char *[]);
int		 tools_main(int, char *[]);
int		 help_main(int, char *[]);
int		 attach_main(int, char *[]);
int		 prompt_main(int, char *[]);
int		 sessions_main(int, char *[]);
int		 events_main(int, char *[]);
int		 review_main(int, char *[]);
int		 apply_main(int, char *[]);
struct ctl_codein;
void		 codein_create_prepare(struct ctl_codein *, const char *);
void		 codein_create_begin(struct ctl_codein *, const char *, int);
int		 codein_create_wait(void);
void		 codein_create_abandon(void);
unsigned int	 server_call(const char *, const char *, const char *,
		    const char *, uint8_t **, size_t *);

/* exec -t's local terminal (spacectl_tty.c). */
void		 tty_start(int);
void		 tty_stop(void);
void		 tty_size(uint16_t *, uint16_t *);
int		 tty_resized(void);
void		 tty_job(void);
int		 tty_read_background(void);
int		 tty_input_held(void);
const sigset_t	*tty_poll_mask(void);

#endif /* SPACED_SPACECTL_H */
