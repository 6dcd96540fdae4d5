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

/* Framing: sizes, boundaries, truncation and caps. */

#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "helpers.h"
#include "imsg.h"


TestSuite(framing, .init = pair_setup, .fini = pair_teardown);

static uint64_t
vm_hwm_kb(void)
{
	FILE		*f;
	char		 line[256];
	uint64_t	 v = 0;

	if ((f = fopen("/proc/self/status", "r")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "VmHWM:", 6) == 0)
			v = strtoull(line + 6, NULL, 10);
	fclose(f);
	return v;
}

static void
no_handler(int fd, short ev, void *arg)
{
	cr_assert_fail("handler called");
}

Test(framing, zero_length_payload)
{
	struct imsg	 imsg;

	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 7, 0, -1, NULL, 0), 0);
	cr_assert_eq(imsgbuf_flush(&pair_wr), 0);
	cr_assert_eq(wait_get(&pair_rd, &imsg), 1);
	cr_assert_eq(imsg_get_type(&imsg), TEST_TYPE);
	cr_assert_eq(imsg_get_peerid(&imsg), 7);
	cr_assert_eq(imsg_get_pid(&imsg), getpid());
	cr_assert_eq(imsg_get_len(&imsg), 0);
	cr_assert_eq(imsg.fd, -1);
	cr_assert_eq(imsg_expect(&imsg, TEST_TYPE, 0), 0);
	imsg_free(&imsg);
}

Test(framing, max_size_payload)
{
	struct imsg	 imsg;
	uint8_t		*buf;
	size_t		 i;

	cr_assert_not_null(buf = malloc(IMSG_MAX_PAYLOAD + 1));
	for (i = 0; i < IMSG_MAX_PAYLOAD + 1; i++)
		buf[i] = i * 7 + 3;
	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 1, 0, -1, buf,
	    IMSG_MAX_PAYLOAD), 0);
	/* One byte more does not fit the header's length field. */
	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 1, 0, -1, buf,
	    IMSG_MAX_PAYLOAD + 1), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_eq(imsgbuf_queuelen(&pair_wr), 1);
	cr_assert_eq(imsgbuf_flush(&pair_wr), 0);
	cr_assert_eq(wait_get(&pair_rd, &imsg), 1);
	cr_assert_eq(imsg_get_len(&imsg), IMSG_MAX_PAYLOAD);
	cr_assert_arr_eq(imsg.data, buf, IMSG_MAX_PAYLOAD);
	imsg_free(&imsg);
	free(buf);
}

Test(framing, several_messages_in_one_read)
{
	struct imsg	 imsg;
	uint32_t	 i, v;
	ssize_t		 n;

	for (i = 0; i < 5; i++)
		cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, i, 0, -1, &i,
		    sizeof(i)), 0);
	cr_assert_eq(imsgbuf_flush(&pair_wr), 0);
	n = imsgbuf_read(&pair_rd);
	cr_assert_eq(n, 5 * (IMSG_HEADER_SIZE + sizeof(i)));
	for (i = 0; i < 5; i++) {
		cr_assert_eq(imsgbuf_get(&pair_rd, &imsg), 1);
		cr_assert_eq(imsg_get_peerid(&imsg), i);
		cr_assert_eq(imsg_get_data(&imsg, &v, sizeof(v)), 0);
		cr_assert_eq(v, i);
		imsg_free(&imsg);
	}
	cr_assert_eq(imsgbuf_get(&pair_rd, &imsg), 0);
}

/*
 * The bytes of several messages (the largest included) reach the reader
 * one at a time: each message appears exactly when its last byte does.
 */
