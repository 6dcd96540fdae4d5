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
 * Sanitized builds only (make SANITIZE=1): the ASan runtime's defaults.
 * LeakSanitizer stops the world with ptrace at a process's exit, which
 * every seccomp filter here kills (SIGSYS), and spaced starts each
 * process with an empty environment, where no ASAN_OPTIONS reaches it.
 * So a sanitized program checks memory and UB and leaves leaks to the
 * unit tests, whose runner asks for them (ASAN_OPTIONS overrides this).
 * A report is not symbolized: the runtime would start llvm-symbolizer,
 * which no filter here lets a process do; its frames are module and
 * offset, for addr2line afterwards.  Nor does the runtime set the core
 * limit at its start (disable_coredump): spaced-git starts under
 * spaced-launch's filter, which lets no process raise or set a limit.
 */

#ifdef __SANITIZE_ADDRESS__
const char	*__asan_default_options(void);

const char *
__asan_default_options(void)
{
	return "detect_leaks=0:symbolize=0:disable_coredump=0";
}
#else
typedef int	 san_default_unused;	/* ISO C wants a declaration */
#endif
