# The native tools fill's cache (sourced): a filled tree under
# /var/cache/spaced/native-tools/<key>, the key the hash of the fill's
# inputs (the filler, the built-in profile, the key and framing code,
# the host's node and npm), as tools/images.sh keys the images.  A tree
# whose marker is not the current tools key is filled anew by spaced-ns
# all the same: the cache only saves the minutes of npm.
tc_top=$(cd "$(dirname "$0")/../.." && pwd)
tc_key=$(cat "$tc_top/worker-docker/spaced-filler.js" \
    "$tc_top/common/proto/agent.c" "$tc_top/common/proto/tools_key.c" \
    "$tc_top/common/proto/tools_frame.c" "$tc_top/common/proto/tools_key.h" \
    "$tc_top/common/proto/space_agent.h" |
    { cat; node --version 2>&1; npm --version 2>&1; } | sha256sum | cut -c1-16)
tc_dir=/var/cache/spaced/native-tools/$tc_key

# tools_cache_seed NATIVE_STATE INSTALL UID: the cached tree, where
# spaced-ns looks for that owner's tools; 0 when there was one.
tools_cache_seed() {
	[ -f "$tc_dir/fill/.spaced-filled" ] || return 1
	mkdir -p "$1/tools" &&
	    cp -a "$tc_dir" "$1/tools/spaced-tools-$2-$3-$(cat "$tc_dir/fill/.spaced-filled")" &&
	    echo "# the tools fill from the cache $tc_dir"
}

# tools_cache_keep DIR: a tree spaced-ns filled, into the cache.
tools_cache_keep() {
	[ ! -f "$tc_dir/fill/.spaced-filled" ] && [ -f "$1/fill/.spaced-filled" ] || return 0
	mkdir -p "${tc_dir%/*}" && rm -rf "$tc_dir.new" &&
	    cp -a "$1" "$tc_dir.new" && mv "$tc_dir.new" "$tc_dir" &&
	    echo "# the tools fill cached in $tc_dir"
}