Test(framing, one_byte_at_a_time)
{
	static const size_t sizes[] = { 0, 1, 100, IMSG_MAX_PAYLOAD, 3 };
	int		 raw[2];
	struct imsgbuf	 src;
	struct imsg	 imsg;
	uint8_t		*payload, *stream;
	size_t		 total = 0, i, at, next, end[5], nmsg = 0;

	cr_assert_not_null(payload = malloc(IMSG_MAX_PAYLOAD));
	for (i = 0; i < IMSG_MAX_PAYLOAD; i++)
		payload[i] = i ^ (i >> 8);
	test_socketpair(raw);
	imsgbuf_init(&src, raw[0]);
	for (i = 0; i < 5; i++) {
		cr_assert_eq(imsg_compose(&src, TEST_TYPE, i, 0, -1, payload,
		    sizes[i]), 0);
		total += IMSG_HEADER_SIZE + sizes[i];
		end[i] = total;
	}
	cr_assert_eq(imsgbuf_flush(&src), 0);
	cr_assert_not_null(stream = malloc(total));
	cr_assert_eq(read_full(raw[1], stream, total), total);

	for (at = 0, next = 0; at < total; at++) {
		write_all(pair_sv[0], stream + at, 1);
		cr_assert_eq(imsgbuf_read(&pair_rd), 1);
		while (imsgbuf_get(&pair_rd, &imsg) == 1) {
			cr_assert_eq(at + 1, end[next]);
			cr_assert_eq(imsg_get_peerid(&imsg), next);
			cr_assert_eq(imsg_get_len(&imsg), sizes[next]);
			if (sizes[next] > 0)
				cr_assert_arr_eq(imsg.data, payload,
				    sizes[next]);
			imsg_free(&imsg);
			next++;
			nmsg++;
		}
	}
	cr_assert_eq(nmsg, 5);
	imsgbuf_clear(&src);
	close(raw[0]);
	close(raw[1]);
	free(stream);
	free(payload);
}

/* The peer writes half a header and hangs up: no message, a clean EOF. */
Test(framing, truncated_header)
{
	struct imsg_hdr	 hdr;
	struct imsg	 imsg;
	struct imsgev	 iev;
	struct event_base *base;

	raw_hdr(&hdr, TEST_TYPE, IMSG_HEADER_SIZE, 0);
	write_all(pair_sv[0], &hdr, sizeof(hdr) / 2);
	close(pair_sv[0]);
	pair_sv[0] = -1;
	cr_assert_eq(imsgbuf_read(&pair_rd), (ssize_t)sizeof(hdr) / 2);
	cr_assert_eq(imsgbuf_get(&pair_rd, &imsg), 0);
	cr_assert_eq(imsgbuf_read(&pair_rd), 0);
	cr_assert_eq(imsgbuf_get(&pair_rd, &imsg), 0);

	/* The same through the libevent prologue: -1 with errno 0. */
	cr_assert_not_null(base = event_base_new());
	imsgev_init(&iev, base, pair_sv[1], no_handler, NULL);
	errno = EINVAL;
	cr_assert_eq(imsgev_handle(&iev, EV_READ), -1);
	cr_assert_eq(errno, 0);
	imsgbuf_clear(&iev.ibuf);
	event_base_free(base);
}

/* The peer dies in the middle of a payload. */
Test(framing, peer_closes_mid_message)
{
	struct imsg_hdr	 hdr;
	struct imsg	 imsg;
	uint8_t		 half[50];

	raw_hdr(&hdr, TEST_TYPE, IMSG_HEADER_SIZE + 100, 0);
	memset(half, 'x', sizeof(half));
	write_all(pair_sv[0], &hdr, sizeof(hdr));
	write_all(pair_sv[0], half, sizeof(half));
	close(pair_sv[0]);
	pair_sv[0] = -1;
	cr_assert_eq(wait_get(&pair_rd, &imsg), 0);
	cr_assert_eq(pair_rd.rlen, sizeof(hdr) + sizeof(half));
	cr_assert_eq(imsgbuf_read(&pair_rd), 0);
}

