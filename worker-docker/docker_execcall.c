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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "relay_exec.h"
#include "docker_execcall.h"
#include "docker_harden.h"

json_t *
docker_exec_body(json_t *argv, const char *user, json_t *env)
{
	json_t	*o;

	if (argv == NULL) {
		json_decref(env);
		return NULL;
	}
	o = json_pack("{s:b, s:b, s:b, s:b, s:o, s:s, s:b}",
	    "AttachStdin", 1, "AttachStdout", 1, "AttachStderr", 1,
	    "Tty", 0, "Cmd", argv, "User", user, "Privileged", 0);
	if (o != NULL && env != NULL && json_object_set_new(o, "Env", env) ==
	    -1) {
		json_decref(o);
		return NULL;
	}
	if (o == NULL)
		json_decref(env);
	return o;
}

int
docker_exec_created(const struct docker_parser *p, char *id, size_t len)
{
	json_t		*o;
	const char	*v;
	int		 rv = -1;

	o = harden_json_parse(p->dp_body, p->dp_body_len);
	v = json_string_value(json_object_get(o, "Id"));
	if (p->dp_status == 201 && v != NULL && v[0] != '\0' &&
	    strlen(v) < EXEC_ID_MAX && strlen(v) < len &&
	    strspn(v, "0123456789abcdef") == strlen(v)) {
		strlcpy(id, v, len);
		rv = 0;
	}
	json_decref(o);
	return rv;
}

/*
 * The engine marks an exec Running before it starts its process and
 * gives it a Pid once started; a start that failed is neither by the
 * time the engine writes why on the stream.
 */
int
docker_exec_started(const struct docker_parser *p)
{
	json_t	*o, *pid;
	int	 rv = -1;

	if (p->dp_status != 200 ||
	    (o = harden_json_parse(p->dp_body, p->dp_body_len)) == NULL)
		return -1;
	pid = json_object_get(o, "Pid");
	if (json_is_true(json_object_get(o, "Running")) ||
	    (json_is_integer(pid) && json_integer_value(pid) != 0))
		rv = 1;
	else if (json_is_integer(pid))
		rv = 0;
	json_decref(o);
	return rv;
}

/* 1 when the engine never started the exec's process (its Pid is 0). */
int
docker_exec_never_ran(const struct docker_parser *p)
{
	return docker_exec_started(p) == 0;
}

int
docker_exec_exited(const struct docker_parser *p, int *code)
{
	json_t	*o, *ec;
	int	 rv = -1;

	if (p->dp_status != 200)
		return -1;
	if ((o = harden_json_parse(p->dp_body, p->dp_body_len)) == NULL)
		return -1;
	ec = json_object_get(o, "ExitCode");
	if (json_is_true(json_object_get(o, "Running")))
		rv = 0;
	else if (json_is_integer(ec)) {
		*code = (int)json_integer_value(ec);
		rv = 1;
	}
	json_decref(o);
	return rv;
}

/*
 * The kill, run by the space's own /bin/sh as the space's user in its
 * pid namespace: what it finds and signals is only what that user could
 * signal there anyway, so a process that forged the mark gets only
 * itself and what it started ended.  What is the command's: every
 * process with the mark in its environment (one grep over them all),
 * every process of the session of the command's first process (parent
 * 0: the engine started it from outside; leading its session, the
 * runtime's setsid; marked), and every descendant of those by the
 * parent chain.  Where the space runs our relay the first process is
 * its subreaper (docker_exec_wraps): what the command left while it ran
 * is its child, a setsid, a double fork and a cleared environment at
 * once included, so the chain finds it; the mark and the session are
 * the fallback (a space of an older relay).  Found in one walk over
 * /proc, all before any is signalled; the first process is stopped, not
 * killed, until a walk finds nothing else: stopped, a subreaper still
 * adopts what a killed parent leaves, and cannot exit and hand it to
 * pid 1.  It is stopped before any other is killed, whatever the order
 * of the walk (by name: 1003 before 997): a subreaper that saw its
 * command die first would be gone.  The rest is SIGKILLed, walk after
 * walk until one ends none (a fork meanwhile); then the first.  Its
 * sets are variables named by pid (has, put; m: marked, l: leaders, h:
 * held, a: all), one lookup a process rather than a scan, so hundreds of
 * processes cost a walk, one grep and no fork each.  Exit 3: none found.
 */
