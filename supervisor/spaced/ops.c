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
 * The operations of the control socket, one row each: its request
 * type, name, payload length, who may, deadline, how it starts, the
 * answers it takes, its stream's end, its abandon, its state's size.
 * The router checks everything a row says before any of it runs.
 */

#include <sys/types.h>

#include "spaced.h"

#define ROW(type, name, len, who, deadline, start, answers) \
	{ type, name, len, who, deadline, start, answers, NULL, NULL, NULL }
#define SPACE_ROW(type, name, deadline, start, answers) \
	{ type, name, sizeof(struct ctl_space), WHO_DOCKER, deadline, start, \
	    answers, NULL, NULL, &server_state_size }

const struct ctl_op ops_table[] = {
	{ IMSG_CTL_STATUS, "status", 0, WHO_ANYONE, 10, status_start,
	    status_answers, NULL, NULL, &status_state_size },
	ROW(IMSG_CTL_PRIVILEGES, "privileges", 0, WHO_ADMIN, 10,
	    privileges_start, NULL),
	ROW(IMSG_CTL_CHECK, "check", 0, WHO_ANYONE, 30, check_start,
	    check_answers),
	ROW(IMSG_CTL_VERBOSE, "verbose", sizeof(struct ctl_verbose),
	    WHO_ADMIN, 10, verbose_start, NULL),
	ROW(IMSG_CTL_PROBE, "probe", sizeof(struct probe_msg), WHO_ADMIN, 10,
	    probe_start, probe_answers),
	ROW(IMSG_CTL_PING, "ping", sizeof(struct ping_msg), WHO_ADMIN, 10,
	    ping_start, ping_answers),
	/* No deadline: it runs as long as bytes flow; progress says so. */
	{ IMSG_CTL_STREAM_TEST, "stream-test", sizeof(struct ctl_stream_test),
	    WHO_ADMIN, 0, stream_test_start, stream_test_answers,
	    stream_test_ended, NULL, &stream_test_state_size },
	/* Two containers, and the server inside ready; undone alone. */
	{ IMSG_CTL_CREATE, "create", sizeof(struct ctl_space), WHO_DOCKER,
	    300, space_start, create_answers, NULL, agent_abandon,
	    &server_state_size },
	SPACE_ROW(IMSG_CTL_LIST, "list", 60, space_start, list_answers),
	/* As long as the command runs: progress keeps the client waiting. */
	{ IMSG_CTL_EXEC, "exec", sizeof(struct ctl_exec), WHO_DOCKER, 0,
	    exec_start, exec_answers, NULL, NULL, &exec_state_size },
	ROW(IMSG_CTL_NETWORK, "network", sizeof(struct ctl_network),
	    WHO_DOCKER, 60, network_start, gk_answers),
	ROW(IMSG_CTL_GRANT, "grant", sizeof(struct ctl_grant), WHO_DOCKER, 60,
	    grant_start, gk_answers),
	/* 300 s: a flood's rotated log (50 MB at most) is read whole. */
	{ IMSG_CTL_JOURNAL, "journal", sizeof(struct ctl_journal), WHO_DOCKER,
	    300, journal_start, journal_answers, NULL, NULL,
	    &journal_state_size },
	/* Anyone, for a repository of their own (spaced-launch checks). */
	{ IMSG_CTL_FILES, "files", sizeof(struct ctl_git), WHO_ANYONE, 60,
	    git_files_start, git_answers, NULL, NULL, &git_state_size },
	{ IMSG_CTL_LIMITS, "limits", sizeof(struct ctl_git), WHO_ANYONE, 60,
	    git_files_start, git_answers, NULL, NULL, &git_state_size },
	/* As long as the transfer: progress keeps the client waiting. */
	{ IMSG_CTL_CODE_IN, "code-in", sizeof(struct ctl_codein), WHO_DOCKER,
	    0, codein_start, codein_answers, NULL, codein_abandon,
	    &codein_state_size },
	{ IMSG_CTL_HISTORY, "history", sizeof(struct ctl_codein), WHO_DOCKER,
	    0, codein_start, codein_answers, NULL, codein_abandon,
	    &codein_state_size },
	SPACE_ROW(IMSG_CTL_SHOW, "show", 60, space_start, list_answers),
	SPACE_ROW(IMSG_CTL_VERIFY, "verify", 60, space_start, space_answers),
	/* A stop may wait for a start under way (180 s), then its own 60. */
	SPACE_ROW(IMSG_CTL_STOP, "stop", 240, space_start, space_answers),
	SPACE_ROW(IMSG_CTL_START, "start", 180, space_start, start_answers),
	/* One request to the server inside; the token, for its owner. */
	{ IMSG_CTL_SERVER, "server", sizeof(struct ctl_server), WHO_DOCKER,
	    60, server_start, server_answers, NULL, NULL, &server_state_size },
	SPACE_ROW(IMSG_CTL_TOKEN, "token", 30, token_start, token_answers),
	{ IMSG_CTL_REMOVE, "remove", sizeof(struct ctl_space), WHO_DOCKER,
	    120, remove_start, remove_answers, NULL, NULL, &remove_state_size },
	/* Each volume's marker is read by a one-shot: a few seconds each. */
	ROW(IMSG_CTL_TOOLS, "tools", sizeof(struct ctl_tools), WHO_DOCKER, 300,
	    tools_list_start, tools_list_answers),
	/* A fill has 30 minutes of its own (spec "The filler"). */
	ROW(IMSG_CTL_TOOLS_FILL, "tools-fill", sizeof(struct ctl_tools),
	    WHO_DOCKER, 32 * 60, tools_fill_start, tools_fill_answers),
	/* The agent's own screen: an exec -t, as long as it runs. */
	{ IMSG_CTL_ATTACH, "attach", sizeof(struct ctl_exec), WHO_DOCKER, 0,
	    attach_start, exec_answers, NULL, NULL, &exec_state_size },
	/* -f: as long as the client follows; progress keeps it waiting. */
	ROW(IMSG_CTL_EVENTS, "events", sizeof(struct ctl_events_req),
	    WHO_ANYONE, 0, events_start, events_answers),
	/* Code out: as long as the script and the checks (their own caps). */
	{ IMSG_CTL_REVIEW, "review", sizeof(struct ctl_review), WHO_DOCKER,
	    0, review_start, review_answers, NULL, NULL, &review_state_size },
	{ IMSG_CTL_APPLY, "apply", sizeof(struct ctl_apply), WHO_DOCKER,
	    0, apply_start, review_answers, NULL, NULL, &review_state_size },
};
const size_t ops_count = sizeof(ops_table) / sizeof(ops_table[0]);
