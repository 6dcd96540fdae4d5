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

#ifndef SPACED_AGENT_H
#define SPACED_AGENT_H

/*
 * Agent profiles (spaced.conf(5) "agent"): fixed-width, so a profile
 * goes to a worker as one message and another agent is configuration,
 * never code.  Pure.
 */

#include <stddef.h>
#include <stdint.h>

#define AGENT_NAME_MAX		31	/* [a-z][a-z0-9-]* */
#define AGENT_PROFILES_MAX	4
#define AGENT_PACKAGES_MAX	8
#define AGENT_BINS_MAX		4
#define AGENT_ARGS_MAX		8	/* words after a binary */
#define AGENT_SERVE_MAX		16	/* words of the serve command */
#define AGENT_ATTACH_MAX	8	/* words of the attach command */
#define AGENT_WORD_MAX		127	/* one word of a command */
#define AGENT_TARBALL_MAX	255	/* absolute path of a packed tarball */
#define AGENT_SCRIPT_MAX	127	/* post-install script, in its package */
#define AGENT_METHOD_MAX	15
#define AGENT_HTTP_PATH_MAX	127
#define AGENT_FIELD_MAX		63	/* the ready answer's JSON field */
#define AGENT_ENV_MAX		63	/* an environment variable's name */
#define AGENT_USER_MAX		63	/* basic-auth user name */
#define AGENT_TEMPLATE_MAX	1023	/* the model setting's value */
#define AGENT_REVISION_MAX	31
#define AGENT_ENVS_MAX		4	/* fixed variables of the server */
#define AGENT_ENV_ENTRY_MAX	95	/* "NAME=value" */
#define NPM_NAME_MAX		214	/* npm's own limit */
#define NPM_VERSION_MAX		63
#define SHA256_HEX_LEN		64

/* One npm package at an exact version, from the registry or packed. */
struct agent_package {
	char		 ap_name[NPM_NAME_MAX + 1];
	char		 ap_version[NPM_VERSION_MAX + 1];
	/* packed: the local tarball ("" for the registry) and its hash */
	char		 ap_tarball[AGENT_TARBALL_MAX + 1];
	char		 ap_sha256[SHA256_HEX_LEN + 1];	/* "" until read */
	uint64_t	 ap_size;
};

/* A program the fill must leave in node_modules/.bin, and its check. */
struct agent_bin {
	char		 ab_name[AGENT_WORD_MAX + 1];
	uint32_t	 ab_nargs;	/* 0: it must exist; else it must run */
	char		 ab_args[AGENT_ARGS_MAX][AGENT_WORD_MAX + 1];
};

struct agent_profile {
	char		 ag_name[AGENT_NAME_MAX + 1];
	uint32_t	 ag_npackages;
	struct agent_package ag_packages[AGENT_PACKAGES_MAX];
	/* the one install script the fill runs: node <script> in <package> */
	char		 ag_post_package[NPM_NAME_MAX + 1];	/* "" none */
	char		 ag_post_script[AGENT_SCRIPT_MAX + 1];
	uint32_t	 ag_nbins;
	struct agent_bin ag_bins[AGENT_BINS_MAX];
	/* the server: argv ("%p" in a word is the port), on loopback */
	uint32_t	 ag_nserve;
	char		 ag_serve[AGENT_SERVE_MAX][AGENT_WORD_MAX + 1];
	uint16_t	 ag_port;
	char		 ag_password_env[AGENT_ENV_MAX + 1];	/* token */
	char		 ag_auth_user[AGENT_USER_MAX + 1];	/* "" none */
	/* readiness: this request, answered with this status and field */
	char		 ag_ready_method[AGENT_METHOD_MAX + 1];
	char		 ag_ready_path[AGENT_HTTP_PATH_MAX + 1];
	uint16_t	 ag_ready_status;
	char		 ag_ready_field[AGENT_FIELD_MAX + 1];	/* "" none */
	uint16_t	 ag_ready_wait;	/* seconds no attempt begins after */
	/* a model through the window: VAR=template, "%u" the base URL */
	char		 ag_model_env[AGENT_ENV_MAX + 1];	/* "" none */
	char		 ag_model_template[AGENT_TEMPLATE_MAX + 1];
	/* fixed variables for the server, "NAME=value", value a word */
	uint32_t	 ag_nenv;
	char		 ag_env[AGENT_ENVS_MAX][AGENT_ENV_ENTRY_MAX + 1];
	char		 ag_revision[AGENT_REVISION_MAX + 1];	/* "" none */
	/* the agent's own screen, run in a terminal inside; 0 words: none */
	uint32_t	 ag_nattach;
	char		 ag_attach[AGENT_ATTACH_MAX][AGENT_WORD_MAX + 1];
};

/*
 * The default profile: OpenCode's headless server from the npm package
 * opencode-ai at an exact version, basic auth as user "opencode" with
 * the password in OPENCODE_SERVER_PASSWORD, ready when GET
 * /global/health answers 200 with {"healthy": true}.
 */
#define AGENT_DEFAULT_NAME	"opencode"
#define AGENT_OPENCODE_PACKAGE	"opencode-ai"
#define AGENT_OPENCODE_VERSION	"1.18.33"
#define AGENT_DEFAULT_PORT	27600
#define AGENT_OPENCODE_MODEL_TEMPLATE					\
	"{\"$schema\":\"https://opencode.ai/config.json\","		\
	"\"provider\":{\"spaced\":{\"npm\":\"@ai-sdk/openai-compatible\","	\
	"\"name\":\"spaced\",\"options\":{\"baseURL\":\"%u/v1\"},"	\
	"\"models\":{\"default\":{\"name\":\"default\"}}}},"		\
	"\"enabled_providers\":[\"spaced\"],\"model\":\"spaced/default\","	\
	"\"small_model\":\"spaced/default\",\"permission\":{\"*\":\"allow\"},"	\
	"\"autoupdate\":false,\"share\":\"disabled\"}"
#define AGENT_READY_WAIT	120	/* the spec's bound */
#define AGENT_READY_WAIT_MAX	600
/* The default agent "none": an idle space, no tools volume, no server. */
#define AGENT_NONE		"none"
void	 agent_profile_default(struct agent_profile *);

/* Each returns 1 when the value is acceptable, else 0. */
int	 agent_name_valid(const char *);
/* An npm package name: lowercase, optional @scope/, at most 214. */
int	 npm_name_valid(const char *);
/* An exact semver: no range, tag, URL, "v" or leading zero. */
int	 npm_version_valid(const char *);
/* A word the space's /bin/sh line may hold unquoted. */
int	 agent_word_valid(const char *);
/* Each "/"-separated part non-empty and neither "." nor "..". */
int	 path_parts_plain(const char *);
/* A relative path inside a package: no "..", no leading "/". */
int	 agent_script_valid(const char *);
int	 agent_env_valid(const char *);		/* [A-Z_][A-Z0-9_]* */
int	 agent_method_valid(const char *);	/* [A-Z]+ */
int	 agent_http_path_valid(const char *);	/* "/" then URL chars */
int	 agent_field_valid(const char *);	/* [A-Za-z0-9_.-]+ */
int	 agent_revision_valid(const char *);
/* "NAME=value": a variable name, then a word (agent_word_valid). */
int	 agent_env_entry_valid(const char *);
int	 agent_env_secret(const char *);
/* Printable ASCII with exactly one "%u" and no other "%". */
int	 agent_template_valid(const char *);

const char *agent_profile_check(const struct agent_profile *);

#endif /* SPACED_AGENT_H */
