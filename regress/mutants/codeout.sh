#!/bin/sh
# Mutation check of code out's checks in spaced-git: the tree policy
# (tree_policy.c), the scan of a pack (packscan.c) and the quarantine's
# walk (quarantine.c); each mutant removes one rule, and the unit test
# that names it must go red.
# Built in a copy of the tree under a temp dir; the tree itself is
# never modified.
# Usage: sh regress/mutants/codeout.sh [label-substring]
. "$(dirname "$0")/lib.sh"

P=worker-git/spaced-git/tree_policy.c

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" build/regress/unit/spaced-git
	(cd "$tmp/src" && timeout 600 build/regress/unit/spaced-git -j2 \
	    --filter '@(policy|packscan|quarantine)/*') >"$tmp/run.log" 2>&1
	set -- "$1" $?
	grep -q 'Tested: [1-9]' "$tmp/run.log" ||
	    { echo "BROKEN: no test ran"; exit 1; }
	mutant_judge "$1" "$2" '^\[FAIL\]' 's/^\[FAIL\] //; s/: (.*//'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

# Never allowed: .git in each disguise.
mutant_expect 'policy::dotgit_in_every_disguise'
mutant "a .git component passes" $P \
    "else if (policy_name_is_dotgit(path + start, i - start))\n\t\t\tbits |= POLICY_DOTGIT; => else if (0)\n\t\t\tbits |= POLICY_DOTGIT;"
mutant_expect 'policy::dotgit_in_every_disguise'
mutant ".GIT: the case of a name counts" $P \
    "return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; => return c;"
mutant_expect 'policy::dotgit_in_every_disguise'
mutant ".git. and .git+space: NTFS's trailing dots and spaces" $P \
    "if (c != '.' && c != ' ')\n\t\t\treturn 0; => return 0;"
mutant_expect 'policy::dotgit_in_every_disguise'
mutant ".git::\$INDEX_ALLOCATION: an NTFS stream" $P \
    "if ((c = fold_next(f)) == -1 || c == ':') => if ((c = fold_next(f)) == -1)"
mutant_expect 'policy::dotgit_in_every_disguise'
mutant "GIT~1: an NTFS short name" $P \
    "if (fold_word(&f, six) && fold_tilde_number(&f) && fold_rest_empty(&f))\n\t\treturn 1; => "
mutant_expect 'policy::dotgit_in_every_disguise'
mutant ".g<ZWNJ>it: HFS+ ignorable code points" $P \
    "if (left < 3)\n\t\treturn 0; => return 0;"
mutant_expect 'policy::dotgit_in_every_disguise'
mutant "a\\\\.git: a backslash separates on Windows" $P \
    "return policy_name_is(name, len, \"git\", NULL); => return piece_is(name, len, \"git\", NULL);"
# Never allowed: out of the tree.
mutant_expect 'policy::dotdot_and_absolute'
mutant ".. components pass" $P "bits |= POLICY_DOTDOT; => ;"
mutant_expect 'policy::dotdot_and_absolute'
mutant "absolute paths pass" $P \
    "if (path[0] == '/')\n\t\tbits |= POLICY_ABSOLUTE; => "
mutant_expect 'policy::symlinks'
mutant "a link climbs above the tree" $P "depth == 0) => 0)"
mutant_expect 'policy::symlinks'
mutant "a link's .. after a component (x -> ., y -> x/..)" $P \
    "descended ||\n => (descended && 0) ||\n"
mutant_expect 'policy::symlinks'
mutant "a link to an absolute target" $P "target[0] == '/' || => "
mutant_expect 'policy::symlinks'
mutant "a link into .git" $P "bits |= POLICY_SYMLINK_GIT; => bits |= 0;"
mutant_expect 'policy::modes'
mutant "a gitlink passes" $P "return bits | POLICY_GITLINK; => return bits;"
mutant_expect 'policy::modes'
mutant "an unknown mode passes" $P \
    "return bits | POLICY_BAD_MODE; => return bits;"
mutant_expect 'policy::caps'
mutant "no cap on a path's length" $P "bits |= POLICY_PATH_TOO_LONG; => bits |= 0;"
mutant_expect 'policy::caps'
mutant "no cap on depth" $P "bits |= POLICY_TOO_DEEP; => bits |= 0;"
mutant_expect 'policy::caps'
mutant "no cap on a tree's width" $P "POLICY_TOO_MANY : 0 => 0 : 0"
# Allowed by name only.
mutant_expect 'policy::allowable_reasons'
mutant ".gitmodules is not flagged" $P "bits |= POLICY_GITMODULES; => bits |= 0;"
mutant_expect 'policy::allowable_reasons'
mutant "an attributes driver is not flagged" $P \
    "memcmp(buf + start, drivers[k], n) == 0)\n\t\t\t\treturn 1; => memcmp(buf + start, drivers[k], n) == 0)\n\t\t\t\treturn 0;"
mutant_expect 'policy::allowable_reasons'
mutant "a new executable is not flagged" $P \
    "if (pe->pe_old_mode != POLICY_MODE_EXEC) => if (0)"
