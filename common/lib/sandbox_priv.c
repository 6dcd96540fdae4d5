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
 * Credentials: capabilities kept, user and chroot changed.  An object
 * of its own so that a static binary that changes no credentials
 * (spaced-relay) never pulls in getpwnam and glibc's NSS with it.
 */

#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <linux/capability.h>
#include <linux/securebits.h>

#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "sandbox.h"
#include "sandbox_int.h"

/*
 * Keep only the capabilities in keep (root): the bounding set emptied,
 * nothing inheritable or ambient, securebits locked so that no exec
 * brings root's back.  setuid_fixup 1: a later change to another uid
 * drops them all.
 */
void
sandbox_caps_limit(uint64_t keep, int setuid_fixup)
{
	sandbox_caps_limit_pass(keep, setuid_fixup, 0);
}

/*
 * The same, and pass (a part of keep) stays in the bounding set with
 * ambient raises unlocked, so that a child may hand exactly those to
 * one program it executes (sandbox_caps_hand); 0: none, all locked.
 */
void
sandbox_caps_limit_pass(uint64_t keep, int setuid_fixup, uint64_t pass)
{
	struct __user_cap_header_struct	 hdr;
	struct __user_cap_data_struct	 data[2];
	uint64_t			 eff, prm, inh;
	int				 cap;

	/*
	 * Needs CAP_SETPCAP, so before the capset below.  NOROOT: an exec
	 * as root would not refill the sets.  Without the fixup a change
	 * of uid keeps the capabilities (spaced changes none); with it, a
	 * child that becomes another user loses them all (spaced-launch).
	 */
	if (prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
	    (setuid_fixup ? 0 : SECBIT_NO_SETUID_FIXUP) |
	    SECBIT_NO_SETUID_FIXUP_LOCKED |
	    SECBIT_KEEP_CAPS_LOCKED | (pass != 0 ? 0 :
	    SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED),
	    0, 0, 0) == -1)
		fatal("%s: PR_SET_SECUREBITS", __func__);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) == -1)
		fatal("%s: PR_CAP_AMBIENT_CLEAR_ALL", __func__);
	/* The bounding set only matters to an exec: empty it. */
	for (cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
		if ((pass & 1ULL << cap) == 0 &&
		    prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == -1)
			fatal("%s: PR_CAPBSET_DROP %d", __func__, cap);

	memset(&hdr, 0, sizeof(hdr));
	memset(data, 0, sizeof(data));
	hdr.version = _LINUX_CAPABILITY_VERSION_3;
	data[0].effective = data[0].permitted = (uint32_t)keep;
	data[1].effective = data[1].permitted = (uint32_t)(keep >> 32);
	if (syscall(SYS_capset, &hdr, data) == -1)
		fatal("%s: capset", __func__);

	/* Check, as sandbox_drop_privileges checks its uids. */
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) == -1)
		fatal("%s: capget", __func__);
	eff = data[0].effective | (uint64_t)data[1].effective << 32;
	prm = data[0].permitted | (uint64_t)data[1].permitted << 32;
	inh = data[0].inheritable | (uint64_t)data[1].inheritable << 32;
	if (eff != keep || prm != keep || inh != 0 || (pass & ~keep) != 0 ||
	    prctl(PR_CAPBSET_READ, CAP_SYS_ADMIN, 0, 0, 0) != 0)
		fatalx("%s: capabilities not dropped (eff %llx prm %llx)",
		    __func__, (unsigned long long)eff,
		    (unsigned long long)prm);
	log_debug("%s: capabilities kept %llx", __func__,
	    (unsigned long long)keep);
}

/*
 * In a child about to exec: caps (of the pass above) become ambient, so
 * the program it runs starts with them, and only them, effective.
 */
