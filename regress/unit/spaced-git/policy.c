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
 * worker-git/spaced-git/tree_policy.c: each disguise of .git, each way
 * out of the tree, each reason a person must allow, named; ordinary
 * names (.github, .gitignore, a Unicode name) pass, the controls; and
 * libgit2's own reading of .gitmodules and .gitattributes as an oracle.
 */

#include <criterion/criterion.h>

#include <git2.h>
#include <git2/sys/path.h>
#include <string.h>

#include "tree_policy.h"

static struct policy_caps	 caps;

static void
setup(void)
{
	policy_caps_default(&caps);
	git_libgit2_init();
}

static void
teardown(void)
{
	git_libgit2_shutdown();
}

TestSuite(policy, .init = setup, .fini = teardown);

static uint32_t
check(const char *path, uint32_t mode, uint32_t old_mode, const char *data)
{
	struct policy_entry	 pe;

	memset(&pe, 0, sizeof(pe));
	pe.pe_path = path;
	pe.pe_path_len = strlen(path);
	pe.pe_mode = mode;
	pe.pe_old_mode = old_mode;
	pe.pe_data = data;
	pe.pe_data_len = data != NULL ? strlen(data) : 0;
	pe.pe_size = pe.pe_data_len;
	return policy_check_entry(&caps, &pe);
}

static uint32_t
file(const char *path)
{
	return check(path, POLICY_MODE_FILE, 0, "x\n");
}

Test(policy, ordinary_names_pass)
{
	static const char *const ok[] = {
		"README", "src/main.c", ".github/workflows/ci.yml",
		".gitignore", ".git-blame-ignore-revs", "dir with space/f g",
		"\xc3\xbc" "n\xc3\xaf" "code.txt", "a/.gitx", "gitx", "git~",
		"git~a", "x.git", "a/b/c/d/e", "..a", "a..", "...x",
		"sub/.gitmodules", "git", "GIT", "a\\b",
	};
	size_t	 i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		cr_expect_eq(file(ok[i]), 0, "%s: %#x", ok[i], file(ok[i]));
}

Test(policy, dotgit_in_every_disguise)
{
	static const char *const bad[] = {
		".git", ".GIT", ".Git", "a/.git", ".git/config",
		"a/b/.GiT/hooks/pre-commit", ".git.", ".git..", ".git ",
		".git. . ", ".git::$INDEX_ALLOCATION", ".git:x",
		"GIT~1", "git~1", "a/Git~1/config", "git~2", "git~1 .",
		".g\xe2\x80\x8cit", "\xe2\x80\x8e.git", ".git\xef\xbb\xbf",
		".gi\xe2\x81\xaat", ".\xe2\x80\xaeGIT", "a\\.git", ".git\\x",
		"x\\GIT~1\\hooks",
	};
	size_t	 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect(file(bad[i]) & POLICY_DOTGIT, "%s passed", bad[i]);
}

Test(policy, dotdot_and_absolute)
{
	cr_expect(file("..") & POLICY_DOTDOT);
	cr_expect(file("a/../b") & POLICY_DOTDOT);
	cr_expect(file("a/.") & POLICY_DOTDOT);
	cr_expect(file(". .") & POLICY_DOTDOT);
	cr_expect(file("..\\x") & POLICY_DOTDOT);
	cr_expect(file("a/.. ") & POLICY_DOTDOT);
	cr_expect(file("/etc/passwd") & POLICY_ABSOLUTE);
	cr_expect(file("a//b") & POLICY_BAD_NAME);
	cr_expect(file("a/") & POLICY_BAD_NAME);
	cr_expect(file("") & POLICY_BAD_NAME);
}

