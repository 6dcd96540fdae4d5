#!/bin/sh
# Mutation check of make uninstall: each mutant takes one part away, and
# integration/spaced.sh must go red by the test mutant_expect names.
# About half a minute a mutant.
# Usage: sh regress/mutants/install.sh [label-substring]
. "$(dirname "$0")/lib.sh"

mutant_live "$MUTANT_CONTROL" GNUmakefile "" integration/spaced.sh

mutant_expect "make uninstall refuses while it runs"
mutant_live "a running spaced not looked for" tools/uninstall.sh \
    "	if [ \"\$exe\" = \"\$real\" ]; then => 	if false; then" \
    integration/spaced.sh
mutant_expect "  and by a PREFIX reached through a symlink"
mutant_live "the PREFIX compared as given" tools/uninstall.sh \
    "real=\$(readlink -f \"\$sbin\" 2>/dev/null) || real=\$sbin => real=\$sbin" \
    integration/spaced.sh
mutant_expect "no file of the install is left"
mutant_live "the unit forgotten" tools/uninstall.sh \
    "    \"\$systemddir/spaced.service\" \\\\\n => " integration/spaced.sh
mutant_expect "make uninstall refuses while spaced.service is enabled"
mutant_live "an enabled unit not looked for" tools/uninstall.sh \
    "	[ -L \"\$l\" ] || continue => 	continue" integration/spaced.sh
mutants_end
