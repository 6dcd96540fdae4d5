#!/bin/sh
# Mutation check of spaced.service under a real systemd (issue 26):
# integration/systemd.sh must go red, by the named test, when spaced
# never says READY=1, when the unit reloads without checking the file
# first, or when it does not restart spaced after a worker's death.
# Built in a copy of the tree under a temp dir; the tree itself is
# never modified.  About three minutes a mutant (no READY: five, the
# start's 90 s timeout twice).
# Usage: sh regress/mutants/systemd.sh [label-substring]
. "$(dirname "$0")/lib.sh"

mutant() { mutant_live "$@" integration/systemd.sh; }

mutant "$MUTANT_CONTROL" GNUmakefile ""
mutant_expect 'systemctl start spaced returns'
mutant "no READY=1" supervisor/spaced/spaced.c \
    'service_notify("READY=1"); => ;'
mutant_expect 'systemctl reload with a bad file fails'
mutant "reload sends SIGHUP unchecked" etc/spaced.service \
    "ExecReload=@SBINDIR@/spaced -n => ExecReload=/bin/true"
mutant_expect 'Restart=on-failure starts it'
mutant "no restart" etc/spaced.service \
    "Restart=on-failure => Restart=no"

mutants_end
