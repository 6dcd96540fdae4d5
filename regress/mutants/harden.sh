#!/bin/sh
# Mutation check of the hardening checkers and labels: each mutant
# removes one check, and the harden unit suite must go red.  Only the
# builders, the checkers, labels.c and agent.c are compiled, with the suite,
# from the copy lib.sh makes: a few seconds a mutant.
# Usage: sh regress/mutants/harden.sh [label-substring]
. "$(dirname "$0")/lib.sh"
CF="-std=gnu11 -O0 -g -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter \
    $(pkg-config --cflags libbsd-overlay jansson)"
LIBS="$(pkg-config --libs libbsd-overlay jansson criterion)"

# harden_build <tree>: the suite from that tree's sources, as $tmp/t
harden_build() {
	# shellcheck disable=SC2086
	cc $CF -I"$1" -I"$1/common/lib" -I"$1/common/proto" -I"$1/regress/lib" \
	    -I"$1/worker-docker" -o "$tmp/t" \
	    "$1/worker-docker/docker_harden.c" "$1/worker-docker/docker_verify.c" \
	    "$1/worker-docker/docker_verify_res.c" \
	    "$1/worker-docker/docker_netpool.c" \
	    "$1/common/proto/labels.c" "$1/common/proto/agent.c" \
	    "$1/regress/unit/spaced-docker/labels.c" \
	    "$1/regress/unit/spaced-docker/shape.c" \
	    "$1/regress/unit/spaced-docker/verify.c" \
	    "$1/regress/unit/spaced-docker/netpool_test.c" $LIBS \
	    2>"$tmp/cc.log"
}

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	harden_build "$tmp/src" ||
	    { echo "BROKEN mutant: $1"; cat "$tmp/cc.log"; exit 1; }
	(cd "$tmp/src" && "$tmp/t" --timeout 30) >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^\[FAIL\]' 's/^\[FAIL\] //; s/: (.*//'
}

if [ "${MUTANT_DRY:-0}" != 1 ]; then
	harden_build "$top" || { cat "$tmp/cc.log"; exit 1; }
	"$tmp/t" >"$tmp/run.log" 2>&1 || {
		echo "unmutated sources fail"; grep -A3 FAIL "$tmp/run.log"; exit 1; }
fi

