#!/bin/sh
# The tools volume, live (spec "Tools volume"): spacectl tools fill
# drives the ensure of spaced-docker against the real engine.  A packed
# source (tarballs this suite makes with npm pack, filled with no
# registry package) fills, and its second ensure fills nothing; a fill
# that fails at each step leaves no volume and no one-shot; the marker
# rule against a real volume (no marker, another key, empty: filled
# again; a bad marker under a mounting container: tools_marker_mismatch,
# untouched; an unreadable marker, exit 1 like a daemon hiccup: refused,
# untouched); a stranger's volume of the name is never adopted; two
# fills at once fill once; a new fill prunes an old unused key and keeps
# a mounted one; spacectl tools lists volumes and the spaces mounting
# them.  Last, a fill from the real npm registry with the default
# profile (opencode-ai, nothing cached in the repository), unless
# SPACED_TOOLS_OFFLINE=1.
. "$(dirname "$0")/lib.sh"

if ! sh "$top/tools/images.sh" ping >/dev/null 2>&1 ||
    ! docker image inspect spaced-space:latest >/dev/null 2>&1; then
	skip "tools: no Docker engine or no space image (make images)"
	finish
fi
command -v npm >/dev/null 2>&1 || { skip "tools: no npm to pack with"; finish; }
# The images of this build: the filler's gatekeeper takes -a (another
# build's :latest may not).
images=${TOOLS_IMAGES:-$build/images.env}
if [ ! -f "$images" ]; then
	skip "tools: no $images (make images)"
	finish
fi
GK_IMAGE=$(sed -n 's/^GATEKEEPER_IMAGE=//p' "$images")
make_tree
work=$tree/w; mkdir -p "$work"
cleanup() {
	stop_spaced
	[ -n "${holder:-}" ] && docker rm -f "$holder" >/dev/null 2>&1
	# both installs: the packed one's and the registry one's
	owned_rm ${inst1:-} ${inst:-}
	rm -rf "$tree"
}
trap cleanup EXIT
[ -n "${TOOLS_KEEP:-}" ] && trap - EXIT

# --- the packages: tiny, made here -------------------------------------
mkpkg() {	# mkpkg name postinstall-exit
	p=$work/src-$1; mkdir -p "$p/bin"
	printf '{"name":"%s","version":"1.2.3","bin":{"%s":"bin/la"},"scripts":{"install":"node evil.js","postinstall":"node post.js"}}' \
	    "$1" "$1" >"$p/package.json"
	printf '#!/bin/sh\necho stub >&2; exit 1\n' >"$p/bin/la"; chmod 755 "$p/bin/la"
	# npm's own run of a script would leave this witness in the volume
	printf "require('fs').writeFileSync('/opt/spaced-tools/fill/script-ran', 'x')\n" >"$p/evil.js"
	if [ "$2" -eq 0 ]; then
		printf "require('fs').writeFileSync('bin/la', '#!/bin/sh\\\\necho 1.2.3\\\\n', {mode: 0o755}); require('fs').writeFileSync('status', require('fs').readFileSync('/proc/self/status'))\n" >"$p/post.js"
	else
		printf "process.exit(%s)\n" "$2" >"$p/post.js"
	fi
	(cd "$work" && npm pack "$p" --pack-destination "$work" >/dev/null 2>&1)
}
mkpkg good-agent 0
mkpkg post-fail-agent 1
head -c 4096 /dev/urandom >"$work/broken-agent-1.2.3.tgz"
profile() {	# profile name package binary
	cat <<EOC
agent $1 packed $2 1.2.3 $work/$2-1.2.3.tgz
agent $1 postinstall $2 post.js
agent $1 binary $3 --version
agent $1 serve $3
agent $1 port 27601
agent $1 password env TOOLS_PASSWORD
agent $1 ready GET /health 200 -
EOC
}
SPACED_EXTRA_CONF="gatekeeper image \"$GK_IMAGE\"
$(profile good good-agent good-agent)
$(profile npmfail broken-agent broken-agent)
$(profile postfail post-fail-agent post-fail-agent)
default agent good"
sd=$tree/s1
if start_spaced "$sd"; then ok "spaced starts with three packed profiles"; else
	not_ok "spaced starts with three packed profiles"; cat "$sd/log"; finish; fi
