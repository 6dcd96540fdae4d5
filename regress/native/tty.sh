#!/bin/sh
# exec -t on the native place (issue 25): session/tty.sh, unchanged,
# against a native space (SPACED_TEST_PLACE=native, contract/lib.sh):
# a pty of the space's own devpts, the pane's size, a resize, Ctrl-C,
# Ctrl-D, the exit status, the local terminal restored, job control
# (SIGTSTP, SIGSTOP, fg), another client's resize refused, create
# --code.  About a minute and a half.
SPACED_TEST_PLACE=native
export SPACED_TEST_PLACE
exec sh "$(dirname "$0")/../session/tty.sh" "$@"
