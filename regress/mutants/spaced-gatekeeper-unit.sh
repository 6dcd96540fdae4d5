#!/bin/sh
# Mutation check of gatekeeper/spaced-gatekeeper/gk_rules.c: each mutant removes or weakens
# one protection, and the unit test that expect names must go red.  Builds by
# hand (gcc, ASan+UBSan) against gk_rules.c alone, in a temp dir; the
# tree is never modified.  Usage: sh regress/mutants/spaced-gatekeeper-unit.sh
# MUTANT_FILTER=regex runs only the mutants whose label matches.
# Prints one line per mutant and "N killed, N survived"; exits 1 when a
# mutant survives or the unmutated source fails.
set -u
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CF="-std=gnu11 -O1 -g -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter \
    -Wno-unused-function -I. -Icommon/lib -Icommon/proto -Igatekeeper/spaced-gatekeeper -fsanitize=address,undefined \
    -fno-sanitize-recover=all"
tests=$(ls regress/unit/spaced-gatekeeper/gk_addr_test.c \
    regress/unit/spaced-gatekeeper/gk_target_test.c \
    regress/unit/spaced-gatekeeper/gk_window_test.c)
killed=0
survived=0
want=

# expect ERE: the test (suite::name) that must go red for the next run;
# a kill by other tests alone counts against the mutant.
expect() { want=$1; }

# run <label> <python replacement pairs, "old" => "new", separated by @@>
run() {
	label=$1
	if [ -n "${MUTANT_FILTER:-}" ] && [ "$label" != original ] &&
	    ! printf '%s\n' "$label" | grep -q -- "$MUTANT_FILTER"; then
		want=
		return
	fi
	python3 - "$2" <<'EOF' >"$tmp/gk_rules.c" || { echo "BROKEN mutant: $label"; exit 1; }
import sys
src = open("gatekeeper/spaced-gatekeeper/gk_rules.c").read()
for pair in sys.argv[1].split("@@"):
    if not pair.strip():
        continue
    old, new = pair.split("=>")
    old = old.strip().encode().decode("unicode_escape")
    new = new.strip().encode().decode("unicode_escape")
    if src.count(old) != 1:
        sys.exit("mutation anchor not found once: %r" % old)
    src = src.replace(old, new)
sys.stdout.write(src)
EOF
	# shellcheck disable=SC2086
	if ! cc $CF -o "$tmp/t" "$tmp/gk_rules.c" $tests -lcriterion \
	    -lpthread 2>"$tmp/cc.log"; then
		echo "BROKEN mutant (does not build): $label"
		cat "$tmp/cc.log"
		exit 1
	fi
	if "$tmp/t" --jobs 2 --timeout 30 >"$tmp/out" 2>&1; then
		if [ "$label" = original ]; then
			echo "ok: original passes"
			return
		fi
		echo "SURVIVED: $label"
		survived=$((survived + 1))
	else
		if [ "$label" = original ]; then
			echo "FAILED: the original source fails its tests"
			tail -n 20 "$tmp/out"
			exit 1
		fi
		n=$(grep -c '^\[FAIL\]' "$tmp/out")
		red=$(grep '^\[FAIL\]' "$tmp/out" |
		    sed 's/^\[FAIL\] //; s/: (.*//' | tr '\n' ' ')
		if [ -n "$want" ] && ! echo "$red" | grep -Eq -- "$want"; then
			echo "killed by another test than $want: $label ($red)"
			survived=$((survived + 1))
		else
			echo "killed: $label ($n tests red: $red)"
			killed=$((killed + 1))
		fi
	fi
	want=
}

run original ""
for r in "0x00000000, 8" "0x0a000000, 8" "0x64400000, 10" "0x7f000000, 8" \
    "0xa9fe0000, 16" "0xac100000, 12" "0xc0000000, 24" "0xc0a80000, 16" \
    "0xc6120000, 15" "0xe0000000, 4" "0xf0000000, 4"; do
	expect 'addr::(v4_ranges_and_edges|blocked_and_public_samples)'
	run "remove IPv4 range {$r}" "{ $r }, => "
done
expect 'addr::sixtofour_embeds_every_v4_range'
run "remove the embedded-IPv4 (6to4) check" \
    "return v4_blocked(be32_at(a + 2)); => return 0;"
expect 'addr::v6_blocked'
run "remove Teredo 2001::/32" \
    "a[2] == 0x00 && a[3] == 0x00) => a[2] == 0x00 && a[3] == 0x00 && 0)"
expect 'addr::v6_blocked'
run "remove the outside-2000::/3 rule" \
    "if ((a[0] & 0xe0) != 0x20) => if (0)"
expect 'addr::other_families_blocked'
run "unknown address family allowed" \
    "		return 1;\n	}\n}\n\nenum gk_refusal\ngk_choose => 		return 0;\n	}\n}\n\nenum gk_refusal\ngk_choose"
