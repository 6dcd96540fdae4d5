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
 * Code out: the state of a review or apply, shared by codeout.c and
 * the review's records (codeout_rec.c).
 */

#ifndef CODEOUT_H
#define CODEOUT_H

enum review_step {
	RV_ORIGIN = 0,		/* no folder: the store says where from */
	RV_START,		/* the owner's spaced-git: the start */
	RV_QUARANTINE,		/* the start found; the quarantine READY? */
	RV_TRANSFER,		/* the two packs, the checks */
	RV_KEPT,		/* apply: the quarantine's record, the kept */
	RV_APPLY,		/* apply: the owner's ga_begin, the pack out */
	RV_LOOKUP,		/* the place: the caller's space? */
};

struct review_state {
	enum review_step	 step;
	char			 id[SPACE_ID_SIZE];
	char			 dir[GIT_DIR_MAX];
	uint32_t		 flags;
	int			 relaunched;
	int			 reuse;		/* the kept review serves */
	int			 qr_ready;	/* its quarantine is started */
	struct codeout_kept	 kept;
	struct git_snap		 snap;
	int			 have_snap;
	int			 pack_due, exec_due, qr_due;
	int			 exit;		/* the script's */
	char			 code[CTL_CODE_MAX];	/* the first failure */
	char			 message[SPACE_DONE_MESSAGE_MAX];
	char			 qcode[CTL_CODE_MAX];	/* the quarantine's */
	char			 qmessage[SPACE_DONE_MESSAGE_MAX];
	/* apply */
	int			 apply;
	uint32_t		 mode;
	char			 branch[GIT_BRANCH_MAX];
	char			 allow[APPLY_ALLOW_MAX];
	char			 tip[GIT_HEX_SIZE];
	uint32_t		 out_stream;
	int			 have_result;
	struct git_apply_result	 result;
	/* for the journal */
	uint32_t		 ncommits, npaths;
	char			 flagged[128];	/* reason names, commas */
};
struct git_review_rec;
void	review_send(struct request *, const struct git_review_rec *);
void	review_rec(struct request *, enum procid, struct imsg *);

#endif /* CODEOUT_H */
