#!/bin/sh
# early.sh (a receiver that exits 0 before the pack's end) against the
# native place.  A native space sees the host's /usr read-only, so the
# receiver is bound over /usr/bin/git in a mount namespace of this suite
# alone, where spaced and its spaces run; it is git for everyone else.
SPACED_TEST_PLACE=native
export SPACED_TEST_PLACE
here=$(cd "$(dirname "$0")" && pwd)
# Not root: the library says the native place needs it (a skip).
[ "$(id -u)" = 0 ] || exec sh "$here/early.sh"
exec unshare -m --propagation private sh -c \
    'mount --bind "$1" /usr/bin/git && exec sh "$2"' sh \
    "$here/early-receiver" "$here/early.sh"
