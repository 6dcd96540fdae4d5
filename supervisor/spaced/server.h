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
 * The chain of the server inside a space (server.c), shared by the
 * operations that run it: create, list, show, start, stop and verify
 * (space.c), server and token (token.c).  Their r_state is one
 * struct sv_state.
 */

#ifndef SERVER_H
#define SERVER_H

enum { SV_OP_CREATE = 1, SV_OP_START, SV_OP_SERVER, SV_OP_TOKEN,
    SV_OP_PROBE };
enum { SV_TOOLS = 1, SV_PLACE, SV_TOKEN_READ, SV_ASK, SV_PAUSE,
    SV_ROLLBACK, SV_MOVE_DONE, SV_MOVE_UNDO, SV_SHARE, SV_LOOKUP };

struct start_run;
struct sv_state {
	int			 op;		/* SV_OP_* */
	int			 step;		/* SV_* */
	int			 none;		/* no agent: the place alone */
	int			 made;		/* a create made it: undo */
	int			 abandoned;	/* its client left: undo now */
	char			 id[SPACE_ID_SIZE];
	char			 token[JOURNAL_TOKEN_MAX + 1];
	struct space_info	 info;
	int			 have_info;
	struct timespec		 wait_start;
	struct timespec		 ask_start;	/* this attempt's */
	int			 attempts;
	int			 ask_ms;	/* this attempt's limit */
	char			 exec_code[CTL_CODE_MAX];
	int			 exec_exit;
	char			 code[CTL_CODE_MAX];
	char			 message[SPACE_DONE_MESSAGE_MAX];
	struct ctl_server	 req;
	struct stream_route	*stream;	/* curl's output */
	struct space_req	 sq;		/* the place's, after tools */
	uint32_t		 place;		/* its type */
	struct start_run	*run;		/* start: the run it shares */
	int			 moving;	/* a move to new tools */
	int			 violations;	/* verify: what the place named */
	int			 stop_waits;	/* stop: said it waits for a start */
	struct space_move	 move;
};
#define SV(r)	((struct sv_state *)(r)->r_state)

/* server.c */
void	 sv_begin(struct request *, const char *id, int op);
void	 sv_fail(struct request *, const char *code, const char *message);
void	 sv_token_read(struct request *);
void	 sv_info(struct request *, enum procid, struct imsg *);
void	 sv_record(struct request *, enum procid, struct imsg *);
void	 sv_done(struct request *, enum procid, struct imsg *);
void	 sv_rep(struct request *, enum procid, struct imsg *);
void	 sv_body(struct request *, enum procid, struct imsg *);
void	 sv_place_refused(struct request *, struct space_done *);
/* server_deaths.c: a create's or start's server that keeps dying */
void	 sv_deaths_base(struct request *);
int	 sv_deaths(struct request *, char *, size_t);
int	 sv_deaths_ask(const char *code);
int	 sv_deaths_stop(struct request *, const char *code, const char *);
void	 sv_undo(struct request *, const char *code, const char *,
	    uint32_t type);
void	 sv_deaths_undone(struct request *, const struct space_done *);

/*
 * startrun.c: calls of start for one space share one run (spec "New
 * tools at the next start"); kept until the last of them read its
 * answer.
 */
struct start_run {
	TAILQ_ENTRY(start_run)	 sr_entry;
	char			 sr_owner[SPACE_OWNER_SIZE];
	char			 sr_id[SPACE_ID_SIZE];
	uint32_t		 sr_leader;	/* request id; 0 once over */
	int			 sr_over;	/* answered: below */
	int			 sr_refs;	/* calls still to answer */
	struct space_done	 sr_done;	/* sd_code "" when it worked */
	struct space_info	 sr_info;
	int			 sr_have_info;
	uint64_t		 sr_deaths_base; /* restarts before it */
	int			 sr_deaths_known;
};
struct start_run *startrun_find(const char *owner, const char *id);
struct start_run *startrun_new(const char *owner, const char *id,
	    uint32_t leader);
/* Its leader still runs it (a leader that left gave no answer). */
int	 startrun_led(const struct start_run *);
void	 startrun_unref(struct start_run *);
/* The leader r's answer, for the calls that share its run. */
void	 startrun_close(struct request *, const char *code,
	    const char *message);

#endif /* SERVER_H */