int
sandbox_caps_hand(uint64_t caps)
{
	struct __user_cap_header_struct	 hdr;
	struct __user_cap_data_struct	 data[2];
	int				 cap;

	memset(&hdr, 0, sizeof(hdr));
	memset(data, 0, sizeof(data));
	hdr.version = _LINUX_CAPABILITY_VERSION_3;
	if (syscall(SYS_capget, &hdr, data) == -1)
		return -1;
	data[0].inheritable = (uint32_t)caps;
	data[1].inheritable = (uint32_t)(caps >> 32);
	if (syscall(SYS_capset, &hdr, data) == -1)
		return -1;
	for (cap = 0; cap < 64; cap++)
		if ((caps & 1ULL << cap) != 0 && prctl(PR_CAP_AMBIENT,
		    PR_CAP_AMBIENT_RAISE, cap, 0, 0) == -1)
			return -1;
	return 0;
}

/*
 * A process with those ambient capabilities, as root: chroot to the
 * current directory, then to uid and gid, checked.  -1: it did not.
 */
int
sandbox_drop_to_cwd(uid_t uid, gid_t gid)
{
	uid_t	 ruid, euid, suid;

	if (chroot(".") == -1 || chdir("/") == -1)
		return -1;
	sb_chrooted = 1;
	if (setgroups(1, &gid) == -1 || setresgid(gid, gid, gid) == -1 ||
	    setresuid(uid, uid, uid) == -1 ||
	    getresuid(&ruid, &euid, &suid) == -1 ||
	    ruid != uid || euid != uid || suid != uid)
		return -1;
	/* setresuid alone: spaced-launch's filter, inherited, has no setuid. */
	if (uid != 0 && setresuid(0, 0, 0) != -1)
		return -1;
	return 0;
}

/*
 * When root: chroot to dir (if not NULL), then setgroups/setresgid/
 * setresuid to user; verified with getresuid.  A plain user: nothing.
 */
void
sandbox_drop_privileges(const char *user, const char *chroot_dir)
{
	struct passwd	*pw;
	uid_t		 uid, ruid, euid, suid;
	gid_t		 gid, rgid, egid, sgid;

	if (geteuid() != 0) {
		log_debug("%s: not root, keeping uid %u", __func__,
		    (unsigned int)geteuid());
		return;
	}
	if (user == NULL)
		fatalx("%s: no user", __func__);

	/* Before chroot: the password database is outside it. */
	if ((pw = getpwnam(user)) == NULL)
		fatalx("%s: unknown user %s", __func__, user);
	uid = pw->pw_uid;
	gid = pw->pw_gid;
	endpwent();

	if (chroot_dir != NULL) {
		if (chroot(chroot_dir) == -1)
			fatal("%s: chroot %s", __func__, chroot_dir);
		if (chdir("/") == -1)
			fatal("%s: chdir /", __func__);
		sb_chrooted = 1;
	}

	if (setgroups(1, &gid) == -1)
		fatal("%s: setgroups", __func__);
	if (setresgid(gid, gid, gid) == -1)
		fatal("%s: setresgid %u", __func__, (unsigned int)gid);
	if (setresuid(uid, uid, uid) == -1)
		fatal("%s: setresuid %u", __func__, (unsigned int)uid);

	if (getresgid(&rgid, &egid, &sgid) == -1)
		fatal("%s: getresgid", __func__);
	if (getresuid(&ruid, &euid, &suid) == -1)
		fatal("%s: getresuid", __func__);
	if (rgid != gid || egid != gid || sgid != gid ||
	    ruid != uid || euid != uid || suid != uid)
		fatalx("%s: privileges not dropped to %s", __func__, user);
	/* The way back must be closed too (OpenSSH's check). */
	if (uid != 0 && (setuid(0) != -1 || seteuid(0) != -1))
		fatalx("%s: could regain root after dropping to %s",
		    __func__, user);
	log_debug("%s: now %s (%u:%u)%s%s", __func__, user,
	    (unsigned int)uid, (unsigned int)gid,
	    chroot_dir != NULL ? " in " : "",
	    chroot_dir != NULL ? chroot_dir : "");
}
