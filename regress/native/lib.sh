# Shared by the native place's suites: the integration library, and a
# private spaced on the native place with an install id of its own
# ($IID), its files under $T; space $A and spaced go at the end.
. "$(dirname "$0")/../integration/lib.sh"

sc() { "$tree/bin/spacectl" -s "$sd/run/spaced.sock" "$@"; }

native_end() {
	[ -n "${A:-}" ] && sc remove "$A" >/dev/null 2>&1
	stop_spaced
	rm -rf "$T" "$tree"
}

# native_begin TAG: root, else a skip; $T (/tmp/spaced-nsTAG.*), $tree,
# $IID, and the cleanup.
native_begin() {
	if [ "$(id -u)" != 0 ]; then
		skip "the native place needs root (namespaces and cgroup groups)"
		finish
	fi
	T=$(mktemp -d "/tmp/spaced-ns$1.XXXXXX")
	chmod 0755 "$T"
	make_tree
	IID=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
	at_finish native_end
}

# native_space NAME [CONF]: spaced started on the native place (CONF:
# more spaced.conf lines), then space $A made and checked, $dir its
# state folder.
native_space() {
	SPACED_EXTRA_CONF="install id $IID
default place native${2:+
$2}"
	start_spaced "$T/sd" || { not_ok "spaced starts"; finish; }
	A=$(sc create -n "$1") || A=
	check "a native space ($A)" test -n "$A"
	[ -n "$A" ] || finish
	dir="$sd/state/native/$A"
}

# size_of NAME: the bytes of $dir/NAME and its turned-over files.
size_of() { cat "$dir/$1"* | wc -c; }
total() { size_of gk.log; }
# settled NAME: those files, copied by spaced-ns as the gatekeeper
# writes, stop growing (read a second apart).
settled() {
	s_last=-1
	while [ "$(size_of "$1")" != "$s_last" ]; do
		s_last=$(size_of "$1")
		sleep 1
	done
}