/* A length over the channel's cap kills the channel, before any payload. */
Test(framing, length_over_cap)
{
	struct imsg	 imsg;
	uint8_t		 buf[200];

	memset(buf, 0, sizeof(buf));
	imsgbuf_set_maxsize(&pair_rd, IMSG_HEADER_SIZE + 100);
	/* Positive control: at the cap it passes. */
	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 0, 0, -1, buf, 100), 0);
	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 0, 0, -1, buf, 101), 0);
	cr_assert_eq(imsgbuf_flush(&pair_wr), 0);
	cr_assert_eq(wait_get(&pair_rd, &imsg), 1);
	cr_assert_eq(imsg_get_len(&imsg), 100);
	imsg_free(&imsg);
	cr_assert_eq(wait_get(&pair_rd, &imsg), -1);
	cr_assert_eq(errno, ERANGE);
	/* Dead: the next call fails the same way. */
	cr_assert_eq(imsgbuf_get(&pair_rd, &imsg), -1);
	cr_assert_eq(errno, ERANGE);
}

/* The refused header stays readable: the control socket names its version. */
Test(framing, refused_header_peeked)
{
	struct imsg	 imsg;
	struct imsg_hdr	 hdr;
	uint8_t		 buf[200];

	memset(buf, 0, sizeof(buf));
	imsgbuf_set_maxsize(&pair_rd, IMSG_HEADER_SIZE + 100);
	/* Nothing read yet: no header to give. */
	cr_assert_eq(imsgbuf_peek_hdr(&pair_rd, &hdr), -1);
	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 0x1204, 0, -1, buf,
	    101), 0);
	cr_assert_eq(imsgbuf_flush(&pair_wr), 0);
	cr_assert_eq(wait_get(&pair_rd, &imsg), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_eq(imsgbuf_peek_hdr(&pair_rd, &hdr), 0);
	cr_assert_eq(hdr.type, TEST_TYPE);
	cr_assert_eq(hdr.peerid, 0x1204);
	cr_assert_eq(hdr.len, IMSG_HEADER_SIZE + 101);
}

/* The cap is checked on the header alone: no need to wait for a payload. */
Test(framing, length_over_cap_header_only)
{
	struct imsg_hdr	 hdr;
	struct imsg	 imsg;

	raw_hdr(&hdr, TEST_TYPE, MAX_IMSGSIZE + 1, 0);
	write_all(pair_sv[0], &hdr, sizeof(hdr));
	cr_assert_eq(wait_get(&pair_rd, &imsg), -1);
	cr_assert_eq(errno, ERANGE);
}

Test(framing, length_under_header)
{
	struct imsg_hdr	 hdr;
	struct imsg	 imsg;
	size_t		 lens[] = { 0, 1, IMSG_HEADER_SIZE - 1 };
	size_t		 i;

	for (i = 0; i < 3; i++) {
		imsgbuf_clear(&pair_rd);
		imsgbuf_init(&pair_rd, pair_sv[1]);
		raw_hdr(&hdr, TEST_TYPE, lens[i], 0);
		write_all(pair_sv[0], &hdr, sizeof(hdr));
		cr_assert_eq(wait_get(&pair_rd, &imsg), -1);
		cr_assert_eq(errno, ERANGE);
	}
	/* Positive control: exactly a header is a valid empty message. */
	imsgbuf_clear(&pair_rd);
	imsgbuf_init(&pair_rd, pair_sv[1]);
	raw_hdr(&hdr, TEST_TYPE, IMSG_HEADER_SIZE, 0);
	write_all(pair_sv[0], &hdr, sizeof(hdr));
	cr_assert_eq(wait_get(&pair_rd, &imsg), 1);
	imsg_free(&imsg);
}

Test(framing, unknown_flags)
{
	struct imsg_hdr	 hdr;
	struct imsg	 imsg;

	raw_hdr(&hdr, TEST_TYPE, IMSG_HEADER_SIZE, 0x8000);
	write_all(pair_sv[0], &hdr, sizeof(hdr));
	cr_assert_eq(wait_get(&pair_rd, &imsg), -1);
	cr_assert_eq(errno, EBADMSG);
}