static const char exec_kill_script[] =
	"m=\"" EXEC_MARK_VAR "=$1\" r=0 held=\n"
	"has() { eval \"[ -n \\\"\\${$1_$2:-}\\\" ]\"; }\n"
	"put() { eval \"$1_$2=1\"; }\n"
	"pass() {\n"
	"  while [ $# -ge 3 ]; do\n"
	"    has a$r $1 || ! { has m$r $1 || has l $3 || has a$r $2; } ||\n"
	"      { put a$r $1; all=\"$all $1\" grow=1; }\n"
	"    shift 3\n"
	"  done\n"
	"}\n"
	"while [ $r -lt 10 ]; do\n"
	"  r=$((r + 1)) tab= all= grow=1 left=\n"
	"  for f in $(grep -lzxsF -- \"$m\" /proc/[0-9]*/environ); do\n"
	"    f=${f#/proc/} && put m$r ${f%/environ}\n"
	"  done\n"
	"  for d in /proc/[0-9]*; do\n"
	"    read -r s <\"$d/stat\" 2>/dev/null || continue\n"
	"    s=${s##*) }; set -- $s; p=${d#/proc/}\n"
	"    [ \"$1\" = Z ] || [ $p = 1 ] || [ $p = $$ ] && continue\n"
	"    tab=\"$tab $p $2 $4\"\n"
	"    [ $r = 1 ] && [ \"$2\" = 0 ] && [ \"$4\" = $p ] &&\n"
	"      has m1 $p && put l $p\n"
	"  done\n"
	"  while [ -n \"$grow\" ]; do grow=; pass $tab; done\n"
	"  [ -n \"$all\" ] || [ $r != 1 ] || exit " "3" "\n"
	"  for p in $all; do\n"
	"    has l $p && ! has h $p || continue\n"
	"    kill -STOP $p 2>/dev/null && { put h $p; held=\"$held $p\"; }\n"
	"  done\n"
	"  for p in $all; do\n"
	"    has l $p || ! kill -KILL $p 2>/dev/null || left=1\n"
	"  done\n"
	"  [ -n \"$left\" ] || break\n"
	"done\n"
	"for p in $held; do kill -KILL $p 2>/dev/null; done\n"
	"exit 0\n";

/*
 * 1 when the space runs the relay of key (its runtime mount is that
 * volume), whose exec mode this worker's spaced knows.  A space made
 * with an older relay runs its commands bare: the kill's fallback.
 */
int
docker_exec_wraps(const json_t *inspect, const char *key)
{
	const json_t	*m;
	const char	*dst, *name, *type;
	char		 want[SPACE_RESOURCE_MAX];
	size_t		 i;

	if (runtime_volume_name(want, sizeof(want), key) == -1)
		return 0;
	json_array_foreach(json_object_get(inspect, "Mounts"), i, m) {
		dst = json_string_value(json_object_get(m, "Destination"));
		name = json_string_value(json_object_get(m, "Name"));
		type = json_string_value(json_object_get(m, "Type"));
		if (dst != NULL && name != NULL && type != NULL &&
		    strcmp(dst, HARDEN_RUNTIME_DIR) == 0 &&
		    strcmp(type, "volume") == 0 && strcmp(name, want) == 0)
			return 1;
	}
	return 0;
}

/* The command under the relay's subreaper (relay_exec.h); argv taken. */
json_t *
docker_exec_wrap(json_t *argv)
{
	json_t	*w = NULL;

	if (argv != NULL && (w = json_pack("[s, s, s]", HARDEN_RELAY,
	    RELAY_EXEC_FLAG, "--")) != NULL &&
	    json_array_extend(w, argv) == 0) {
		json_decref(argv);
		return w;
	}
	json_decref(w);
	json_decref(argv);
	return NULL;
}

/* A mark of its own for each exec (hex; unguessable, not secret). */
void
docker_exec_mark(char *mark, size_t len)
{
	uint8_t	 b[EXEC_MARK_LEN / 2];
	size_t	 i;

	arc4random_buf(b, sizeof(b));
	for (i = 0; i < sizeof(b) && 2 * i + 2 < len; i++)
		snprintf(mark + 2 * i, 3, "%02x", b[i]);
}

json_t *
docker_exec_mark_env(const char *mark)
{
	char	 var[sizeof(EXEC_MARK_VAR) + EXEC_MARK_LEN + 1];

	snprintf(var, sizeof(var), "%s=%s", EXEC_MARK_VAR, mark);
	return json_pack("[s]", var);
}

json_t *
docker_exec_kill_body(const char *user, const char *mark)
{
	return docker_exec_body(json_pack("[s, s, s, s, s]", "/bin/sh", "-c",
	    exec_kill_script, "sh", mark), user, NULL);
}