inst=$(cat "$sd/state/install-id")
owner="$inst:$(id -u)"
key_of() { ctl -j tools -a "$1" | jq -r .key; }
vol_of() { ctl -j tools -a "$1" | jq -r .volume; }
K=$(key_of good); V=$(vol_of good)
check "the key is 16 hex, the volume spaced-tools-<install>-<uid>-<key>" \
    sh -c "echo '$K' | grep -Eqx '[0-9a-f]{16}' && [ '$V' = 'spaced-tools-$inst-$(id -u)-$K' ]"
# oneshots KEY: how many one-shot containers of KEY exist; an engine
# error is not 0.
oneshots() {
	_o=$(docker ps -aq --filter "label=spaced.tools.key=$1") ||
	    { echo engine-error; return; }
	printf '%s' "$_o" | grep -c .
}
labels() { docker volume inspect -f '{{json .Labels}}' "$1" 2>/dev/null; }
marker() { docker run --rm --network none --user 0:0 -v "$V:/v:ro" spaced-space:latest cat /v/fill/.spaced-filled 2>/dev/null; }
as_root() { docker run --rm --network none --user 0:0 -v "$V:/v" spaced-space:latest sh -c "$1"; }
fill() { ctl -j tools fill "$@" >"$work/out" 2>"$work/err"; rc=$?; }
# out_is jq-filter: the last fill's answer says so
out_is() { jq -e "$1" "$work/out" >/dev/null 2>&1; }
ok_and() { [ "$rc" -eq 0 ] && out_is "$1"; }
failed_and() { [ "$rc" -ne 0 ] && out_is "$1"; }
# The engine's own answer: no such volume (an engine error is not absence).
no_volume() { docker volume inspect "$1" 2>&1 >/dev/null | grep -q 'no such volume'; }
has_volume() { docker volume inspect "$1" >/dev/null 2>&1; }
labels_are() { labels "$1" | jq -e "$2" >/dev/null 2>&1; }
runs_bin() { [ "$(docker run --rm --network none -v "$V:/opt/spaced-tools:ro" spaced-space:latest /opt/spaced-tools/fill/node_modules/.bin/$1 --version 2>/dev/null)" = "$2" ]; }
# test's own "no" (1), not a docker run that failed (125 and up).
no_script_ran() { docker run --rm --network none -v "$V:/v:ro" spaced-space:latest test -e /v/fill/script-ran; [ $? = 1 ]; }
marker_mode() { docker run --rm --user 0:0 -v "$V:/v:ro" spaced-space:latest stat -c %a /v/fill/.spaced-filled; }

# --- a packed fill, offline by construction: no registry package ------
fill
check "packed fill: exit 0, filled" ok_and ".filled == true and .volume == \"$V\""
check "packed fill: the volume carries marker, owner, role tools, key" labels_are "$V" \
    ".\"spaced.space\" == \"true\" and .\"spaced.space.owner\" == \"$owner\" and .\"spaced.space.role\" == \"tools\" and .\"spaced.tools.key\" == \"$K\""
check "packed fill: the marker holds the key" [ "$(marker)" = "$K" ]
check "packed fill: the launcher works as the space user, read-only" runs_bin good-agent 1.2.3
check "packed fill: npm ran no script of the package (--ignore-scripts)" no_script_ran
check "packed fill: no one-shot left" [ "$(oneshots "$K")" -eq 0 ]
# The filler's rights (issue 27), read from inside it: the good package's
# install script keeps the filler's own /proc/self/status beside it.  Its
# uid is the key's in the default "space uid range" 2000000000-2000999999.
FUID=$((2000000000 + 0x$(echo "$K" | cut -c1-12) % 1000000))
docker run --rm --network none -v "$V:/v:ro" spaced-space:latest \
    cat /v/fill/node_modules/good-agent/status >"$work/probe" 2>&1
