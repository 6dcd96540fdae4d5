#!/bin/sh
# Mutation check of the pack writer (worker-git/spaced-git/git_pack.c) and the
# pack index parser (worker-git/spaced-git/packidx.c): each mutant removes one
# protection, and the git unit tests (reuse/*, packidx/*) must go red.
# Built in a copy of the tree under a temp dir; the tree itself is
# never modified.  Under a minute a mutant.
# Usage: sh regress/mutants/pack.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" build/regress/unit/spaced-git
	(cd "$tmp/src" && timeout 600 build/regress/unit/spaced-git -j2 \
	    --filter '@(reuse|packidx)/*') >"$tmp/run.log" 2>&1
	set -- "$1" $?
	grep -q 'Tested: [1-9]' "$tmp/run.log" ||
	    { echo "BROKEN: no test ran"; exit 1; }
	mutant_judge "$1" "$2" '^\[FAIL\]' 's/^\[FAIL\] //; s/: (.*//'
}

# The controls: each way of running, on the unmutated tree.
mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect 'reuse::a_damaged_entry_is_not_sent'
mutant "a small entry goes without its CRC check" worker-git/spaced-git/git_pack.c \
    " ||\n\t\t    crc32(0, p, end - off) != want) => )"
mutant_expect 'reuse::a_damaged_large_entry_ends_the_pack'
mutant "a large entry goes without its CRC check" worker-git/spaced-git/git_pack.c \
    "if (crc == want)\n\t\treturn 0; => if (1)\n\t\treturn 0;"
mutant_expect 'reuse::a_damaged_entry_is_not_sent'
mutant "a delta goes as stored though its base stays behind" \
    worker-git/spaced-git/git_pack.c \
    "if (base == NULL || base->po_written == 0)\n\t\treturn pack_write_whole(po, o); => if (base == NULL || base->po_written == 0)\n\t\treturn pack_copy(po, o, NULL, 0, 0);"
mutant_expect 'reuse::what_the_space_does_not_reach_stays'
mutant "every object of the repository's packs goes (its packs as they are)" \
    worker-git/spaced-git/git_pack.c \
    "\tpacks_open(&po, r);\n => \tpacks_open(&po, r);\n\tfor (int k = 0; k < po.po_npacks; k++) for (uint32_t j = 0; j < po.po_packs[k].pf_idx.pi_count; j++) { git_oid x; memcpy(x.id, packidx_oid(&po.po_packs[k].pf_idx, j), 20); objset_add(&os, &x); }\n"
mutant_expect 'reuse::a_large_entry_streams'
mutant "a delta is re-based on the wrong offset" worker-git/spaced-git/git_pack.c \
    "po->po_offset - base->po_written); => po->po_offset - base->po_written + 1);"
mutant_expect 'packidx::refuses_each_lie'
mutant "the index's pack checksum is not compared" worker-git/spaced-git/packidx.c \
    "if (memcmp(idx + len - 2 * PACK_TRAILER, trailer, PACK_TRAILER) != 0) { => if (0) {"
mutant_expect 'packidx::refuses_each_lie'
mutant "offsets are not bounded by the pack" worker-git/spaced-git/packidx.c \
    "if (off < PACK_HEAD || off >= pi->pi_datasize) { => if (0) {"
mutant_expect 'packidx::refuses_each_lie'
mutant "two objects may share an offset" worker-git/spaced-git/packidx.c \
    "if (i > 0 && pi->pi_byoffset[i].pa_offset ==\n\t\t    pi->pi_byoffset[i - 1].pa_offset) { => if (0) {"
mutant_expect 'packidx::refuses_each_lie'
mutant "a large offset's index is not bounded" worker-git/spaced-git/packidx.c \
    "(v & 0x7fffffffU) >= pi->pi_nlarge) { => (v & 0x7fffffffU) >= UINT32_MAX) {"
mutant_expect 'packidx::refuses_each_lie'
mutant "ids are not checked in order" worker-git/spaced-git/packidx.c \
    "(i > 0 && memcmp(oid - PACK_OID_LEN, oid, PACK_OID_LEN) >= 0)) { => 0) {"
mutant_expect 'packidx::headers_round_trip'
mutant "a header's size may run past its bytes" worker-git/spaced-git/packidx.c \
    "if (i == len || shift > 60 - 7) => if (shift > 60 - 7)"

mutants_end
