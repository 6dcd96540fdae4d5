#!/bin/sh
# Mutation check of the journal store's chain (issue 26): each mutant
# removes one protection of gatekeeper/spaced-journal/chain.c, store.c
# or verify.c, and the unit tests of regress/unit/spaced-journal must go
# red in the test named.  Each mutant is built in a copy of the tree
# under a temp dir; the tree itself is never modified.  No root needed.
# Usage: sh regress/mutants/journal-chain.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" build/regress/unit/spaced-journal
	"$tmp/src/build/regress/unit/spaced-journal" --jobs 2 \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^\[FAIL\] ' 's/^\[FAIL\] \([^:]*::[^:]*\).*/\1/'
}

C=gatekeeper/spaced-journal/chain.c
S=gatekeeper/spaced-journal/store.c
V=gatekeeper/spaced-journal/verify.c
T=gatekeeper/spaced-journal/tip_parse.c

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "an_edited_record_is_named|mac_binds_every_field"
mutant "a MAC is never checked" $C \
    "return CRYPTO_memcmp(want, got, CHAIN_MAC_LEN) == 0; => return 1;"
mutant_expect "mac_binds_every_field_and_the_one_before"
mutant "a MAC does not bind the one before" $C \
    "memcpy(msg, prev, CHAIN_MAC_LEN); => memset(msg, 0, CHAIN_MAC_LEN);"
mutant_expect "a_store_moved_to_another_space_is_named"
mutant "the anchor does not bind the store's name" $C \
    "chain_mac(key, zero, body, n, out); => chain_mac(key, zero, \"x\", 1, out);"
mutant_expect "a_removed_record_is_named|reordered_records_are_named"
mutant "verify does not check each record's number" $V \
    "if (cr.cr_entry.je_seq != w->w_next) { => if (0) {"
mutant_expect "the_last_record_removed_is_named_by_the_tip|the_tip_removed_is_named"
mutant "verify does not hold the end against the tip" $V \
    "else if (rv == 1 && tp.stp_seq + 1 > w->w_next) => else if (0)"
mutant_expect "the_tip_removed_is_named"
mutant "a missing tip passes" $V \
    "else if (rv == 0 && w->w_started) => else if (0)"
mutant_expect "the_space_cap_drops_the_oldest_and_says_so"
mutant "verify does not hold the head against the dropped record" $V \
    "if (w->w_started && w->w_first != (w->w_dropped ? w->w_kept : 0)) => if (0)"
mutant_expect "the_last_record_removed_is_named_by_the_tip"
mutant "records missing at the end are written over" $S \
    "if (trv == 1 && (rv == 0 || tp.stp_seq >= st->st_next)) { => if (0) {"
mutant_expect "a_cut_last_line_is_removed_and_the_chain_goes_on|killed_mid_write"
mutant "a line cut by a crash is kept" $S \
    "if (n > 0 && buf[n - 1] != '\\\\n') { => if (0) {"

mutant_expect "a_store_that_cannot_write_counts_nothing"
mutant "a restart is told before its record is on disk" $S \
    "if (store_commit(st) == -1) {\n\t\tst->st_restarts--; => if (0) {\n\t\tst->st_restarts--;"
mutant_expect "verify_holds_the_tips_count_against_the_records"
mutant "verify does not hold the tip's restart count" $V \
    "else if (rv == 1)\n\t\twalk_restarts(w, &tp); => else if (0)\n\t\twalk_restarts(w, &tp);"
mutant_expect "a_batch_full_at_the_restart_still_counts_it_in_the_tip"
mutant "a batch commit writes the tip before the restart is counted" $S \
    "if (store_add_one(st, je, st->st_cursor => if (store_add(st, je, st->st_cursor"
mutant_expect "a_number_tip_write_never_writes_makes_it_unreadable"
mutant "the tip's numbers read as strtoull did (to the first non-digit)" $T \
    "if (s[i] < '0' || s[i] > '9')\n\t\t\treturn -1; => if (s[i] < '0' || s[i] > '9')\n\t\t\tbreak;"
mutant_expect "a_number_tip_write_never_writes_makes_it_unreadable"
mutant "a tip's number past 2^64-1 wraps" $T \
    "if (n > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)\n\t\t\treturn -1; => "
mutant_expect "a_number_tip_write_never_writes_makes_it_unreadable"
mutant "a tip's number may have leading zeros" $T \
    "len > STORE_NUMBER_MAX || (s[0] == '0' && len > 1)) => len > STORE_NUMBER_MAX)"
mutant_expect "a_number_tip_write_never_writes_makes_it_unreadable"
mutant "a tip's number may be empty" $T \
    "if (len == 0 || len > STORE_NUMBER_MAX => if (len > STORE_NUMBER_MAX"
mutant_expect "a_dropped_record_whose_first_kept_is_no_number_is_named"
mutant "a dropped record's first kept read whatever it is (strtoull's 0)" $V \
    "&w->w_kept) == -1) { => &w->w_kept) == -1 && 0) {"
mutant_expect "a_torn_tip_is_named_not_taken_as_record_0"
mutant "open takes an unreadable tip as none" $S \
    "if ((trv = store_tip_read(base, &tp)) == -1) { => if ((trv = store_tip_read(base, &tp)) == -1 && 0) {"
mutants_end