# st_uid UID FILE: its Uid and Gid lines are UID four times
st_uid() { grep -Eq "^Uid:[[:space:]]+$1[[:space:]]+$1[[:space:]]+$1[[:space:]]+$1\$" "$2" &&
    grep -Eq "^Gid:[[:space:]]+$1[[:space:]]+$1[[:space:]]+$1[[:space:]]+$1\$" "$2"; }
# st_capless FILE: no capability in any set but the inheritable, no_new_privs
st_capless() { for s in CapEff CapPrm CapBnd CapAmb; do
	grep -Eq "^$s:[[:space:]]+0+\$" "$1" || return 1; done
	grep -Eq '^NoNewPrivs:[[:space:]]+1$' "$1"; }
check "the filler ran as uid $FUID of the range, not root (its /proc/self/status)" \
    st_uid "$FUID" "$work/probe"
check "the filler had no capability and no_new_privs (its /proc/self/status)" \
    st_capless "$work/probe"
# Controls: the same reading of a root container finds root and its
# capabilities (the checks can fail).
docker run --rm --network none --user 0:0 spaced-space:latest \
    cat /proc/self/status >"$work/probe-root" 2>&1
check "control: a root container's status reads as uid 0" st_uid 0 "$work/probe-root"
check_fails "control: ... and as not the filler's uid" st_uid "$FUID" "$work/probe-root"
check_fails "control: ... and with capabilities" st_capless "$work/probe-root"
owner_of() { docker run --rm --network none -v "$V:/v:ro" spaced-space:latest stat -c %u "$1"; }
check "the fill's folder is the filler's uid's, the volume's root stays root's" \
    sh -c "[ \"$(owner_of /v/fill)\" = $FUID ] && [ \"$(owner_of /v)\" = 0 ]"
# Controls: the count sees a container of the key, the absence test a
# volume that is there.
c=$(docker create --network none --label "spaced.tools.key=$K" spaced-space:latest true)
check "control: the one-shot count sees a container of the key" \
    [ "$(oneshots "$K")" -eq 1 ]
docker rm -f "$c" >/dev/null
check "control: the engine answers an inspect of the filled volume" \
    sh -c "docker volume inspect '$V' >/dev/null"
check "control: a name never made is no such volume" \
    no_volume "spaced-none-$inst"
fill
check "a second ensure fills nothing (exit 0, filled false)" ok_and ".filled == false"

# --- a fill that fails at each step leaves nothing ---------------------
step_fails() {	# step_fails profile step exit
	k=$(key_of "$1"); v=$(vol_of "$1")
	fill -a "$1"
	check "$2 fails: tools_fill_failed naming the step (exit $3)" failed_and \
	    ".error == \"tools_fill_failed\" and (.message | contains(\"at step $2 (exit $3)\"))"
	check "$2 fails: no volume left" no_volume "$v"
	check "$2 fails: no one-shot left" [ "$(oneshots "$k")" -eq 0 ]
}
step_fails npmfail npm 3
step_fails postfail postinstall 4

