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
 * prompt and sessions: a turn of the agent from the host, over the
 * server's HTTP API (OpenCode's) through spacectl server's path.  The
 * prompt goes in with prompt_async; the session's messages are read
 * again every PROMPT_POLL_MS and what changed is printed: each tool
 * call's status, the text as it grows, at the end the final answer.
 * The answers are bytes from the space: parsed here, in the user's own
 * process, and escaped at a terminal.
 */

#include <sys/types.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "errors.h"
#include "labels.h"
#include "spacectl.h"
#include "spacectl_output.h"
#include "spacectl_turn.h"

#define PROMPT_POLL_MS		250
#define PROMPT_TIMEOUT_DEFAULT	600	/* seconds for the whole turn */
#define PROMPT_TEXT_MAX		(CTL_SERVER_BODY_MAX - 64)
#define PROMPT_SID_MAX		128

struct prompt {
	const char	*id;			/* the space */
	char		 idbuf[SPACE_ID_SIZE];
	char		 sid[PROMPT_SID_MAX];	/* the session */
	int		 mid_line;		/* text printed without its \n */
	struct turn	 turn;			/* what was told of it */
};

/* The server said no: with what, to which request. */
static __dead void
server_refused(unsigned int status, const char *method, const char *path)
{
	char	 msg[CTL_SERVER_PATH_MAX + 64];

	snprintf(msg, sizeof(msg), "the agent's server answered %u to %s %s",
	    status, method, path);
	request_failed("server_refused", msg);
}

/* A body the server sent, as JSON, or the command fails saying so. */
static json_t *
server_json(const char *id, const char *method, const char *path,
    const char *body, unsigned int want)
{
	json_t		*o;
	json_error_t	 err;
	uint8_t		*buf;
	size_t		 len;
	unsigned int	 status;

	status = server_call(id, method, path, body, &buf, &len);
	if (status != want) {
		free(buf);
		server_refused(status, method, path);
	}
	o = len == 0 ? json_null() : json_loadb((char *)buf, len, 0, &err);
	free(buf);
	if (o == NULL)
		request_failed(ERR_SERVER_UNREADABLE, "not JSON");
	return o;
}

/* -j: one object a line, out at once. */
static void
emit(json_t *o)
{
	if (o == NULL)
		failed("internal_error", "json");
	json_dumpf(o, stdout, JSON_COMPACT);
	putchar('\n');
	fflush(stdout);
	json_decref(o);
}

static void
say_tool(struct turn *tt, const char *tool, const char *status,
    const char *title)
{
	struct prompt	*t = tt->arg;

	if (env->sc_json) {
		emit(json_pack("{s:s, s:s, s:s, s:s}", "event", "tool",
		    "tool", tool, "status", status, "title", title));
		return;
	}
	if (t->mid_line) {
		fputc('\n', stderr);
		t->mid_line = 0;
	}
	fputs("tool ", stderr);
	out_outside(stderr, tool, strlen(tool), 0);
	fputs(": ", stderr);
	out_outside(stderr, status, strlen(status), 0);
	if (*title != '\0') {
		fputs(" (", stderr);
		out_outside(stderr, title, strlen(title), 0);
		fputc(')', stderr);
	}
	fputc('\n', stderr);
}

static void
say_text(struct turn *tt, const char *s, size_t len)
{
	struct prompt	*t = tt->arg;

	if (env->sc_json) {
		emit(json_pack("{s:s, s:s%}", "event", "text", "text", s, len));
		return;
	}
	out_outside(stdout, s, len, 1);
	fflush(stdout);
	t->mid_line = len > 0 && s[len - 1] != '\n';
}

/* The turn failed: why, by the status the model (or the window) gave. */
static __dead void
turn_failed(struct prompt *t, json_t *error)
{
	struct turn_why	 w;
	char		 why[512];

	turn_why(error, t->id, &w);
	if (env->sc_json) {
		emit(json_pack("{s:s, s:s, s:i, s:s, s:s}", "event", "error",
		    "error", w.code, "status", w.status, "message",
		    w.message != NULL ? w.message : "", "session", t->sid));
		exit(1);
	}
	if (t->mid_line)
		fputc('\n', stdout);
	snprintf(why, sizeof(why), "%s%s%d: %s", w.name != NULL ? w.name :
	    "error", w.status != 0 ? ", status " : "", w.status,
	    w.message != NULL ? w.message : "");
	fprintf(stderr, "spacectl: %s: ", w.code);
	out_outside(stderr, why, strlen(why), 0);
	fputc('\n', stderr);
	/* What to do, after the server's words, unless the window's said it. */
	if (w.advice[0] != '\0' && !w.own)
		fprintf(stderr, "spacectl: %s\n", w.advice);
	exit(1);
}