Test(framing, expect_type_and_length)
{
	struct imsg	 imsg;
	uint32_t	 v = 42;

	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 0, 0, -1, &v, sizeof(v)), 0);
	cr_assert_eq(imsgbuf_flush(&pair_wr), 0);
	cr_assert_eq(wait_get(&pair_rd, &imsg), 1);
	/* Positive control, then a wrong type, then wrong lengths. */
	cr_assert_eq(imsg_expect(&imsg, TEST_TYPE, sizeof(v)), 0);
	errno = 0;
	cr_assert_eq(imsg_expect(&imsg, TEST_TYPE + 1, sizeof(v)), -1);
	cr_assert_eq(errno, EBADMSG);
	errno = 0;
	cr_assert_eq(imsg_expect(&imsg, TEST_TYPE, sizeof(v) - 1), -1);
	cr_assert_eq(errno, EBADMSG);
	errno = 0;
	cr_assert_eq(imsg_expect(&imsg, TEST_TYPE, sizeof(v) + 1), -1);
	cr_assert_eq(errno, EBADMSG);
	errno = 0;
	cr_assert_eq(imsg_get_data(&imsg, &v, sizeof(v) - 1), -1);
	cr_assert_eq(errno, EBADMSG);
	imsg_free(&imsg);
}

/*
 * A socket buffer far smaller than the queue: writes are partial and the
 * reader sees every message whole and in order.
 */
Test(framing, partial_writes)
{
	struct imsg	 imsg;
	uint8_t		*buf;
	int		 sndbuf = 4096;
	size_t		 i, got = 0, loops = 0;

	cr_assert_eq(setsockopt(pair_sv[0], SOL_SOCKET, SO_SNDBUF, &sndbuf,
	    sizeof(sndbuf)), 0);
	cr_assert_not_null(buf = malloc(IMSG_MAX_PAYLOAD));
	for (i = 0; i < 40; i++) {
		memset(buf, (int)i, IMSG_MAX_PAYLOAD);
		cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, i, 0, -1, buf,
		    (i * 4099) % IMSG_MAX_PAYLOAD), 0);
	}
	while (got < 40) {
		cr_assert_lt(loops++, 100000);
		cr_assert_eq(imsgbuf_write(&pair_wr), 0);
		if (imsgbuf_read(&pair_rd) == -1)
			cr_assert_eq(errno, EAGAIN);
		while (imsgbuf_get(&pair_rd, &imsg) == 1) {
			cr_assert_eq(imsg_get_peerid(&imsg), got);
			cr_assert_eq(imsg_get_len(&imsg),
			    (got * 4099) % IMSG_MAX_PAYLOAD);
			memset(buf, (int)got, IMSG_MAX_PAYLOAD);
			if (imsg_get_len(&imsg) > 0)
				cr_assert_arr_eq(imsg.data, buf,
				    imsg_get_len(&imsg));
			imsg_free(&imsg);
			got++;
		}
	}
	cr_assert_eq(imsgbuf_queuelen(&pair_wr), 0);
	cr_assert_eq(pair_wr.outq_bytes, 0);
	free(buf);
}

/* Writing to a peer that is gone fails without SIGPIPE. */
Test(framing, write_to_closed_peer)
{
	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 0, 0, -1, NULL, 0), 0);
	close(pair_sv[1]);
	pair_sv[1] = -1;
	cr_assert_eq(imsgbuf_write(&pair_wr), -1);
	cr_assert_eq(errno, EPIPE);
}