# --- the marker rule, against the real volume ---------------------------
refilled() {	# refilled description
	fill
	check "$1: filled again" ok_and ".filled == true"
	check "$1: the marker holds the key again" [ "$(marker)" = "$K" ]
}
as_root 'rm /v/fill/.spaced-filled'; refilled "no marker (exit 42)"
as_root 'chmod 644 /v/fill/.spaced-filled; printf 0123456789abcdef >/v/fill/.spaced-filled'; refilled "a marker with another key"
as_root 'chmod 644 /v/fill/.spaced-filled; : >/v/fill/.spaced-filled'; refilled "an empty marker"
as_root "chmod 644 /v/fill/.spaced-filled; printf '%s\n' $K >/v/fill/.spaced-filled"; refilled "the key and a newline (not the filler's bytes)"
# An unreadable marker: cat exits 1, as a CLI that lost the daemon did.
as_root 'chmod 000 /v/fill/.spaced-filled'
fill
check "exit 1 of the check (an unreadable marker): refused" failed_and '.message | contains("(exit 1)")'
check "exit 1 of the check: the volume and its marker untouched" sh -c \
    "[ \"$(marker)\" = '$K' ] && [ \"$(marker_mode)\" = 0 ]"
as_root 'chmod 444 /v/fill/.spaced-filled'
fill
check "exit 1 control: readable again, ready without a fill" ok_and ".filled == false"
# A bad marker while a container mounts the volume: never removed.
holder=$(docker create --network none -v "$V:/opt/spaced-tools:ro" spaced-space:latest true)
as_root 'chmod 644 /v/fill/.spaced-filled; printf fedcba9876543210 >/v/fill/.spaced-filled'
fill
check "bad marker, mounted: tools_marker_mismatch" failed_and '.error == "tools_marker_mismatch"'
check "bad marker, mounted: the message says what frees it, no docker command" failed_and \
    '(.message | contains("apply or discard the work in those spaces and remove them")) and (.message | test("docker "; "i") | not)'
check "bad marker, mounted: the volume untouched" [ "$(marker)" = fedcba9876543210 ]
docker rm -f "$holder" >/dev/null; holder=
refilled "bad marker, no longer mounted"

# --- a stranger's volume of the same name -------------------------------
docker volume rm "$V" >/dev/null
docker volume create "$V" >/dev/null
docker run --rm --user 0:0 -v "$V:/v" spaced-space:latest sh -c 'echo theirs >/v/data'
fill
check "a volume of the name without labels: tools_volume_not_ours" failed_and '.error == "tools_volume_not_ours"'
check "  and untouched: its data, no labels" sh -c \
    "[ \"$(docker run --rm -v "$V:/v:ro" spaced-space:latest cat /v/data)\" = theirs ] && [ '$(labels "$V")' = '{}' -o '$(labels "$V")' = null ]"
docker volume rm "$V" >/dev/null
docker volume create --label spaced.space=true --label "spaced.space.owner=$inst:4242" \
    --label spaced.space.role=tools --label "spaced.tools.key=$K" "$V" >/dev/null
fill
check "a volume of the name with another owner's labels: tools_volume_not_ours" failed_and '.error == "tools_volume_not_ours"'
check "  and untouched" labels_are "$V" ".\"spaced.space.owner\" == \"$inst:4242\""
docker volume rm "$V" >/dev/null

# --- two fills at once fill once; prune after a new fill ----------------
old1=spaced-tools-$inst-$(id -u)-00000000000000a1
old2=spaced-tools-$inst-$(id -u)-00000000000000a2
for o in $old1 $old2; do
	docker volume create --label spaced.space=true --label "spaced.space.owner=$owner" \
	    --label spaced.space.role=tools --label "spaced.tools.key=${o##*-}" "$o" >/dev/null
done
sid=0123456789ab
holder=$(docker create --network none --label spaced.space=true --label "spaced.space.owner=$owner" \
    --label "spaced.space.id=$sid" --label spaced.space.role=space \
    -v "$old2:/opt/spaced-tools:ro" spaced-space:latest true)
ctl -j tools fill >"$work/p1" 2>&1 & p1=$!
ctl -j tools fill >"$work/p2" 2>&1 & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
check "two fills at once: both succeed" [ $r1 -eq 0 -a $r2 -eq 0 ]
check "two fills at once: exactly one filled" [ "$(cat "$work/p1" "$work/p2" | jq -s '[.[] | select(.filled)] | length')" -eq 1 ]
check "prune: an old key's unused volume removed" no_volume "$old1"
check "prune: an old key's volume a space mounts kept" has_volume "$old2"
check "prune: the new one kept" has_volume "$V"