/*
 * The final answer: the last message's text.  Streamed already, it ends
 * its line; with -j it is one object of its own.
 */
static void
turn_answer(struct prompt *t, json_t *last)
{
	json_t		*parts = json_object_get(last, "parts"), *p;
	char		*all = NULL;
	size_t		 j, len = 0, n;
	const char	*s;

	for (j = 0; j < json_array_size(parts); j++) {
		p = json_array_get(parts, j);
		if (jstr(p, "type") == NULL || strcmp(jstr(p, "type"),
		    "text") != 0 || (s = jstr(p, "text")) == NULL)
			continue;
		n = strlen(s);
		if ((all = realloc(all, len + n + 1)) == NULL)
			failed("internal_error", "out of memory");
		memcpy(all + len, s, n);
		len += n;
	}
	if (env->sc_json)
		emit(json_pack("{s:s, s:s%, s:s}", "event", "answer", "text",
		    all != NULL ? all : "", len, "session", t->sid));
	else if (t->mid_line) {
		fputc('\n', stdout);
		t->mid_line = 0;
	}
	free(all);
}

/* One look at the session's messages; 1 when the turn is over. */
static int
turn_look(struct prompt *t)
{
	char		 path[CTL_SERVER_PATH_MAX];
	uint8_t		*buf;
	size_t		 len;
	unsigned int	 status;
	enum turn_state	 ts;

	snprintf(path, sizeof(path), "/session/%s/message", t->sid);
	if ((status = server_call(t->id, "GET", path, NULL, &buf, &len)) !=
	    200) {
		free(buf);
		server_refused(status, "GET", path);
	}
	ts = turn_take(&t->turn, (char *)buf, len);
	free(buf);
	switch (ts) {
	case TURN_GOING:
		return 0;
	case TURN_OVER:
		turn_answer(t, t->turn.last);
		return 1;
	case TURN_FAILED:
		turn_failed(t, t->turn.error);
	case TURN_UNREADABLE:
		break;
	}
	request_failed(ERR_SERVER_UNREADABLE, t->turn.full ? "the messages "
	    "name more parts than spacectl keeps" : "the messages are no list");
}

/* A new session of the server's own directory; its id into t->sid. */
static void
session_new(struct prompt *t)
{
	json_t		*o;

	o = server_json(t->id, "POST", "/session",
	    "{\"title\":\"spacectl prompt\"}", 200);
	if (prompt_sid_take(o, t->sid, sizeof(t->sid)) == -1)
		request_failed(ERR_SERVER_UNREADABLE, "no session id");
	json_decref(o);
}

/*
 * How many messages the session holds before the turn; one given with
 * -s that the server does not know is named, with where to look.
 */
static size_t
session_length(struct prompt *t)
{
	char		 path[CTL_SERVER_PATH_MAX], msg[PROMPT_SID_MAX + 96];
	uint8_t		*buf;
	size_t		 len, n;
	unsigned int	 status;
	json_t		*o;
	json_error_t	 err;

	snprintf(path, sizeof(path), "/session/%s/message", t->sid);
	status = server_call(t->id, "GET", path, NULL, &buf, &len);
	if (status == 404) {
		free(buf);
		snprintf(msg, sizeof(msg), "the agent's server has no session "
		    "%s (spacectl sessions %s lists them)", t->sid, t->id);
		request_failed("session_not_found", msg);
	}
	if (status != 200) {
		free(buf);
		server_refused(status, "GET", path);
	}
	o = json_loadb((char *)buf, len, 0, &err);
	free(buf);
	if (!json_is_array(o))
		request_failed(ERR_SERVER_UNREADABLE, "the messages are no list");
	n = json_array_size(o);
	json_decref(o);
	return n;
}