expect 'choose::any_blocked_answer_refuses_all'
run "choose: check only the first answer" \
    "for (i = 0; i < n; i++)\n		if (gk_addr_blocked => for (i = 0; i < 1; i++)\n		if (gk_addr_blocked"
expect 'choose::prefers_first_ipv4'
run "choose: first answer, not first IPv4" \
    "pick = i;\n			break; => break;"
expect 'window::encoded_dotdot_at_every_depth'
run "fixed point cut to 3 rounds" \
    "	ssize_t	n;\n => 	ssize_t	n;\n	int	rounds = 0;\n@@	for (;;) {\n		/* A NUL => 	for (;;) {\n		if (rounds++ == 3)\n			return 0;\n		/* A NUL"
expect 'window::path_must_refuse'
run "a rest that will not decode let through" \
    "if ((n = decode_round(buf, len)) == -1)\n			return 1; => if ((n = decode_round(buf, len)) == -1)\n			return 0;"
expect 'window::path_must_refuse'
run "decoded NUL allowed" \
    "if (memchr(buf, '\\\\0', len) != NULL)\n			return 1; => "
expect 'window::path_must_refuse'
run "backslash not a separator" \
    "s[i] != '/' && s[i] != '\\\\\\\\' => s[i] != '/'"
expect 'window::path_must_refuse'
run "semicolon not a separator" \
    "s[i] != ';' && => "
expect 'window::length_cap'
run "no length cap on the rest" \
    "if (rest == NULL || len > sizeof(buf)) => if (rest == NULL || len > sizeof(buf) + 1000000)"
expect 'name::normalize'
run "trailing dot stripped twice (while)" \
    "if (inlen > 0 && in[inlen - 1] == '.') => while (inlen > 0 && in[inlen - 1] == '.')"
expect 'target::refused_spellings'
run "port \"0443\" accepted (leading zeros skipped)" \
    "return len == 3 && memcmp(port, \"443\", 3) == 0; => while (len > 3 && *port == '0') { port++; len--; }\n	return len == 3 && memcmp(port, \"443\", 3) == 0;"
expect 'name::normalize|target::refused_spellings'
run "single-label names allowed" \
    "if (labels < 2) => if (labels < 1)"
expect 'target::address_spellings_refused_as_not_a_name'
run "numeric last label allowed" \
    "if (i == inlen && last_label_is_numeric => if (0 && last_label_is_numeric"
expect 'target::address_spellings_refused_as_not_a_name'
run "0x last label allowed" \
    "if (len >= 2 && label[0] == '0' && to_lower(label[1]) == 'x')\n		return 1; => "
expect 'target::refused_spellings'
run "underscore allowed" \
    "(c >= '0' && c <= '9') || c == '-'; => (c >= '0' && c <= '9') || c == '-' || c == '_';"
expect 'target::label_and_name_length_edges'
run "label length unchecked" \
    "i - label_start > LABEL_MAX => 0"
expect 'target::label_and_name_length_edges'
run "whole length unchecked" \
    "inlen > GK_NAME_MAX || => "
expect 'target::refused_spellings'
run "edge hyphens allowed" \
    "if (in[label_start] == '-' || in[i - 1] == '-')\n			return -1; => "
expect 'target::refused_spellings'
run "always-refused compared before normalizing (raw host)" \
    "if (strcmp(name, GK_ALWAYS_REFUSED) == 0) => if (hostlen == 15 && memcmp(host, GK_ALWAYS_REFUSED, 15) == 0)"
expect 'target::allowlist_exact_match'
run "allowlist by suffix" \
    "	return bsearch(&name, => 	for (size_t k = 0; k < al->al_count; k++) { size_t a = strlen(name), b = strlen(al->al_names[k]); if (a >= b && strcmp(name + a - b, al->al_names[k]) == 0) return 1; }\n	return bsearch(&name,"
expect 'split::target'
run "bracketed host unwrapped" \
    "*host = target;\n		*hostlen = close - target + 1; => *host = target + 1;\n		*hostlen = close - target - 1;"
expect 'window::grant_id_rule'
run "grant id charset unchecked" \
    "if (!is_ldh((unsigned char)id[i]) && id[i] != '_') => if (0)"
expect 'window::grant_id_rule'
run "grant id takes '.' (control's old rule)" \
    "id[i] != '_') => id[i] != '_' && id[i] != '.')"
expect 'window::grant_id_control_equals_window|window::split'
run "grant id length unchecked" \
    "len > GK_GRANT_ID_MAX) => 0)"
expect 'window::grant_id_control_equals_window'
run "window split skips the shared grant id rule" \
    "if (!gk_grant_id_ok(p, idlen) || => if (idlen == 0 ||"

echo "$killed killed, $survived survived"
[ "$survived" -eq 0 ]