Test(policy, symlinks)
{
	cr_expect_eq(check("l", POLICY_MODE_LINK, 0, "target"), 0);
	cr_expect_eq(check("a/l", POLICY_MODE_LINK, 0, "../b/c"), 0);
	cr_expect_eq(check("a/b/l", POLICY_MODE_LINK, 0, "../../c"), 0);
	cr_expect_eq(check("l", POLICY_MODE_LINK, 0, "./x/./y"), 0);
	cr_expect(check("l", POLICY_MODE_LINK, 0, "..") &
	    POLICY_SYMLINK_ESCAPE);
	cr_expect(check("a/l", POLICY_MODE_LINK, 0, "../..") &
	    POLICY_SYMLINK_ESCAPE);
	cr_expect(check("l", POLICY_MODE_LINK, 0, "/etc/passwd") &
	    POLICY_SYMLINK_ESCAPE);
	cr_expect(check("l", POLICY_MODE_LINK, 0, "C:\\x") &
	    POLICY_SYMLINK_ESCAPE);
	cr_expect(check("l", POLICY_MODE_LINK, 0, "\\\\host\\x") &
	    POLICY_SYMLINK_ESCAPE);
	cr_expect(check("l", POLICY_MODE_LINK, 0, "") & POLICY_SYMLINK_ESCAPE);
	cr_expect(check("l", POLICY_MODE_LINK, 0, NULL) &
	    POLICY_SYMLINK_ESCAPE);
	/* x -> . then y -> x/..: lexically home, really the parent. */
	cr_expect(check("y", POLICY_MODE_LINK, 0, "x/..") &
	    POLICY_SYMLINK_ESCAPE);
	/* a/x -> .. (the top), then a/y -> x/../..: lexically inside. */
	cr_expect(check("a/y", POLICY_MODE_LINK, 0, "x/../..") &
	    POLICY_SYMLINK_ESCAPE);
	cr_expect_eq(check("a/x", POLICY_MODE_LINK, 0, ".."), 0);
	cr_expect_eq(check("a/b/l", POLICY_MODE_LINK, 0, "../../c/d/e"), 0);
	cr_expect(check("a/l", POLICY_MODE_LINK, 0, "..\\..") &
	    POLICY_SYMLINK_ESCAPE);
	cr_expect(check("l", POLICY_MODE_LINK, 0, ".git/hooks") &
	    POLICY_SYMLINK_GIT);
	cr_expect(check("a/l", POLICY_MODE_LINK, 0, "../.GIT") &
	    POLICY_SYMLINK_GIT);
	cr_expect(check("l", POLICY_MODE_LINK, 0, "x/git~1/config") &
	    POLICY_SYMLINK_GIT);
	cr_expect(check("l", POLICY_MODE_LINK, 0, "x/.git.") &
	    POLICY_SYMLINK_GIT);
}

Test(policy, modes)
{
	cr_expect(check("sub", POLICY_MODE_GITLINK, 0, NULL) & POLICY_GITLINK);
	cr_expect(check("f", 0100664, 0, "x") & POLICY_BAD_MODE);
	cr_expect(check("f", 0, 0, "x") & POLICY_BAD_MODE);
	cr_expect_eq(check("d", POLICY_MODE_TREE, 0, NULL), 0);
}