/* The prompt's text: the argument, or stdin (at most PROMPT_TEXT_MAX). */
static char *
prompt_text(int argc, char *argv[])
{
	static char	 buf[PROMPT_TEXT_MAX + 2];
	size_t		 len = 0;
	ssize_t		 n;

	if (argc > 0) {
		if (strlcpy(buf, argv[0], sizeof(buf)) > PROMPT_TEXT_MAX)
			failed(ERR_REQUEST_TOO_LARGE, "the prompt is too long");
		return buf;
	}
	while (len < sizeof(buf) - 1 &&
	    (n = read(STDIN_FILENO, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	if (len > PROMPT_TEXT_MAX)
		failed(ERR_REQUEST_TOO_LARGE, "the prompt is too long");
	buf[len] = '\0';
	if (len == 0)
		failed("empty_prompt", "no text on stdin");
	return buf;
}

static void
poll_wait(void)
{
	struct timespec	 ts = { 0, PROMPT_POLL_MS * 1000000L };

	while (nanosleep(&ts, &ts) == -1)
		;
}

/* prompt ID [-s SESSION] [-T seconds] [TEXT] */
int
prompt_main(int argc, char *argv[])
{
	struct prompt	 t;
	const char	*errstr, *text;
	char		 path[CTL_SERVER_PATH_MAX], *body;
	json_t		*o;
	time_t		 end;
	long long	 limit = PROMPT_TIMEOUT_DEFAULT;
	int		 ch;

	memset(&t, 0, sizeof(t));
	if (argc < 2)
		usage();
	take_space_id(t.idbuf, sizeof(t.idbuf), argv[1]);
	t.id = t.idbuf;
	argc--;
	argv++;
	argv[0] = (char *)(uintptr_t)env->sc_cmd->cc_name;	/* in getopt's messages */
	optind = 1;
	while ((ch = getopt(argc, argv, "s:T:")) != -1) {
		switch (ch) {
		case 's':
			if (strlcpy(t.sid, optarg, sizeof(t.sid)) >=
			    sizeof(t.sid) || optarg[0] == '\0' ||
			    strspn(optarg, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
			    strlen(optarg))
				failed("invalid_session", "not a session id");
			break;
		case 'T':
			limit = strtonum(optarg, 1, 86400, &errstr);
			if (errstr != NULL)
				bad_value("invalid_timeout", "-T", optarg, errstr,
				    "whole seconds, 1 to 86400");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage();
	text = prompt_text(argc, argv);
	if (turn_init(&t.turn) == -1)
		failed("internal_error", "out of memory");
	t.turn.arg = &t;
	t.turn.on_tool = say_tool;
	t.turn.on_text = say_text;
	env->sc_session = t.sid;	/* in -j's error line */
	if (t.sid[0] == '\0')
		session_new(&t);
	if (env->sc_json)
		emit(json_pack("{s:s, s:s}", "event", "session", "session",
		    t.sid));
	t.turn.base = session_length(&t);
	if ((o = json_pack("{s:[{s:s, s:s}]}", "parts", "type", "text",
	    "text", text)) == NULL ||
	    (body = json_dumps(o, JSON_COMPACT)) == NULL)
		failed("internal_error", "out of memory");
	json_decref(o);
	if (strlen(body) > CTL_SERVER_BODY_MAX)
		failed(ERR_REQUEST_TOO_LARGE, "the prompt is too long");
	snprintf(path, sizeof(path), "/session/%s/prompt_async", t.sid);
	o = server_json(t.id, "POST", path, body, 204);
	json_decref(o);
	free(body);
	end = time(NULL) + limit;
	while (!turn_look(&t)) {
		if (time(NULL) >= end) {
			if (t.mid_line)
				fputc('\n', stdout);
			request_failed(ERR_TIMEOUT, "the turn did not end in "
			    "time (-T)");
		}
		poll_wait();
	}
	turn_free(&t.turn);
	return 0;
}

/* sessions ID: the server's sessions, one a line (-j: the list). */
int
sessions_main(int argc, char *argv[])
{
	json_t		*o, *s, *out;
	const char	*title;
	char		 id[SPACE_ID_SIZE];
	size_t		 i;

	if (argc != 2)
		usage();
	take_space_id(id, sizeof(id), argv[1]);
	o = server_json(id, "GET", "/session", NULL, 200);
	if (!json_is_array(o))
		request_failed(ERR_SERVER_UNREADABLE, "sessions not a list");
	if ((out = json_array()) == NULL)
		failed("internal_error", "out of memory");
	json_array_foreach(o, i, s) {
		title = jstr(s, "title") != NULL ? jstr(s, "title") : "";
		if (jstr(s, "id") == NULL)
			continue;
		if (env->sc_json) {
			json_array_append_new(out, json_pack("{s:s, s:s, s:O}",
			    "id", jstr(s, "id"), "title", title, "time",
			    json_object_get(s, "time") ? json_object_get(s,
			    "time") : json_null()));
			continue;
		}
		out_outside(stdout, jstr(s, "id"), strlen(jstr(s, "id")), 0);
		fputc(' ', stdout);
		out_outside(stdout, title, strlen(title), 0);
		fputc('\n', stdout);
	}
	if (env->sc_json)
		out_json_checked(out);
	else
		json_decref(out);
	json_decref(o);
	return 0;
}
