#!/bin/sh
# Mutation check of the reload (issue 26): the live suite
# regress/integration/spaced-reload.sh must go red, by the named test,
# when a file that does not parse is taken in part, a setting only a
# restart changes is taken live, or a file renamed over spaced.conf is
# taken though another uid owns it or others may write it.  Built in a copy of the tree under a
# temp dir; the tree itself is never modified.  About a minute a mutant.
# Usage: sh regress/mutants/reload.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries
	SPACED_BUILD="$tmp/src/build" \
	    sh "$tmp/src/regress/integration/spaced-reload.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""
mutant_expect 'the old value stays'
mutant "a file that does not parse is taken as far as it went" \
    supervisor/spaced/reload.c \
    "next, err, sizeof(err)) == -1) { => next, err, sizeof(err)) == -2) {"
mutant_expect 'only a restart changes is named'
mutant "a restart-only setting is taken live" supervisor/spaced/config.c \
    "\t\tif (config_keywords[i].live) { => \t\tif (1) {"
mutant_expect 'a file of another owner is refused'
mutant "a reload takes a file of another owner" supervisor/spaced/reload.c \
    "sb.st_uid != 0 && sb.st_uid != geteuid() => 0"
mutant_expect 'a file others may write is refused'
mutant "a reload takes a file others may write" supervisor/spaced/reload.c \
    "(sb.st_mode & 002) != 0 || => 0 &&"
mutant_expect 'a file another group may write is refused'
mutant "a reload takes a file another group may write" supervisor/spaced/reload.c \
    "sb.st_gid != 0 && sb.st_gid != getegid() => 0"
mutant_expect "a file root's group may write .0664. is taken"
mutant "a reload refuses its own group's 0664 (the rule of before)" \
    supervisor/spaced/reload.c "sb.st_gid != 0 && sb.st_gid != getegid() => 1"
mutant_expect 'no event line says uid -1'
mutant "spaced's own events logged as uid -1" supervisor/spaced/events.c \
    'strlcpy(who, "spaced", sizeof(who)); => snprintf(who, sizeof(who), "uid %d", (int)owner);'

mutants_end
