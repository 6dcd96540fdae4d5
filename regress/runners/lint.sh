#!/bin/sh
# regress/lint.sh's own test: in a copy of the tree, each planted
# violation makes lint fail under its rule's name; the untouched copy
# passes (the control).  Usage: lint.sh BUILD (a current build).
. "$(dirname "$0")/../lib/harness.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
T=$(mktemp -d)
at_finish 'rm -rf "$T"'

# A fresh copy of the tracked tree, and a build of links to the real one.
copy()
{
	rm -rf "$T/tree" "$T/build"
	mkdir -p "$T/tree" "$T/build"
	(cd "$top" && git ls-files | tar -cf - -T -) | tar -xf - -C "$T/tree"
	for d in "$build"/*/; do ln -s "$d" "$T/build/$(basename "$d")"; done
}

# lint_red RULE DESCRIPTION: lint fails, naming the rule.
lint_red()
{
	if sh "$T/tree/regress/lint.sh" "$T/build" >"$T/out" 2>&1; then
		not_ok "$2" "lint passed:" "$(tail -3 "$T/out")"
	elif grep -q "^lint: $1 " "$T/out"; then
		ok "$2"
	else
		not_ok "$2" "lint failed, but not under \"$1\":" "$(tail -3 "$T/out")"
	fi
}

copy
check "the untouched tree passes (control)" \
    sh "$T/tree/regress/lint.sh" "$T/build"

copy
echo '#include "docker_harden.h"' >> "$T/tree/supervisor/spacectl/spacectl.c"
lint_red include "include: spacectl including spaced-docker's header"
copy
echo '#include "supervisor/spaced/spaced.h"' >> "$T/tree/worker-docker/docker.c"
lint_red include "include: a path into another program"

copy
printf 'static void\nf(struct imsg *imsg)\n{\n\tint x;\n\n\t(void)imsg_get_data(imsg, &x, sizeof(x));\n}\n' \
    >> "$T/tree/supervisor/spaced/ops.c"
lint_red imsg "imsg: an unchecked imsg_get_data"
copy
printf 'static void\ng(struct imsg *imsg)\n{\n\tint x;\n\n\timsg_get_data(imsg, &x, sizeof(x));\n}\n' \
    >> "$T/tree/supervisor/spaced/ops.c"
lint_red imsg "imsg: a call that is a whole statement, tab-indented"

copy
i=0; while [ $i -lt 801 ]; do echo "/* $i */"; i=$((i + 1)); done \
    > "$T/tree/worker-docker/docker_long.c"
lint_red size "size: a source of 801 lines"

copy
echo '.Xx not a macro' >> "$T/tree/docs/spaced.8"
lint_red man "man: a man page mandoc warns about"

# A circle needs objects: a program of two files that call each other.
copy
mkdir -p "$T/tree/worker-probe" "$T/probe"
echo '# probe' > "$T/tree/worker-probe/module.mk"
printf 'void b(void);\nvoid a(void);\nvoid a(void) { b(); }\n' > "$T/tree/worker-probe/a.c"
printf 'void a(void);\nvoid b(void);\nvoid b(void) { a(); }\n' > "$T/tree/worker-probe/b.c"
mkdir -p "$T/build/worker-probe"
${CC:-cc} -c -o "$T/build/worker-probe/a.o" "$T/tree/worker-probe/a.c" &&
    ${CC:-cc} -c -o "$T/build/worker-probe/b.o" "$T/tree/worker-probe/b.c"
lint_red circle "circle: two files of one program calling each other"
rm "$T/build/worker-probe/b.o" "$T/tree/worker-probe/b.c"
check "circle: the same program without the call back passes (control)" \
    sh "$T/tree/regress/lint.sh" "$T/build"

copy
echo "size supervisor/spaced/ops.c" > "$T/tree/regress/lint-pending"
lint_red stale "pending: an entry that no longer fails"

finish