Test(policy, allowable_reasons)
{
	cr_expect_eq(check("run.sh", POLICY_MODE_EXEC, 0, "x"),
	    POLICY_NEW_EXECUTABLE);
	cr_expect_eq(check("run.sh", POLICY_MODE_EXEC, POLICY_MODE_FILE, "x"),
	    POLICY_NEW_EXECUTABLE);
	cr_expect_eq(check("run.sh", POLICY_MODE_EXEC, POLICY_MODE_EXEC, "x"),
	    0, "an executable that was one stays");
	cr_expect_eq(file(".gitmodules"), POLICY_GITMODULES);
	cr_expect_eq(file(".GITMODULES."), POLICY_GITMODULES);
	cr_expect_eq(file("gitmod~1"), POLICY_GITMODULES);
	cr_expect_eq(file("GI7EBA~1"), POLICY_GITMODULES);
	cr_expect_eq(check(".gitmodules", POLICY_MODE_LINK, 0, "x"),
	    POLICY_GITMODULES);
	cr_expect_eq(check(".gitattributes", POLICY_MODE_FILE, 0,
	    "*.c text eol=lf\n*.bin binary\n"), 0);
	cr_expect_eq(check(".gitattributes", POLICY_MODE_FILE, 0,
	    "*.c filter=evil\n"), POLICY_ATTR_DRIVER);
	cr_expect_eq(check("a/.gitattributes", POLICY_MODE_FILE, 0,
	    "*\tdiff=x"), POLICY_ATTR_DRIVER);
	cr_expect_eq(check(".GitAttributes ", POLICY_MODE_FILE, 0,
	    "[attr]m merge=x\n"), POLICY_ATTR_DRIVER);
	cr_expect_eq(check("gitatt~1", POLICY_MODE_FILE, 0, "* filter=x"),
	    POLICY_ATTR_DRIVER);
	cr_expect_eq(check(".gitattributes", POLICY_MODE_LINK, 0, "x"),
	    POLICY_ATTR_DRIVER);
	cr_expect_eq(check(".gitattributes", POLICY_MODE_FILE, 0, NULL),
	    POLICY_ATTR_DRIVER, "an attributes file not read is refused");
	cr_expect_eq(check("notes.txt", POLICY_MODE_FILE, 0,
	    "* filter=x"), 0, "only an attributes file counts");
}

Test(policy, caps)
{
	struct policy_entry	 pe;
	char			 path[POLICY_PATH_MAX + 2];
	size_t			 i;

	memset(&pe, 0, sizeof(pe));
	pe.pe_path = "big";
	pe.pe_path_len = 3;
	pe.pe_mode = POLICY_MODE_FILE;
	pe.pe_size = POLICY_FILE_MAX + 1;
	cr_expect_eq(policy_check_entry(&caps, &pe), POLICY_LARGE_FILE);
	pe.pe_size = POLICY_FILE_MAX;
	cr_expect_eq(policy_check_entry(&caps, &pe), 0);
	memset(path, 'a', sizeof(path));
	path[sizeof(path) - 1] = '\0';
	cr_expect(file(path) & POLICY_PATH_TOO_LONG);
	path[POLICY_PATH_MAX] = '\0';
	cr_expect_eq(file(path), 0);
	for (i = 0; i < 2 * (POLICY_DEPTH_MAX + 1); i += 2) {
		path[i] = 'd';
		path[i + 1] = '/';
	}
	path[i] = 'f';
	path[i + 1] = '\0';
	cr_expect(file(path) & POLICY_TOO_DEEP);
	path[i - 2] = 'f';
	path[i - 1] = '\0';
	cr_expect_eq(file(path), 0);
	cr_expect_eq(policy_check_tree_size(&caps, POLICY_ENTRIES_MAX), 0);
	cr_expect_eq(policy_check_tree_size(&caps, POLICY_ENTRIES_MAX + 1),
	    POLICY_TOO_MANY);
}

Test(policy, names_of_reasons)
{
	cr_expect_eq(policy_reason_from_name("gitmodules"), POLICY_GITMODULES);
	cr_expect_eq(policy_reason_from_name("attributes_driver"),
	    POLICY_ATTR_DRIVER);
	cr_expect_eq(policy_reason_from_name("new_executable"),
	    POLICY_NEW_EXECUTABLE);
	cr_expect_eq(policy_reason_from_name("large_file"), POLICY_LARGE_FILE);
	cr_expect_eq(policy_reason_from_name("dotgit"), 0,
	    "a never-allowed reason cannot be allowed");
	cr_expect_eq(policy_reason_from_name("gitlink"), 0);
	cr_expect_eq(policy_reason_from_name("symlink_escape"), 0);
	cr_expect_str_eq(policy_reason_name(POLICY_DOTGIT), "dotgit");
	cr_expect_null(policy_reason_name(POLICY_DOTGIT | POLICY_DOTDOT));
}