/* Reading again before taking messages fills the buffer without harm. */
Test(framing, read_until_full)
{
	struct imsg	 imsg;
	uint8_t		*buf;
	/* One more message than the read buffer holds. */
	int		 i, got = 0, n = IMSG_RBUF_SIZE / MAX_IMSGSIZE + 1;

	cr_assert_not_null(buf = calloc(1, IMSG_MAX_PAYLOAD));
	for (i = 0; i < n; i++)
		cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, i, 0, -1, buf,
		    IMSG_MAX_PAYLOAD), 0);
	cr_assert_eq(imsgbuf_flush(&pair_wr), 0);
	while (pair_rd.rlen < IMSG_RBUF_SIZE)
		cr_assert_gt(imsgbuf_read(&pair_rd), 0);
	cr_assert_eq(imsgbuf_read(&pair_rd), -1);
	cr_assert_eq(errno, EAGAIN);
	while (got < n) {
		while (imsgbuf_get(&pair_rd, &imsg) == 1) {
			cr_assert_eq(imsg_get_peerid(&imsg), got);
			imsg_free(&imsg);
			got++;
		}
		if (got < n)
			cr_assert_gt(imsgbuf_read(&pair_rd), 0);
	}
	free(buf);
}

/*
 * Large payloads are taken in place from the read block.  Later reads
 * must not write over one while its imsg lives (they go on in another
 * block), and once every imsg is freed the block is reused, not
 * another allocated.
 */
Test(framing, inplace_payload_outlives_reads)
{
	struct imsg		 held, imsg;
	struct imsg_rblock	*block;
	uint8_t			*buf;
	int			 i, n = 3 * IMSG_RBUF_SIZE / MAX_IMSGSIZE;
	int			 got = 0, loops = 0;
	ssize_t			 r;

	cr_assert_not_null(buf = malloc(IMSG_MAX_PAYLOAD));
	for (i = 0; i < 2 * n; i++) {
		memset(buf, i, IMSG_MAX_PAYLOAD);
		cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, i, 0, -1, buf,
		    IMSG_MAX_PAYLOAD), 0);
	}
	memset(&held, 0, sizeof(held));
	block = NULL;
	while (got < 2 * n) {
		cr_assert_lt(loops++, 100000);
		cr_assert_eq(imsgbuf_write(&pair_wr), 0);
		r = imsgbuf_read(&pair_rd);
		cr_assert(r > 0 || (r == -1 && errno == EAGAIN));
		while (imsgbuf_get(&pair_rd, &imsg) == 1) {
			cr_assert_eq(imsg_get_peerid(&imsg), got);
			memset(buf, got, IMSG_MAX_PAYLOAD);
			cr_assert_arr_eq(imsg.data, buf, IMSG_MAX_PAYLOAD);
			if (got == 0)
				held = imsg;	/* kept over the next reads */
			else
				imsg_free(&imsg);
			got++;
			if (got == n) {
				/* The reads went on in another block. */
				cr_assert_neq(held.rblock, pair_rd.rblock);
				memset(buf, 0, IMSG_MAX_PAYLOAD);
				cr_assert_arr_eq(held.data, buf,
				    IMSG_MAX_PAYLOAD);
				imsg_free(&held);
				block = pair_rd.rblock;
			}
		}
	}
	/* Nothing held since: every read went to the same block. */
	cr_assert_eq(pair_rd.rblock, block);
	free(buf);
}

/*
 * 64 MiB of the largest messages, composed, sent, taken and freed one
 * by one: the sender's buffers and the reader's block are reused, so
 * the process does not grow with the bytes sent.
 */
Test(framing, buffers_reused_not_grown)
{
	struct imsg	 imsg;
	uint8_t		*buf;
	uint64_t	 start;
	int		 i;

	cr_assert_not_null(buf = calloc(1, IMSG_MAX_PAYLOAD));
	start = vm_hwm_kb();
	cr_assert_gt(start, 0);
	for (i = 0; i < 4096; i++) {
		cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, i, 0, -1, buf,
		    IMSG_MAX_PAYLOAD), 0);
		cr_assert_eq(imsgbuf_flush(&pair_wr), 0);
		cr_assert_eq(wait_get(&pair_rd, &imsg), 1);
		cr_assert_eq(imsg_get_peerid(&imsg), (uint32_t)i);
		imsg_free(&imsg);
	}
	cr_assert_leq(vm_hwm_kb() - start, 16 * 1024, "grew by %" PRIu64
	    " kB", vm_hwm_kb() - start);
	free(buf);
}
