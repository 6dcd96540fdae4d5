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
 * log_escape: what outside bytes become in a log line or on a terminal.
 * No byte that ends a line or starts a terminal sequence survives, the
 * printable rest stays as it was, and the escaped form reads back to
 * exactly the input.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "log.h"

static const char *
esc(const char *s)
{
	static char	 buf[LOG_ESCAPE_MAX];

	return log_escape(buf, sizeof(buf), s);
}

/* The inverse, for the round trip: \\, \n, \r, \t and \ooo. */
static size_t
unescape(const char *s, char *out)
{
	size_t	 n = 0;

	while (*s != '\0') {
		if (*s != '\\') {
			out[n++] = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case '\\': out[n++] = '\\'; s++; break;
		case 'n': out[n++] = '\n'; s++; break;
		case 'r': out[n++] = '\r'; s++; break;
		case 't': out[n++] = '\t'; s++; break;
		default:
			cr_assert(s[0] >= '0' && s[0] <= '3' && s[1] >= '0' &&
			    s[1] <= '7' && s[2] >= '0' && s[2] <= '7',
			    "a bad escape at \"%s\"", s);
			out[n++] = (char)((s[0] - '0') * 64 + (s[1] - '0') * 8 +
			    (s[2] - '0'));
			s += 3;
		}
	}
	return n;
}

Test(log_escape, printable_ascii_stays)
{
	cr_assert_str_eq(esc("spaced-git 12 for /home/a b/\"x\" ok~"),
	    "spaced-git 12 for /home/a b/\"x\" ok~");
	cr_assert_str_eq(esc(""), "");
}

Test(log_escape, a_newline_starts_no_line)
{
	cr_assert_str_eq(esc("/tmp/repo\nspaced[1]: root logged in"),
	    "/tmp/repo\\nspaced[1]: root logged in");
	cr_assert_str_eq(esc("a\rb\tc"), "a\\rb\\tc");
}

Test(log_escape, terminal_sequences_and_high_bytes)
{
	/* ESC [ 2 J clears a screen; 0x9b is CSI on an 8-bit terminal. */
	cr_assert_str_eq(esc("\033[2Jx"), "\\033[2Jx");
	cr_assert_str_eq(esc("\x9b" "1m"), "\\2331m");
	cr_assert_str_eq(esc("\x7f\x01"), "\\177\\001");
	cr_assert_str_eq(esc("caf\xc3\xa9"), "caf\\303\\251");
}

Test(log_escape, the_backslash_is_escaped_so_nothing_is_ambiguous)
{
	/* A name spelled "\n" must not read as a newline was escaped. */
	cr_assert_str_eq(esc("a\\nb"), "a\\\\nb");
}

Test(log_escape, no_control_byte_survives_and_it_reads_back)
{
	char	 in[256], back[256];
	const char *out;
	size_t	 i;

	for (i = 0; i < 255; i++)
		in[i] = (char)(i + 1);
	in[255] = '\0';
	out = esc(in);
	for (i = 0; out[i] != '\0'; i++)
		cr_assert(out[i] >= 0x20 && out[i] < 0x7f,
		    "byte %#x at %zu", (unsigned char)out[i], i);
	cr_assert_eq(unescape(out, back), 255);
	cr_assert(memcmp(back, in, 255) == 0);
}

Test(log_escape, truncates_whole_escapes_only)
{
	char	 buf[6];

	/* "ab\n" needs 5 bytes and the NUL: "ab\\n" fits, what follows not. */
	cr_assert_str_eq(log_escape(buf, sizeof(buf), "ab\ncd"), "ab\\nc");
	cr_assert_str_eq(log_escape(buf, sizeof(buf), "abcd\001"), "abcd");
	cr_assert_str_eq(log_escape(buf, 1, "abc"), "");
	cr_assert_eq(log_escape(buf, 0, "abc"), buf);
}

/* What log_warnx and log_relay write on stderr (debug mode), as a string. */
static void
logged(void (*emit)(void), char *out, size_t outlen)
{
	FILE	*f;
	int	 saved;
	size_t	 n;

	cr_assert_not_null(f = tmpfile());
	cr_assert_neq(saved = dup(STDERR_FILENO), -1);
	cr_assert_neq(dup2(fileno(f), STDERR_FILENO), -1);
	log_init(1, 0);
	log_procinit("test");
	emit();
	cr_assert_neq(dup2(saved, STDERR_FILENO), -1);
	close(saved);
	rewind(f);
	n = fread(out, 1, outlen - 1, f);
	out[n] = '\0';
	fclose(f);
}

static void
emit_warnx(void)
{
	log_warnx("folder %s", "/tmp/a\ntest[1]: forged \033[2J\\");
}

static void
emit_relay(void)
{
	log_relay("git", "git[2]: a\\nb \033[2J");
}

Test(log_escape, every_log_line_goes_out_escaped)
{
	char	 out[512];

	logged(emit_warnx, out, sizeof(out));
	cr_assert(strchr(out, '\n') == out + strlen(out) - 1,
	    "more than one line: \"%s\"", out);
	cr_assert(strstr(out, "folder /tmp/a\\ntest[1]: forged \\033[2J\\\\\n")
	    != NULL, "got \"%s\"", out);
}

Test(log_escape, a_relayed_line_keeps_its_own_escapes)
{
	char	 out[512];

	logged(emit_relay, out, sizeof(out));
	cr_assert(strstr(out, ": git: git[2]: a\\nb \\033[2J\n") != NULL,
	    "got \"%s\"", out);
}