mutant_expect 'policy::caps'
mutant "a large file is not flagged" $P \
    "if (pe->pe_size > pc->pc_file_max) => if (0)"
mutant_expect 'policy::names_of_reasons'
mutant "a never-allowed reason can be allowed by name" $P \
    " &&\n\t\t    (reason_names[i].rn_bit & POLICY_ALLOWABLE) != 0) => )"
mutant_expect 'policy::escape'
mutant "control bytes reach the terminal" $P \
    "if (n == 1 && (p[i] < 0x20 || p[i] >= 0x7f)) { => if (n == 1 && p[i] >= 0x7f) {"

# The pack's scan.
S=worker-git/spaced-git/packscan.c
mutant_expect 'packscan::zlib_bomb_stops_early'
mutant "a zlib bomb inflates past its declared size" $S \
    "if (made > ps->ps_size - ps->ps_out) => if (0)"
mutant_expect 'packscan::sizes_over_caps_refused_before_inflating'
mutant "no cap on one object's size" $S \
    "if (n > ps->ps_caps.ps_object_max) => if (0)"
mutant_expect 'packscan::a_million_objects_refused_at_the_header'
mutant "no cap on the number of objects" $S \
    "if (ps->ps_count > ps->ps_caps.ps_objects_max) => if (0)"
mutant_expect 'packscan::deltas_that_lie'
mutant "a delta on an id is read" $S \
    "return fail(ps, \"a delta on a base named by id\"); => return data_start(ps);"
mutant_expect 'packscan::deltas_that_lie'
mutant "no cap on a delta chain" $S \
    "if (ps->ps_depth > ps->ps_caps.ps_chain_max) => if (0)"
mutant_expect 'packscan::cut_short_and_too_long'
mutant "bytes after the trailer pass" $S \
    "return fail(ps, \"bytes after the pack's end\"); => return 0;"
mutant_expect 'packscan::cut_short_and_too_long'
mutant "a pack cut short passes" $S \
    "if (ps->ps_state != PS_DONE) => if (0)"
# The quarantine's walk.
Q=worker-git/spaced-git/quarantine.c
mutant_expect 'quarantine::packs_that_lie'
mutant "a commit need not descend from the start" $Q \
    "if (!descends(w, c)) { => if (!descends(w, c) && 0) {"
mutant_expect 'quarantine::packs_that_lie'
mutant "an object no new commit reaches passes" $Q \
    "if (!w.w_pack.os_seen[i]) { => if (0) {"
mutant_expect 'quarantine::packs_that_lie'
mutant "a missing object passes" $Q \
    "w->w_why = \"an object the new commits name is missing\";\n\t\treturn -1; => return 0;"
mutant_expect 'quarantine::a_trick_in_an_earlier_commit_counts'
mutant "only the last commit is judged" $Q \
    "if (check_commit(&w, &order[i]) == -1) => if (git_oid_equal(&order[i], tip) && check_commit(&w, &order[i]) == -1)"
mutant_expect 'quarantine::a_submodule_of_the_base'
mutant "an entry is the start's by its mode alone (a moved gitlink passes)" $Q \
    "git_oid_equal(git_tree_entry_id(a),\n\t    git_tree_entry_id(b)) && git_tree_entry_filemode_raw(a) == => git_tree_entry_filemode_raw(a) =="

# The quarantine process (live: codeout/codeout.sh through spaced; about
# two minutes a mutant).  Its chroot and its uid: without either, the
# process is caught outside its folder or as root.
live_mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries build/regress/tools/repo-compare
	SPACED_BUILD="$tmp/src/build" timeout 900 \
	    sh "$tmp/src/regress/codeout/${SUITE:-codeout.sh}" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}
L=common/lib/sandbox_priv.c
mutant_expect "its root the space's quarantine folder"
live_mutant "the quarantine is not chrooted" $L \
    "if (chroot(\".\") == -1 || chdir(\"/\") == -1) => if (0)"
mutant_expect "runs as _spaced-quarantine|no capability"
live_mutant "the quarantine keeps root's uid" $L \
    "setresuid(uid, uid, uid) == -1 ||\n\t    getresuid => getresuid"
mutant_expect "runs as _spaced-quarantine"
live_mutant "the quarantine never drops (spaced-git's pre-warm)" \
    worker-git/spaced-git/main.c \
    "if (geteuid() == 0 &&\n\t    sandbox_drop_to_cwd => if (0 &&\n\t    sandbox_drop_to_cwd"
# The time cap on the script inside (codeout/hang.sh: a FIFO for HEAD).
mutant_expect "the review ends"
SUITE=hang.sh live_mutant "no time cap on the script inside" \
    supervisor/spaced/codeout.c \
    "se->se_timeout_ms = review_timeout() * 1000; => se->se_timeout_ms = 0 * review_timeout(); @@ review_timeout() + REVIEW_INNER_MARGIN); => review_timeout() * 0 + 100000);"
