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
 * What the engine reports for a create body: the shape of GET
 * /containers/{id}/json as Engine 20.10.24 builds it (compare data/):
 * Config from the body, HostConfig echoed with the defaults filled in
 * (MemorySwap 0 is twice the memory), volume mounts under .Mounts,
 * tmpfs only in HostConfig.Tmpfs, one NetworkSettings key per network.
 * The recorded inspects are the truth; this lets a builder be checked
 * without an engine, every field the builder sets included.
 */

#include <string.h>

#include "shape.h"

json_t *
shape_inspect(const json_t *body, const char *name)
{
	json_t		*c, *cfg, *hc, *mounts, *nets, *m, *v;
	const char	*mode, *src;
	char		 path[256];
	size_t		 i;

	hc = json_deep_copy(json_object_get(body, "HostConfig"));
	if (hc == NULL)
		return NULL;
	cfg = json_pack("{s:O?, s:O?, s:O?, s:O?, s:O?, s:O?, s:O?, s:b}",
	    "Image", json_object_get(body, "Image"),
	    "User", json_object_get(body, "User"),
	    "Env", json_object_get(body, "Env"),
	    "Entrypoint", json_object_get(body, "Entrypoint"),
	    "Cmd", json_object_get(body, "Cmd"),
	    "Labels", json_object_get(body, "Labels"),
	    "Healthcheck", json_object_get(body, "Healthcheck"),
	    "NetworkDisabled", json_is_true(json_object_get(body,
	    "NetworkDisabled")));
	/* The engine's defaults, where the body left a field out. */
	if (json_integer_value(json_object_get(hc, "MemorySwap")) == 0)
		json_object_set_new(hc, "MemorySwap", json_integer(2 *
		    json_integer_value(json_object_get(hc, "Memory"))));
	if (json_object_get(hc, "ShmSize") == NULL)
		json_object_set_new(hc, "ShmSize", json_integer(64 << 20));
	if (json_object_get(hc, "IpcMode") == NULL)
		json_object_set_new(hc, "IpcMode", json_string("private"));
	if (json_object_get(hc, "Runtime") == NULL)
		json_object_set_new(hc, "Runtime", json_string("runc"));
	json_object_set_new(hc, "PidMode", json_string(""));
	json_object_set_new(hc, "UTSMode", json_string(""));
	json_object_set_new(hc, "UsernsMode", json_string(""));
	json_object_set_new(hc, "CgroupParent", json_string(""));
	/* Engine 20.10's default masks (docker_verify.c wants them all). */
	json_object_set_new(hc, "MaskedPaths", json_pack("[s,s,s,s,s,s,s,s,s,s]",
	    "/proc/asound", "/proc/acpi", "/proc/kcore", "/proc/keys",
	    "/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats",
	    "/proc/sched_debug", "/proc/scsi", "/sys/firmware"));
	json_object_set_new(hc, "ReadonlyPaths", json_pack("[s,s,s,s,s]",
	    "/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys",
	    "/proc/sysrq-trigger"));

	mounts = json_array();
	json_array_foreach(json_object_get(hc, "Mounts"), i, m) {
		src = json_string_value(json_object_get(m, "Source"));
		if (strcmp(json_string_value(json_object_get(m, "Type")),
		    "bind") == 0) {
			/* the engine's way: the source as given, no name */
			json_array_append_new(mounts, json_pack(
			    "{s:s, s:O, s:O, s:s, s:b, s:O}",
			    "Type", "bind", "Source", json_object_get(m,
			    "Source"), "Destination", json_object_get(m,
			    "Target"), "Mode", "",
			    "RW", !json_is_true(json_object_get(m, "ReadOnly")),
			    "Propagation", json_object_get(json_object_get(m,
			    "BindOptions"), "Propagation")));
			continue;
		}
		(void)snprintf(path, sizeof(path),
		    "/var/lib/docker/volumes/%s/_data", src ? src : "");
		json_array_append_new(mounts, json_pack(
		    "{s:O, s:O?, s:s, s:O?, s:s, s:s, s:b, s:s}",
		    "Type", json_object_get(m, "Type"),
		    "Name", json_object_get(m, "Source"),
		    "Source", path,
		    "Destination", json_object_get(m, "Target"),
		    "Driver", "local", "Mode", "z",
		    "RW", !json_is_true(json_object_get(m, "ReadOnly")),
		    "Propagation", ""));
	}
	mode = json_string_value(json_object_get(hc, "NetworkMode"));
	nets = json_object();
	/* A disabled network: no sandbox, no network attached. */
	if (!json_is_true(json_object_get(body, "NetworkDisabled")))
		json_object_set_new(nets, mode ? mode : "default", json_pack(
		    "{s:n, s:s}", "Aliases", "NetworkID", ""));
	v = json_string(name);
	/* An engine without AppArmor, as this machine's. */
	c = json_pack("{s:o, s:s, s:o, s:o, s:o, s:{s:o}}", "Name", v,
	    "AppArmorProfile", "",
	    "Config", cfg, "HostConfig", hc, "Mounts", mounts,
	    "NetworkSettings", "Networks", nets);
	return c;
}
