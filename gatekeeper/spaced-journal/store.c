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
 * The journal store's files (store.h).  A write appends whole lines and
 * fsyncs before the tip moves, so a crash leaves at most a cut last
 * line, which the next open removes: the record being written is lost,
 * never one before it.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "store.h"

#define KEY_FILE	".journal-key"

const struct store_limits store_limits_default = {
	.sl_segment = 8 * 1024 * 1024,
	.sl_space = 64 * 1024 * 1024,
	.sl_all = (off_t)1024 * 1024 * 1024,
	.sl_batch = 4 * 1024 * 1024,	/* two fsyncs a batch: few, on a busy disk */
};

static uint8_t	 key_bytes[CHAIN_KEY_LEN];
static int	 key_loaded;

static int
read_full(int fd, void *buf, size_t len)
{
	size_t	 got = 0;
	ssize_t	 n;

	while (got < len) {
		if ((n = read(fd, (char *)buf + got, len - got)) == -1 &&
		    errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += n;
	}
	return 0;
}

static int
write_full(int fd, const void *buf, size_t len)
{
	size_t	 done = 0;
	ssize_t	 n;

	while (done < len) {
		if ((n = write(fd, (const char *)buf + done, len - done)) ==
		    -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		done += n;
	}
	return 0;
}

static void
dir_sync(void)
{
	int	 dfd;

	if ((dfd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return;
	if (fsync(dfd) == -1)
		log_warn("store: fsync of the store");
	close(dfd);
}

/* Made once with fresh randomness, never read by anyone but us. */
const uint8_t *
store_key(void)
{
	int	 fd;

	if (key_loaded)
		return key_bytes;
	if ((fd = open(KEY_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) != -1) {
		if (read_full(fd, key_bytes, sizeof(key_bytes)) == -1) {
			log_warnx("store: %s: not a key", KEY_FILE);
			close(fd);
			return NULL;
		}
		close(fd);
		key_loaded = 1;
		return key_bytes;
	}
	if (errno != ENOENT) {
		log_warn("store: %s", KEY_FILE);
		return NULL;
	}
	arc4random_buf(key_bytes, sizeof(key_bytes));
	(void)unlink(KEY_FILE ".new");
	if ((fd = open(KEY_FILE ".new", O_WRONLY | O_CREAT | O_EXCL |
	    O_NOFOLLOW | O_CLOEXEC, 0600)) == -1 ||
	    write_full(fd, key_bytes, sizeof(key_bytes)) == -1 ||
	    fsync(fd) == -1 || rename(KEY_FILE ".new", KEY_FILE) == -1) {
		log_warn("store: %s", KEY_FILE);
		if (fd != -1)
			close(fd);
		return NULL;
	}
	close(fd);
	dir_sync();
	key_loaded = 1;
	return key_bytes;
}

/* --- the files --------------------------------------------------------- */

static int
rotated_name(const char *base, const char *name, uint64_t *first)
{
	size_t	 n = strlen(base), i;

	if (strncmp(name, base, n) != 0 ||
	    strncmp(name + n, ".journal.", 9) != 0 ||
	    strlen(name + n + 9) != 20)
		return 0;
	*first = 0;
	for (i = n + 9; name[i] != '\0'; i++) {
		if (name[i] < '0' || name[i] > '9')
			return 0;
		*first = *first * 10 + (uint64_t)(name[i] - '0');
	}
	return 1;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

int
store_files(const char *base, struct store_files *sf)
{
	struct dirent	*de;
	struct stat	 sb;
	DIR		*dir;
	uint64_t	 first;
	size_t		 cap = 0;
	void		*p;

	memset(sf, 0, sizeof(*sf));
	if ((dir = opendir(".")) == NULL)
		return -1;
	while ((de = readdir(dir)) != NULL) {
		if (!rotated_name(base, de->d_name, &first))
			continue;
		if (sf->sf_n + 1 >= cap) {
			cap = cap == 0 ? 16 : cap * 2;
			if ((p = reallocarray(sf->sf_names, cap,
			    sizeof(*sf->sf_names))) == NULL)
				fatal("%s", __func__);
			sf->sf_names = p;
		}
		strlcpy(sf->sf_names[sf->sf_n++], de->d_name,
		    sizeof(*sf->sf_names));
	}
	closedir(dir);
	/* Twenty digits: the names sort as their numbers do. */
	if (sf->sf_n > 0)
		qsort(sf->sf_names, sf->sf_n, sizeof(*sf->sf_names), name_cmp);
	/* Room for the current file: the loop keeps one slot spare. */
	if (cap == 0 && (sf->sf_names = calloc(1, sizeof(*sf->sf_names))) ==
	    NULL)
		fatal("%s", __func__);
	snprintf(sf->sf_names[sf->sf_n], sizeof(*sf->sf_names), "%s.journal",
	    base);
	if (lstat(sf->sf_names[sf->sf_n], &sb) == 0 && S_ISREG(sb.st_mode))
		sf->sf_n++;
	return 0;
}

void
store_files_free(struct store_files *sf)
{
	free(sf->sf_names);
	memset(sf, 0, sizeof(*sf));
}

/* The bytes of every store file but base's (the cap for all). */
static off_t
others_size(const char *base)
{
	struct dirent	*de;
	struct stat	 sb;
	DIR		*dir;
	off_t		 total = 0;
	size_t		 n = strlen(base);

	if ((dir = opendir(".")) == NULL)
		return 0;
	while ((de = readdir(dir)) != NULL)
		if (de->d_name[0] != '.' && strncmp(de->d_name, base, n) != 0 &&
		    fstatat(dirfd(dir), de->d_name, &sb, AT_SYMLINK_NOFOLLOW)
		    == 0 && S_ISREG(sb.st_mode))
			total += sb.st_size;
	closedir(dir);
	return total;
}

/* --- the tip ----------------------------------------------------------- */

/* The tip's file, read whole under its cap and parsed by tip_parse.c. */
int
store_tip_read(const char *base, struct store_tip *tp)
{
	char		 path[STORE_NAME_MAX + 16], buf[STORE_TIP_MAX + 1];
	ssize_t		 n;
	int		 fd;

	memset(tp, 0, sizeof(*tp));
	snprintf(path, sizeof(path), ".%s.tip", base);
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return errno == ENOENT ? 0 : -1;
	/* One byte past the cap: a longer file is no tip of ours. */
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0 || (size_t)n > STORE_TIP_MAX)
		return -1;
	return store_tip_parse(buf, n, tp);
}

static int
tip_write(const struct store *st)
{
	char	 path[STORE_NAME_MAX + 16], tmp[STORE_NAME_MAX + 20];
	char	 buf[STORE_TIP_MAX], hex[2 * CHAIN_MAC_LEN + 1];
	int	 fd, n;

	snprintf(path, sizeof(path), ".%s.tip", st->st_base);
	snprintf(tmp, sizeof(tmp), ".%s.tip.new", st->st_base);
	chain_hex(st->st_prev, hex);
	n = snprintf(buf, sizeof(buf), "%llu %s %s %llu\n",
	    (unsigned long long)st->st_next - 1, hex,
	    st->st_rat[0] != '\0' ? st->st_rat : "-",
	    (unsigned long long)st->st_restarts);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) == -1)
		return -1;
	if (write_full(fd, buf, n) == -1 || fsync(fd) == -1) {
		close(fd);
		return -1;
	}
	close(fd);
	return rename(tmp, path);
}

/*
 * Restarts in the lines after the tip (a crash between a write and its
 * tip): at most one batch, in the current file.
 */
static void
restarts_after(struct store *st, uint64_t from)
{
	struct store_iter	 si;
	struct chain_rec	 cr;
	const char		*errstr;

	if (store_iter_open(&si, st->st_base, from) == -1)
		return;
	while (store_iter_next(&si) == 1)
		if (!si.si_cut && chain_scan(si.si_line, si.si_len, &cr,
		    &errstr) == 0 && cr.cr_entry.je_seq >= from &&
		    strcmp(cr.cr_entry.je_listener, "server") == 0) {
			st->st_restarts++;
			strlcpy(st->st_rat, cr.cr_entry.je_at,
			    sizeof(st->st_rat));
		}
	store_iter_close(&si);
}

/* --- open -------------------------------------------------------------- */

/* The last whole line of path into cr; a cut one after it is removed. */
static int
tail_read(const char *path, struct chain_rec *cr, off_t *size)
{
	char		 buf[2 * CHAIN_LINE_MAX + 4], *nl, *start;
	const char	*errstr;
	struct stat	 sb;
	off_t		 off;
	ssize_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return errno == ENOENT ? 0 : -1;
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode))
		goto bad;
	off = sb.st_size > (off_t)sizeof(buf) ? sb.st_size -
	    (off_t)sizeof(buf) : 0;
	if ((n = pread(fd, buf, sb.st_size - off, off)) != sb.st_size - off)
		goto bad;
	/* A crash mid-write: the cut line goes, the ones before stay. */
	if (n > 0 && buf[n - 1] != '\n') {
		nl = memrchr(buf, '\n', n);
		if (nl == NULL && off > 0)
			goto bad;
		n = nl == NULL ? 0 : nl - buf + 1;
		if (ftruncate(fd, off + n) == -1 || fsync(fd) == -1)
			goto bad;
		log_warnx("store: %s: a line cut by a crash removed", path);
	}
	*size = off + n;
	close(fd);
	if (n == 0)
		return 0;
	buf[n - 1] = '\0';
	start = (nl = memrchr(buf, '\n', n - 1)) == NULL ? buf : nl + 1;
	if (start == buf && off > 0)
		return -1;
	return chain_scan(start, buf + n - 1 - start, cr, &errstr) == -1 ?
	    -1 : 1;
bad:
	close(fd);
	return -1;
}

/* The seq of path's first line; -1 when it has none. */
static int
first_seq(const char *path, uint64_t *seq)
{
	struct chain_rec	 cr;
	const char		*errstr;
	char			 line[CHAIN_LINE_MAX + 2];
	FILE			*fp;
	size_t			 n;
	int			 rv = -1;

	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	if (fgets(line, sizeof(line), fp) != NULL &&
	    (n = strlen(line)) > 0 && line[n - 1] == '\n' &&
	    chain_scan(line, n - 1, &cr, &errstr) == 0) {
		*seq = cr.cr_entry.je_seq;
		rv = 0;
	}
	fclose(fp);
	return rv;
}

/* Where the chain ends: the last line of the newest file that has one. */
static int
store_tail(struct store *st, struct store_files *sf)
{
	struct chain_rec	 cr;
	struct stat		 sb;
	off_t			 size = 0;
	uint64_t		 first;
	size_t			 i;
	int			 rv = 0, current;

	for (i = 0; i < sf->sf_n; i++)
		if (lstat(sf->sf_names[i], &sb) == 0)
			st->st_total += sb.st_size;
	for (i = sf->sf_n; i > 0 && rv == 0; i--) {
		current = !rotated_name(st->st_base, sf->sf_names[i - 1],
		    &first);
		if ((rv = tail_read(sf->sf_names[i - 1], &cr, &size)) == -1)
			return -1;
		if (current) {
			st->st_size = size;
			if (rv == 1 && first_seq(sf->sf_names[i - 1],
			    &st->st_first) == -1)
				return -1;
		}
	}
	st->st_total = 0;
	for (i = 0; i < sf->sf_n; i++)
		if (lstat(sf->sf_names[i], &sb) == 0)
			st->st_total += sb.st_size;
	if (rv == 0)
		return 0;
	st->st_next = cr.cr_entry.je_seq + 1;
	memcpy(st->st_prev, cr.cr_mac, sizeof(st->st_prev));
	st->st_cursor = cr.cr_boot != 0;
	st->st_boot = cr.cr_boot;
	st->st_gkseq = cr.cr_gkseq;
	return 1;
}

int
store_open(struct store *st, const char *base, const uint8_t *key,
    const struct store_limits *lim)
{
	struct store_files	 sf;
	struct store_tip	 tp;
	int			 rv, trv;

	memset(st, 0, sizeof(*st));
	st->st_fd = -1;
	st->st_key = key;
	st->st_lim = *lim;
	if (strlcpy(st->st_base, base, sizeof(st->st_base)) >=
	    sizeof(st->st_base))
		fatalx("%s: name", __func__);
	chain_anchor(key, base, st->st_prev);
	if (store_files(base, &sf) == -1) {
		st->st_broken = "the store cannot be listed";
		return -1;
	}
	rv = store_tail(st, &sf);
	store_files_free(&sf);
	st->st_others = others_size(base);
	if (rv == -1) {
		st->st_broken = "its last record is unreadable (run "
		    "spacectl journal --verify)";
		log_warnx("store: %s: %s", base, st->st_broken);
		return -1;
	}
	/* Records removed from the end: keep nothing that would hide it. */
	if ((trv = store_tip_read(base, &tp)) == -1) {
		st->st_broken = "its tip is unreadable (run spacectl journal "
		    "--verify)";
		log_warnx("store: %s: %s", base, st->st_broken);
		return -1;
	}
	if (trv == 1 && (rv == 0 || tp.stp_seq >= st->st_next)) {
		st->st_broken = "records are missing at its end (run "
		    "spacectl journal --verify)";
		log_warnx("store: %s: %s", base, st->st_broken);
		return -1;
	}
	memcpy(st->st_rat, tp.stp_rat, sizeof(st->st_rat));
	st->st_restarts = tp.stp_restarts;
	/* A crash between the write and the tip: the tip catches up. */
	if (rv == 1 && (trv == 0 || tp.stp_seq + 1 < st->st_next)) {
		restarts_after(st, trv == 0 ? 0 : tp.stp_seq + 1);
		if (tip_write(st) == -1)
			log_warn("store: %s: tip", base);
	}
	return 0;
}

/* --- writes ------------------------------------------------------------ */

static void
buf_add(struct store *st, const char *line)
{
	size_t	 n = strlen(line), cap;
	char	*p;

	if (st->st_len + n + 1 > st->st_cap) {
		cap = st->st_cap == 0 ? 64 * 1024 : st->st_cap * 2;
		while (cap < st->st_len + n + 1)
			cap *= 2;
		if ((p = realloc(st->st_buf, cap)) == NULL)
			fatal("%s", __func__);
		st->st_buf = p;
		st->st_cap = cap;
	}
	memcpy(st->st_buf + st->st_len, line, n);
	st->st_buf[st->st_len + n] = '\n';
	st->st_len += n + 1;
}

/* One line of the chain into the buffer; no cap checked here. */
static int
chain_add(struct store *st, struct journal_entry *je, int64_t boot,
    uint64_t gkseq)
{
	struct chain_rec	 cr;
	char			 line[CHAIN_LINE_MAX + 1];

	memset(&cr, 0, sizeof(cr));
	je->je_seq = st->st_next;
	cr.cr_entry = *je;
	cr.cr_boot = boot;
	cr.cr_gkseq = gkseq;
	if (chain_fmt(st->st_key, st->st_prev, &cr, line, sizeof(line)) ==
	    -1)
		return -1;
	if (st->st_size == 0 && st->st_len == 0)
		st->st_first = st->st_next;
	buf_add(st, line);
	memcpy(st->st_prev, cr.cr_mac, sizeof(st->st_prev));
	st->st_next++;
	return 0;
}

/* A record of spaced-journal's own, at the time of the one it goes with. */
static int
own_add(struct store *st, const char *at, const char *decision,
    const char *host, uint32_t count)
{
	struct journal_entry	 je;

	memset(&je, 0, sizeof(je));
	strlcpy(je.je_at, at, sizeof(je.je_at));
	strlcpy(je.je_listener, "journal", sizeof(je.je_listener));
	strlcpy(je.je_host, host, sizeof(je.je_host));
	strlcpy(je.je_decision, decision, sizeof(je.je_decision));
	je.je_count = count;
	return chain_add(st, &je, st->st_cursor ? st->st_boot : 0,
	    st->st_cursor ? st->st_gkseq : 0);
}

/*
 * The current file becomes <base>.journal.<its first seq>, a new one
 * starts with a segment record (the MAC before it, for a reader that
 * no longer has the file before), and past the space's cap the oldest
 * files go, said by a dropped record (the first seq still kept).
 */
static int
store_rotate(struct store *st, const char *at)
{
	struct store_files	 sf;
	struct stat		 sb;
	char			 cur[STORE_NAME_MAX + 16];
	char			 old[STORE_NAME_MAX + 32], hex[2 * CHAIN_MAC_LEN + 1];
	char			 kept[24];
	uint64_t		 first = 0;
	size_t			 i;
	int			 dropped = 0;

	if (store_commit(st) == -1)
		return -1;
	snprintf(cur, sizeof(cur), "%s.journal", st->st_base);
	snprintf(old, sizeof(old), "%s.journal.%020llu", st->st_base,
	    (unsigned long long)st->st_first);
	if (st->st_fd != -1)
		close(st->st_fd);
	st->st_fd = -1;
	if (rename(cur, old) == -1) {
		log_warn("store: %s: rotate", cur);
		st->st_broken = "a file could not be rotated";
		return -1;
	}
	dir_sync();
	st->st_size = 0;
	chain_hex(st->st_prev, hex);
	if (own_add(st, at, CHAIN_SEGMENT, hex, 1) == -1)
		return -1;
	if (store_files(st->st_base, &sf) == -1)
		return -1;
	for (i = 0; i + 1 < sf.sf_n && st->st_total > st->st_lim.sl_space;
	    i++) {
		if (lstat(sf.sf_names[i], &sb) == -1 ||
		    unlink(sf.sf_names[i]) == -1) {
			log_warn("store: %s", sf.sf_names[i]);
			break;
		}
		st->st_total -= sb.st_size;
		dropped = 1;
	}
	if (dropped)
		rotated_name(st->st_base, sf.sf_names[i], &first);
	store_files_free(&sf);
	if (!dropped)
		return 0;
	dir_sync();
	snprintf(kept, sizeof(kept), "%llu", (unsigned long long)first);
	return own_add(st, at, CHAIN_DROPPED, kept, 1);
}

/* One record into the buffer, its caps checked; not committed here. */
static int
store_add_one(struct store *st, struct journal_entry *je, int64_t boot,
    uint64_t gkseq)
{
	if (st->st_broken != NULL)
		return -1;
	if (st->st_total + (off_t)st->st_len + st->st_others >
	    st->st_lim.sl_all) {
		st->st_broken = "the store is full (its cap for all spaces)";
		return -1;
	}
	if (st->st_size + (off_t)st->st_len >= st->st_lim.sl_segment &&
	    st->st_size > 0 && store_rotate(st, je->je_at) == -1)
		return -1;
	if (chain_add(st, je, boot, gkseq) == -1)
		return -1;
	st->st_cursor = 1;
	st->st_boot = boot;
	st->st_gkseq = gkseq;
	return 0;
}

int
store_add(struct store *st, struct journal_entry *je, int64_t boot,
    uint64_t gkseq)
{
	if (store_add_one(st, je, boot, gkseq) == -1)
		return -1;
	if (st->st_len >= st->st_lim.sl_batch)
		return store_commit(st);
	return 0;
}

/*
 * A restart of the space's relay, its time the engine's: kept once, and
 * counted in the tip, which says where the next collection goes on.
 * Committed here, before anyone is told of it: a count that spaced
 * shows never runs ahead of the journal (a failed write counts nothing).
 * No batch commit between the record and its count: the tip says both.
 */
int
store_add_restart(struct store *st, struct journal_entry *je)
{
	char	 rat[sizeof(st->st_rat)];

	if (store_add_one(st, je, st->st_cursor ? st->st_boot : 0,
	    st->st_cursor ? st->st_gkseq : 0) == -1)
		return -1;
	memcpy(rat, st->st_rat, sizeof(rat));
	st->st_restarts++;
	strlcpy(st->st_rat, je->je_at, sizeof(st->st_rat));
	if (store_commit(st) == -1) {
		st->st_restarts--;
		memcpy(st->st_rat, rat, sizeof(rat));
		return -1;
	}
	return 0;
}

int
store_commit(struct store *st)
{
	char	 cur[STORE_NAME_MAX + 16];

	if (st->st_len == 0)
		return st->st_broken != NULL ? -1 : 0;
	if (st->st_broken != NULL)
		return -1;
	snprintf(cur, sizeof(cur), "%s.journal", st->st_base);
	if (st->st_fd == -1 && (st->st_fd = open(cur, O_WRONLY | O_CREAT |
	    O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600)) == -1) {
		log_warn("store: %s", cur);
		st->st_broken = "its file cannot be opened";
		return -1;
	}
	if (st->st_size == 0)
		dir_sync();	/* a new file's name survives a crash too */
	if (write_full(st->st_fd, st->st_buf, st->st_len) == -1 ||
	    fsync(st->st_fd) == -1) {
		log_warn("store: %s: write", cur);
		/* What was half written is cut at the next open. */
		st->st_broken = "a write failed";
		return -1;
	}
	st->st_size += st->st_len;
	st->st_total += st->st_len;
	st->st_len = 0;
	if (tip_write(st) == -1) {
		log_warn("store: %s: tip", st->st_base);
		st->st_broken = "its tip cannot be written";
		return -1;
	}
	return 0;
}

void
store_close(struct store *st)
{
	if (st->st_fd != -1)
		close(st->st_fd);
	free(st->st_buf);
	memset(st, 0, sizeof(*st));
	st->st_fd = -1;
}

/* --- reading ----------------------------------------------------------- */

int
store_iter_open(struct store_iter *si, const char *base, uint64_t from)
{
	uint64_t	 first;
	size_t		 i;

	memset(si, 0, sizeof(*si));
	if (store_files(base, &si->si_files) == -1)
		return -1;
	/* The newest file that starts at or before from. */
	for (i = si->si_files.sf_n; i > 1; i--) {
		if (!rotated_name(base, si->si_files.sf_names[i - 1], &first) &&
		    first_seq(si->si_files.sf_names[i - 1], &first) == -1)
			continue;
		if (first <= from)
			break;
	}
	si->si_file = i > 0 ? i - 1 : 0;
	return 0;
}

int
store_iter_next(struct store_iter *si)
{
	int	 c;

	for (;;) {
		if (si->si_fp == NULL) {
			if (si->si_file >= si->si_files.sf_n)
				return 0;
			if ((si->si_fp = fopen(si->si_files.sf_names[
			    si->si_file++], "re")) == NULL)
				continue;
		}
		if (fgets(si->si_line, sizeof(si->si_line), si->si_fp) ==
		    NULL) {
			fclose(si->si_fp);
			si->si_fp = NULL;
			continue;
		}
		si->si_len = strlen(si->si_line);
		si->si_cut = 0;
		if (si->si_len > 0 && si->si_line[si->si_len - 1] == '\n')
			si->si_line[--si->si_len] = '\0';
		else if (si->si_len == sizeof(si->si_line) - 1) {
			/* Longer than any line we write: to its end. */
			while ((c = fgetc(si->si_fp)) != EOF && c != '\n')
				;
			return -1;
		} else
			si->si_cut = 1;
		return 1;
	}
}

/* The file the last line came from. */
const char *
store_iter_file(const struct store_iter *si)
{
	return si->si_file > 0 ? si->si_files.sf_names[si->si_file - 1] : "";
}

void
store_iter_close(struct store_iter *si)
{
	if (si->si_fp != NULL)
		fclose(si->si_fp);
	store_files_free(&si->si_files);
	memset(si, 0, sizeof(*si));
}
