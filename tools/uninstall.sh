#!/bin/sh
# Takes back what make install put: the programs, the man pages, the unit
# and the completion.  What the spaces live on stays: spaced.conf, the
# state directory and the journal store, the spaces and images, the
# _spaced-* users (spaced(8)).
#	uninstall.sh PREFIX SYSTEMDDIR [DESTDIR]
set -eu
prefix=$1 systemddir=$2 destdir=${3:-}
sbin=$destdir$prefix/sbin/spaced

# A spaced of this install that runs would lose its workers' programs
# under it at the next start of one: it is stopped first.  Its exe link
# names the file, every symlink of the way resolved; so must we.
real=$(readlink -f "$sbin" 2>/dev/null) || real=$sbin
for p in /proc/[0-9]*; do
	exe=$(readlink "$p/exe" 2>/dev/null) || continue
	if [ "$exe" = "$real" ]; then
		echo "uninstall: spaced runs from $sbin (pid ${p#/proc/}):" \
		    "stop it first (systemctl stop spaced), nothing removed" >&2
		exit 1
	fi
done

# An enabled unit would be left a link to nothing: disabled first.
for l in "$destdir"/etc/systemd/system/*.wants/spaced.service; do
	[ -L "$l" ] || continue
	echo "uninstall: spaced.service is enabled ($l):" \
	    "systemctl disable spaced first, nothing removed" >&2
	exit 1
done

for f in "$prefix/sbin/spaced" "$prefix/bin/spacectl" \
    "$prefix/share/man/man5/spaced.conf.5" \
    "$prefix/share/man/man8/spaced.8" "$prefix/share/man/man8/spacectl.8" \
    "$prefix/share/man/man8/spaced-gatekeeper.8" \
    "$systemddir/spaced.service" \
    "$prefix/share/bash-completion/completions/spacectl"; do
	rm -f "$destdir$f"
done
# The folder is spaced's own: every worker, space-hosts, the filler.
rm -rf "$destdir$prefix/libexec/spaced"
echo "uninstall: removed spaced from $destdir$prefix; left spaced.conf," \
    "the state directory, the journals, the spaces, the images and the" \
    "_spaced-* users"
