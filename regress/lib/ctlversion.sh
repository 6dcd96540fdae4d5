# The control protocol's version, from this tree's ctl_proto.h: the one
# place every raw client of the control socket learns it (sourced, POSIX
# sh).  It exports CTL_VERSION, which ctl_raw.py, session/rawexec.py and
# the suites' inline clients put in a peerid's low byte; none of them
# has a number of its own (a bump once broke a dozen that did).
# $top is the tree.
CTL_VERSION=$(sed -n 's/^#define[[:space:]]*CTL_PROTO_VERSION[[:space:]]*\([0-9][0-9]*\)[[:space:]]*$/\1/p' \
    "$top/common/proto/ctl_proto.h")
case $CTL_VERSION in
[1-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5]) ;;
*)	echo "ctlversion.sh: no CTL_PROTO_VERSION in $top/common/proto/ctl_proto.h" >&2
	exit 1 ;;
esac
export CTL_VERSION