# --- spacectl tools: the key, the description, volumes and their spaces -
ctl -j tools >"$work/out" 2>&1; rc=$?
check "tools -j: the current key and its description" ok_and \
    ".key == \"$K\" and (.description | startswith(\"spaced-tools 2\\n\")) and (.description | contains(\"packed good-agent 1.2.3 sha256:\"))"
check "tools -j: the current volume filled, no space on it" ok_and \
    ".volumes[] | select(.name == \"$V\") | .state == \"filled\" and .current and .spaces == []"
check "tools -j: the old volume lists the space that mounts it" ok_and \
    ".volumes[] | select(.name == \"$old2\") | .spaces == [\"$sid\"] and (.current | not) and .state == \"empty\""
ctl tools >"$work/text" 2>&1
check "tools: the text lists both" sh -c "grep -q '$old2 .* $sid' '$work/text' && grep -q '$V .*filled.*(current)' '$work/text'"
# A name of a 32-character install id is 64 bytes: past a fixed 60, the
# keys stood right of KEY.
check "tools: each key under KEY (the names' column as wide as the widest)" \
    awk '/^VOLUME / { c = index($0, "KEY"); next }
	c && $2 ~ /^[0-9a-f]+$/ && length($2) == 16 { n++; if (index($0, " " $2 " ") + 1 != c) bad = 1 }
	END { exit !(c && n && !bad) }' "$work/text"
check "no one-shot left after all of it" [ "$(docker ps -aq --filter label=spaced.space.role=tools-check --filter label=spaced.space.owner=$owner | wc -l)" -eq 0 ]
docker rm -f "$holder" >/dev/null; holder=
docker volume rm "$old2" >/dev/null
stop_spaced

# --- a binary the profile names that the fill does not leave ------------
SPACED_EXTRA_CONF="gatekeeper image \"$GK_IMAGE\"
$(profile nobin good-agent no-such-binary)
default agent nobin"
start_spaced "$sd" || not_ok "spaced starts with the nobin profile"
step_fails nobin binaries 5
stop_spaced

# --- the real registry, the default profile ----------------------------
if [ "${SPACED_TOOLS_OFFLINE:-0}" = 1 ]; then
	skip "a fill from the registry: SPACED_TOOLS_OFFLINE=1"
else
	# A network that inspects TLS: the host's bundle, over the filler's
	# stdin (spaced.conf "tools ca bundle"), as the host's npm trusts it.
	ca=${SPACED_TOOLS_CA:-${NODE_EXTRA_CA_CERTS:-}}
	[ -z "$ca" ] && [ -f /etc/ssl/certs/ca-certificates.crt ] &&
	    ca=/etc/ssl/certs/ca-certificates.crt
	SPACED_AGENT_CONF="" SPACED_EXTRA_CONF="gatekeeper image \"$GK_IMAGE\"
${ca:+tools ca bundle \"$ca\"}" start_spaced "$tree/s2"
	sd=$tree/s2
	inst1=$inst
	inst=$(cat "$sd/state/install-id")
	V=$(vol_of opencode)
	t0=$(date +%s)
	fill
	t1=$(date +%s)
	check "registry fill of opencode-ai 1.18.33${ca:+ (CA bundle $ca)}: filled ($((t1 - t0)) s)" ok_and ".filled == true"
	[ $rc -eq 0 ] || cat "$work/out" "$work/err"
	check "registry fill: opencode --version from the volume, no network, says 1.18.33" \
	    runs_bin opencode 1.18.33
	stop_spaced
fi

# --- nothing of this run's installs is left ------------------------------
# Its tools volumes and the runtime volume of its relay key, which
# spaced keeps for the next space (integration/lib.sh owned_end).
owned_end $inst ${inst1:-}
finish