V=worker-docker/docker_verify.c
R=worker-docker/docker_verify_res.c
L=common/proto/labels.c
mutant_expect 'planted::report_bounded_and_unique'
mutant "no init check" $V 'verify_add(r, pf, "init", => (void)("init",'
mutant_expect 'planted::report_bounded_and_unique'
mutant "no readonly check" $V 'verify_add(r, pf, "readonly_rootfs", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no tmpfs check" $V 'verify_add(r, pf, "tmpfs", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no privileged check" $V 'verify_add(r, pf, "privileged", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no masked paths check" $V 'verify_add(r, pf, "masked_paths", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "capabilities not normalised" $V 'cap_norm(json_string_value(v), cap, sizeof(cap)); => strlcpy(cap, json_string_value(v), sizeof(cap));'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no cap_drop check" $V 'verify_add(r, pf, "cap_drop", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no cap_add check" $V 'verify_add(r, pf, "cap_add", => (void)("",'
mutant_expect 'planted::report_bounded_and_unique'
mutant "no no_new_privileges check" $V 'verify_add(r, pf, "no_new_privileges", "no no-new-privileges"); => ;'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no seccomp check" $V 'verify_add(r, pf, "seccomp", => (void)("",'
mutant_expect 'recorded::each_planted_violation_named_alone'
mutant "label=disable always excused" $V 'else if (caused && strcmp(s, "label=disable") == 0) => else if (strcmp(s, "label=disable") == 0)'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no pids check" $V 'verify_add(r, pf, "pids_limit", => (void)("",'
mutant_expect 'builder::other_parameters_verify_clean'
mutant "no memory check" $V 'verify_add(r, pf, "memory", "not => (void)("", "not'
mutant_expect 'planted::each_mutation_named_alone'
mutant "swap 0 taken as equal" $V 'swap = 2 * mem; => swap = mem;'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no swap check" $V 'verify_add(r, pf, "memory_swap", => (void)("",'
mutant_expect 'builder::other_parameters_verify_clean'
mutant "no cpu check" $V 'verify_add(r, pf, "cpu", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "CpuShares ignored" $V '||\n\t    !verify_inteq(hc, "CpuShares", HARDEN_CPU_SHARES)) => )'
mutant_expect 'planted::report_bounded_and_unique'
mutant "no ipc check" $V 'verify_add(r, pf, "ipc", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no cgroupns check" $V 'verify_add(r, pf, "cgroupns", => (void)("",'
mutant_expect 'planted::report_bounded_and_unique'
mutant "no pid_mode check" $V 'verify_add(r, pf, "pid_mode", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no uts_mode check" $V 'verify_add(r, pf, "uts_mode", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no userns_mode check" $V 'verify_add(r, pf, "userns_mode", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no cgroup_parent check" $V 'verify_add(r, pf, "cgroup_parent", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no ports check" $V 'verify_add(r, pf, "ports", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no devices check" $V 'verify_add(r, pf, "devices", => (void)("",'
mutant_expect 'recorded::each_planted_violation_named_alone'
mutant "no sysctls check" $V 'verify_add(r, pf, "sysctls", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no runtime check" $V 'verify_add(r, pf, "runtime", "not => (void)("", "not'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no restart check" $V 'verify_add(r, pf, "restart_policy", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no log check" $V 'verify_add(r, pf, "log_config", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "log options not counted" $V 'json_object_size(v) != 3 || => '
mutant_expect 'planted::report_bounded_and_unique'
mutant "no user check" $V 'verify_add(r, pf, "user", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no image check" $V 'verify_add(r, pf, "image", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no env secret check" $V 'if (s == NULL || harden_env_secret(s)) => if (s == NULL)'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no gatekeeper env allowlist" $V 'strcmp(s, HARDEN_GK_ENV) != 0 && strncmp(s, "PATH=", 5) != 0) => 0)'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no healthcheck check" $V 'verify_add(r, pf, "healthcheck", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "argv under the relay unchecked" $V 'verify_add(r, pf, "command",\n\t\t\t\t\t    "not the command asked for"); => ;'
mutant_expect 'planted::each_mutation_named_alone'
mutant "Cmd beside unchecked" $V 'verify_add(r, pf, "command", "a Cmd beside the entrypoint"); => ;'
mutant_expect 'planted::each_mutation_named_alone'
mutant "no name check" $V 'verify_add(r, ex->ex_prefix, "name", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "labels: role not demanded" $R '    role, &m); =>     -1, &m);'
mutant_expect 'planted::each_mutation_named_alone'
mutant "labels: other fields not compared" $R 'strcmp(m.sm_name, p->hp_meta.sm_name) != 0 || => '
mutant_expect 'planted::each_mutation_named_alone'
mutant "binds unchecked" $V 'verify_add(r, pf, "mounts", "a bind"); => ;'
mutant_expect 'planted::each_mutation_named_alone'
mutant "volumes-from unchecked" $V 'verify_add(r, pf, "mounts", "volumes from another container"); => ;'
mutant_expect 'planted::each_mutation_named_alone'
mutant "foreign destinations unchecked" $V 'verify_add(r, pf, "mounts", "%.60s", dest ? dest : "?"); => ;'
mutant_expect 'recorded::each_planted_violation_named_alone'
mutant "socket not special" $V 'verify_add(r, pf, "runtime_socket", "the engine\x27s socket");\n\t\t\tcontinue; => ;'
mutant_expect 'planted::each_mutation_named_alone'
mutant "mount RW unchecked" $V '(want[j].wm_rw ? !verify_is_true(m, "RW") :\n\t\t    !json_is_false(json_object_get(m, "RW")))) => 0)'
mutant_expect 'planted::each_mutation_named_alone'
mutant "mount name unchecked" $V 'strcmp(name, want[j].wm_name) != 0 || => '
mutant_expect 'planted::report_bounded_and_unique'
mutant "missing mounts unchecked" $V 'if (want[j].wm_seen != 1) => if (want[j].wm_seen > 1)'
mutant_expect 'planted::each_mutation_named_alone'
mutant "extra networks allowed" $V 'json_object_size(nets) != 1 || => '
mutant_expect 'planted::each_mutation_named_alone'
mutant "NetworkMode unchecked" $V '!verify_streq(hc, "NetworkMode", net) || => '
mutant_expect 'planted::each_mutation_named_alone'
mutant "extra_hosts unchecked" $V 'verify_add(r, "", "extra_hosts", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "gk extra_hosts unchecked" $V 'verify_add(r, GK_PREFIX, "extra_hosts", "extra hosts"); => ;'
mutant_expect 'planted::each_mutation_named_alone'
mutant "network internal allowed" $R 'verify_add(r, "", "network_internal", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "network ipv6 allowed" $R 'verify_add(r, "", "network_ipv6", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "network driver unchecked" $R 'verify_add(r, "", "network_driver", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "network scope unchecked" $R 'verify_add(r, "", "network_scope", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "network name unchecked" $R 'verify_add(r, "", "network_name", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "volume options allowed" $R 'verify_add(r, "", "volume_options", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "volume driver unchecked" $R 'verify_add(r, "", "volume_driver", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "volume name unchecked" $R 'verify_add(r, "", "volume_name", => (void)("",'
mutant_expect 'planted::each_mutation_named_alone'
mutant "runtime labels unchecked" $R 'NULL, p->hp_runtime_key)) != NULL) => NULL, p->hp_runtime_key)) != NULL && 0)'
mutant_expect 'recorded::create_warning_is_a_failure'
mutant "create warnings ignored" $R 'if (!verify_empty(w))\n\t\tverify_add(r, "", "create_warnings", "%.80s",\n\t\t    json_is_array(w) => if (0)\n\t\tverify_add(r, "", "create_warnings", "%.80s",\n\t\t    json_is_array(w)'
mutant_expect 'planted::each_mutation_named_alone'
mutant "network create warning ignored" $R 'w = json_object_get(a, "Warning");\n\tif (!verify_empty(w)) => w = json_object_get(a, "Warning");\n\tif (0)'
mutant_expect 'planted::each_mutation_named_alone'
mutant "create Id unchecked" $R 'if (i != 64 || => if (0 &&'
mutant_expect 'planted::not_an_inspect'
mutant "duplicate keys accepted" $R 'JSON_REJECT_DUPLICATES => 0'
mutant_expect 'planted::not_an_inspect'
mutant "no size cap" $R 'len > HARDEN_INSPECT_MAX => 0'
mutant_expect 'planted::each_mutation_named_alone'
mutant "names not deduplicated" $R 'if (harden_report_has(r, name))\n\t\treturn; => '
mutant_expect 'labels::user_ids_strict'
mutant "id length not checked" $L 'return hex_valid(s, SPACE_ID_LEN, SPACE_ID_LEN); => return hex_valid(s, 1, 64);'
mutant_expect 'labels::hostile'
mutant "upper-case hex taken" $L "(s[n] >= 'a' && s[n] <= 'f'))) => (s[n] >= 'a' && s[n] <= 'f') || (s[n] >= 'A' && s[n] <= 'F')))"
mutant_expect 'labels::hostile'
mutant "owner not compared" $L 'if (!space_owner_valid(owner) ||\n\t    (v = label(labels, LABEL_OWNER)) == NULL || strcmp(v, owner) != 0) => if (!space_owner_valid(owner))'
mutant_expect 'labels::hostile'
mutant "marker not checked" $L 'if ((v = label(labels, LABEL_MARKER)) == NULL || strcmp(v, "true") != 0) => if (0)'
mutant_expect 'labels::hostile'
mutant "id not compared" $L 'if (id != NULL && strcmp(v, id) != 0) => if (0)'
mutant_expect 'labels::hostile'
mutant "role not compared" $L 'if (r != -1 && role != r) => if (0)'
mutant_expect 'labels::runtime'
mutant "runtime key not compared" $L '(v = label(labels, LABEL_RUNTIME_KEY)) == NULL ||\n\t    strcmp(v, key) != 0) => (v = label(labels, LABEL_RUNTIME_KEY)) == NULL)'
mutant_expect 'builder::refuses_bad_parameters'
mutant "builder: secret env taken" worker-docker/docker_harden.c 'if (harden_env_secret(e))\n\t\treturn "environment name looks like a secret"; => '
mutant_expect 'builder::bodies_match_the_recording'
mutant "builder: swap 0" worker-docker/docker_harden.c '"MemorySwap", (json_int_t)memory, => "MemorySwap", (json_int_t)0,'
mutant_expect 'builder::ca_variables_with_the_bundle_only'
mutant "builder: no read-only socket" worker-docker/docker_harden.c 'volume_mount(sock, HARDEN_SOCKET_DIR, 1, 1) => volume_mount(sock, HARDEN_SOCKET_DIR, 0, 1)'
mutant_expect 'planted::each_mutation_named_alone'
mutant "hosts bind source unchecked" $V '!verify_streq(m, "Source", want[j].wm_name) || => '
mutant_expect 'planted::each_mutation_named_alone'
mutant "hosts bind propagation unchecked" $V '!verify_streq(m, "Propagation", "rprivate") : => 0 :'
mutant_expect 'planted::each_mutation_named_alone'
mutant "hosts bind taken as a volume" $V '(want[j].wm_bind ? strcmp(type, "bind") != 0 || => (want[j].wm_bind ? 0 ||'
mutant_expect 'planted::each_mutation_named_alone'
mutant "space network not demanded disabled" $V '!verify_is_true(json_object_get(c, "Config"), "NetworkDisabled") || => '
mutant_expect 'planted::each_mutation_named_alone'
mutant "space networks attached allowed" $V '!verify_empty(nets))\n\t\t\tverify_add(r, pf, "network", "not disabled"); => 0)\n\t\t\tverify_add(r, pf, "network", "not disabled");'
mutant_expect 'planted::each_mutation_named_alone'
mutant "space NetworkMode unchecked" $V 'if (!verify_streq(hc, "NetworkMode", "none") || => if ('
mutant_expect 'builder::ca_variables_with_the_bundle_only'
mutant "builder: hosts bind writable" worker-docker/docker_harden.c '"Source", source, "Target", target, "ReadOnly", 1, => "Source", source, "Target", target, "ReadOnly", 0,'
mutant_expect 'builder::bodies_match_the_recording'
mutant "builder: network enabled" worker-docker/docker_harden.c '"NetworkDisabled", 1, => "NetworkDisabled", 0,'
mutant_expect 'builder::refuses_bad_parameters'
mutant "builder: hosts path unchecked" worker-docker/docker_harden.c 'if (!host_path_valid(p->hp_hosts))\n\t\treturn "bad hosts file"; => '
mutant_expect 'builder::refuses_bad_parameters'
mutant "builder: hosts path with .. taken" common/proto/agent.c "(n == 2 && p[0] == '.' && p[1] == '.')) => 0)"
mutant_expect 'builder::network_and_volumes'
mutant "builder: no CheckDuplicate" worker-docker/docker_harden.c '"CheckDuplicate", 1, => "CheckDuplicate", 0,'

# issue 27: limits, the OOM score, groups, AppArmor, the masks' content
mutant_expect "each_mutation_named_alone|each_planted_violation_named_alone"
mutant "no ulimits check" $V 'verify_add(r, pf, "ulimits", => (void)("",'
mutant_expect "each_mutation_named_alone|each_planted_violation_named_alone"
mutant "core limit not compared" $V '!ulimit_is(u, "core", 0) || => '
mutant_expect "each_mutation_named_alone|each_planted_violation_named_alone"
mutant "no oom_score_adj check" $V 'verify_add(r, pf, "oom_score_adj", => (void)("",'
mutant_expect "each_mutation_named_alone|each_planted_violation_named_alone"
mutant "no group_add check" $V 'verify_add(r, pf, "group_add", => (void)("",'
mutant_expect "each_mutation_named_alone|each_planted_violation_named_alone"
mutant "no apparmor check" $V 'verify_add(r, ex->ex_prefix, "apparmor", => (void)("",'
mutant_expect "each_mutation_named_alone|each_planted_violation_named_alone"
mutant "masks only non-empty" $V 'else if (!has_all(json_object_get(hc, "MaskedPaths"), masked_paths) ||\n\t    !has_all(json_object_get(hc, "ReadonlyPaths"), readonly_paths)) => else if (verify_empty(json_object_get(hc, "MaskedPaths")) ||\n\t    verify_empty(json_object_get(hc, "ReadonlyPaths")))'
mutant_expect "bodies_match_the_recording|shaped_bodies_verify_clean"
mutant "builder: core files" worker-docker/docker_harden.c '"Name", "core", "Soft", 0, "Hard", 0, => "Name", "core", "Soft", -1, "Hard", -1,'
mutant_expect "bodies_match_the_recording|shaped_bodies_verify_clean"
mutant "builder: the image's uid" worker-docker/docker_harden.c 'if (harden_user(user, sizeof(user), p->hp_uid) == -1) => if (harden_user(user, sizeof(user), HARDEN_SPACE_UID) == -1)'
mutant_expect "verify_names_a_subnet_outside_the_pool"
mutant "network subnet unchecked" $R 'if (p->hp_pool.np_pool_prefix == 0) => if (1)'
mutant_expect "engine_networks_mark_what_they_overlap"
mutant "pool: a network over the pool's edge not marked" worker-docker/docker_netpool.c 'if (lo < plo)\n\t\tlo = plo; => if (lo < plo)\n\t\treturn;'

mutants_end