# apply after a review lands the reviewed tip from the store the review
# left, never the space's later work (codeout/codeout.sh: the agent
# changes its work between the two); the quarantine takes its store
# only when its record holds the tip spaced kept; the review is used
# once.
mutant_expect "the reviewed work, not the agent's later change"
live_mutant "apply takes the space's latest despite a kept review" \
    supervisor/spaced/codeout.c \
    "rs->reuse = rs->apply && codeout_kept_find( => rs->reuse = 0 && codeout_kept_find("
mutant_expect "a record apart from spaced's: refused, review again"
live_mutant "the quarantine takes a kept store whose tip is not the expected one" \
    worker-git/spaced-git/qr_kept.c \
    "if (!git_oid_equal(&k->qk_tip, tip)) => if (0)"
mutant_expect "control: the review used, the next apply takes the later change"
live_mutant "a kept review serves more than one apply" \
    supervisor/spaced/codeout.c \
    "codeout_kept_forget(r->r_uid, rs->id);\n\tif (rs->result.ar_mode => if (rs->result.ar_mode"
mutant_expect "after a failed review the one before is not used"
live_mutant "a failed review leaves the review before it kept" \
    supervisor/spaced/codeout.c \
    "review_journal(r, why);\n\t\tcodeout_kept_forget(r->r_uid, rs->id); => review_journal(r, why);"
# One code-out request per space (codeout/hang.sh: a second review
# while the first hangs).
mutant_expect "a second review of the space meanwhile: busy"
SUITE=hang.sh live_mutant "two code-out requests share a space's quarantine" \
    supervisor/spaced/codeout.c \
    "if (codeout_hold(rs->id, r->r_id) == -1) { => if (0) {"
# A space that floods (codeout/flood.sh): the exec's output cap ends it.
mutant_expect "the output cap ended the script"
SUITE=flood.sh live_mutant "no output cap on the script inside" \
    supervisor/spaced/codeout.c \
    "review_exec_init(r, &se, REVIEW_OUTPUT_MAX) => review_exec_init(r, &se, 0)"

# Another owner's remove of the id (codeout/codeout.sh, uid 65534).
mutant_expect "another user's remove of the id leaves its quarantine"
live_mutant "a remove of another owner's id takes its quarantine" \
    supervisor/spaced/remove.c \
    "if (rs->resources > 0 || rs->gone.sd_code[0] != '\\\\0') { => if (1) {"

# review and apply look the space up as the caller before they hold or
# start its quarantine (codeout/codeout.sh, uid 65534 with a copy of
# the owner's start ref).
mutant_expect "another user's review of the id: space_not_found"
live_mutant "review and apply do not look the space up as the caller" \
    supervisor/spaced/codeout.c \
    "rs->step = RV_LOOKUP;\n\treturn place_lookup_caller(r, &sq); => return review_begin(r, rs->dir);"
# Their lookup is the lighter one (sq_look: the containers alone); a
# space is found only where a container of the id is the caller's.
mutant_expect "another user's review of the id: space_not_found"
live_mutant "the lighter lookup finds a space with no container of the caller's" \
    worker-docker/space_list.c \
    "if (sp->nres == 0)\n\t\tdone(rq, ERR_SPACE_NOT_FOUND, NULL, 0); => if (0)\n\t\tdone(rq, ERR_SPACE_NOT_FOUND, NULL, 0);"

# The uncommitted work's date is read from HEAD itself, never by a walk
# to its parents, which a shallow code-in lacks (codeout/codeout.sh).
# (Without the shallow file too: with it, git log stops at base.)
mutant_expect "a shallow code-in: its uncommitted work comes out"
live_mutant "the uncommitted work's date read through git log" \
    supervisor/spaced/codeout_script.c \
    '$G cat-file commit => $G log -1 --format=raw @@ cp .git/shallow => true .git/shallow'
# The script's git directory is shallow where the space's is: a walk
# from base itself (no work) stops there.
mutant_expect "a shallow code-in with no work"
live_mutant "the script's git directory has no shallow file" \
    supervisor/spaced/codeout_script.c \
    'cp .git/shallow => true .git/shallow'
# A HEAD reset behind the start is named, not reviewed as no work.
mutant_expect "the space's HEAD reset behind the start"
live_mutant "a HEAD behind the start reviews as no work" \
    supervisor/spaced/codeout_script.c \
    'exit 66 => true'

# The pack leaves out all of the start's tree, not just base's: the
# user's own uncommitted change in a folder never goes out again.
mutant_expect "the agent's work beside it comes out, the user's change not again"
live_mutant "the pack leaves out base's objects only" \
    supervisor/spaced/codeout_script.c \
    '^%s^{tree} => ^%s'

# A repository's spaced-git whose repository changed owner since it
# started says so, and spaced starts one as the owner now (it was used
# again: libgit2's "safe.directory" refusal).
mutant_expect "a repository of uid 65534 applied by root"
live_mutant "a spaced-git whose repository changed owner is used again" \
    worker-git/spaced-git/git_serve.c \
    'if (repo_owner_changed()) { => if (0) {'

mutants_end