Test(policy, escape)
{
	char	 out[64];

	policy_escape(out, sizeof(out), "a\nb\x1b[31m", 8);
	cr_expect_str_eq(out, "a\\x0ab\\x1b[31m");
	policy_escape(out, sizeof(out), "\xc3\xbc \\", 4);
	cr_expect_str_eq(out, "\xc3\xbc \\\\");
	policy_escape(out, sizeof(out), "x\xe2\x80\xaey", 5);
	cr_expect_str_eq(out, "x\\u{202e}y");
	policy_escape(out, sizeof(out), "\xff\xc2\x85", 3);
	cr_expect_str_eq(out, "\\xff\\u{0085}");
	policy_escape(out, sizeof(out), "a\0b", 3);
	cr_expect_str_eq(out, "a\\x00b");
	cr_expect_eq(policy_escape(out, 5, "\n\n", 2), 4);
	cr_expect_str_eq(out, "\\x0a", "cut at a whole escape");
}

/* libgit2 as an oracle: what it reads as .gitmodules or .gitattributes. */
Test(policy, libgit2_agrees)
{
	static const char *const names[] = {
		".gitmodules", ".GITMODULES", ".gitmodules.", ".gitmodules ",
		"gitmod~1", "GITMOD~4", "gi7eba~1", ".gitmodules::$DATA",
		".gitmodul\xe2\x80\x8c" "es", ".gitattributes", "gitatt~1",
		"gi7d29~1", ".gitattributes..", ".gitmodulesx", "gitmod~",
	};
	static const git_path_fs fss[] = { GIT_PATH_FS_GENERIC,
	    GIT_PATH_FS_NTFS, GIT_PATH_FS_HFS };
	size_t	 i, k;
	int	 theirs_m, theirs_a;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		theirs_m = theirs_a = 0;
		for (k = 0; k < 3; k++) {
			theirs_m |= git_path_is_gitfile(names[i],
			    strlen(names[i]), GIT_PATH_GITFILE_GITMODULES,
			    fss[k]);
			theirs_a |= git_path_is_gitfile(names[i],
			    strlen(names[i]), GIT_PATH_GITFILE_GITATTRIBUTES,
			    fss[k]);
		}
		if (theirs_m)
			cr_expect(policy_name_is(names[i], strlen(names[i]),
			    "gitmodules", "gi7eba"), "%s", names[i]);
		if (theirs_a)
			cr_expect(policy_name_is(names[i], strlen(names[i]),
			    "gitattributes", "gi7d29"), "%s", names[i]);
	}
	/* The control: the oracle does see some. */
	cr_expect(git_path_is_gitfile("gitmod~1", 8,
	    GIT_PATH_GITFILE_GITMODULES, GIT_PATH_FS_NTFS));
}

/* apply --allow: names of reasons that may be allowed, and only those. */
Test(policy, allow_list)
{
	uint32_t	 bits;

	cr_expect_eq(policy_allow_parse("", &bits), 0);
	cr_expect_eq(bits, 0u);
	cr_expect_eq(policy_allow_parse("new_executable,large_file", &bits),
	    0);
	cr_expect_eq(bits, POLICY_NEW_EXECUTABLE | POLICY_LARGE_FILE);
	cr_expect_eq(policy_allow_parse("gitmodules,attributes_driver",
	    &bits), 0);
	cr_expect_eq(bits, POLICY_GITMODULES | POLICY_ATTR_DRIVER);
	/* A never-allowed reason, an unknown one, an empty name. */
	cr_expect_eq(policy_allow_parse("dotgit", &bits), -1);
	cr_expect_eq(policy_allow_parse("gitlink,large_file", &bits), -1);
	cr_expect_eq(policy_allow_parse("nosuch", &bits), -1);
	cr_expect_eq(policy_allow_parse("large_file,", &bits), -1);
	cr_expect_eq(policy_allow_parse(",large_file", &bits), -1);
}
