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
 * fuzz-link: common/proto/tools_frame.c worker-docker/docker_frames.c worker-docker/docker_harden_tools.c worker-docker/docker_harden.c worker-docker/docker_verify.c worker-docker/docker_verify_res.c worker-docker/docker_netpool.c common/proto/labels.c common/proto/agent.c common/proto/tools_key.c
 *
 * What the tools-check one-shot gives back, hostile: the first byte is
 * the exit code, the rest the exec's multiplexed output, taken apart by
 * the frame reader and kept as tools_stream.c keeps it (stdout capped
 * at TOOLS_MARKER_OUT_MAX, truncated beyond), then judged by the marker
 * rule; the same bytes as the one-shot's inspect for its checker.  The
 * rule must never call FILLED anything but exactly the key with exit 0,
 * nor ABSENT anything but exit 42; the checker never passes a non-object.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worker-docker/docker_frames.h"
#include "worker-docker/docker_harden_tools.h"
#include "worker-docker/docker_tools.h"

#define KEY	"0123456789abcdef"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct frame_reader		 fr;
	struct harden_tools_params	 p;
	struct harden_report		 r;
	uint8_t				 out[TOOLS_MARKER_OUT_MAX], type;
	const uint8_t			*d, *buf;
	size_t				 olen = 0, used, dlen, left, room;
	int				 trunc = 0, code, rv;
	enum tools_verdict		 v;
	json_t				*o;

	if (len < 1)
		return 0;
	code = (int)data[0] - 1;	/* -1 .. 254 */
	buf = data + 1;
	left = len - 1;
	frame_reader_init(&fr);
	while (left > 0) {
		rv = frame_feed(&fr, buf, left, &used, &type, &d, &dlen);
		if (rv == -1)
			break;
		if (rv == 1 && type == FRAME_STDOUT) {
			room = sizeof(out) - olen;
			if (dlen > room)
				trunc = 1;
			memcpy(out + olen, d, dlen < room ? dlen : room);
			olen += dlen < room ? dlen : room;
		}
		buf += used;
		left -= used;
		if (rv == 0 && used == 0)
			break;
	}
	v = tools_marker_verdict(1, code, out, olen, trunc, KEY);
	if (v == TOOLS_VERDICT_FILLED && (code != 0 || olen != 16 || trunc ||
	    memcmp(out, KEY, 16) != 0))
		abort();
	if ((v == TOOLS_VERDICT_ABSENT) != (code == 42))
		abort();
	if ((code != 0 && code != 42) && v != TOOLS_VERDICT_REJECT)
		abort();
	if (tools_marker_verdict(0, code, out, olen, trunc, KEY) !=
	    TOOLS_VERDICT_REJECT)
		abort();

	memset(&p, 0, sizeof(p));
	p.tp_role = data[0] % 3 == 0 ? TOOLS_ROLE_FILL : data[0] % 3 == 1 ?
	    TOOLS_ROLE_CHECK : TOOLS_ROLE_FILL_GK;
	p.tp_gk_image = "spaced-gatekeeper:latest";
	p.tp_image = "spaced-space:latest";
	p.tp_volume = "spaced-tools-0123456789abcdef-0-" KEY;
	p.tp_owner = "0123456789abcdef:0";
	p.tp_key = KEY;
	p.tp_description = "x";
	p.tp_created = "2026-01-31T12:00:00Z";
	p.tp_uid = 2000000123;
	o = harden_json_parse(data + 1, len - 1);
	harden_report_init(&r);
	harden_verify_tools(o, &p, &r);
	if (!json_is_object(o) && r.hr_n == 0)
		abort();
	json_decref(o);
	return 0;
}
