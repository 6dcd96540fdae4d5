#!/bin/sh
# The tools filler (worker-docker/spaced-filler.js) run with the host's
# node against temporary directories, a stand-in npm first on PATH
# (regress/filler/npm): a fill that fails at any step writes no marker
# and exits non-zero (the caller's rollback then removes the volume);
# hostile framing is refused before anything is written; a CA bundle and
# a packed source (local tarballs, the real npm, offline) go through.
set -u
. "$(dirname "$0")/lib.sh"
filler=$top/worker-docker/spaced-filler.js
if ! command -v node >/dev/null 2>&1; then
	skip "filler: no node on this host"; finish
fi
work=$(mktemp -d /tmp/spaced-filler.XXXXXX)
trap 'rm -rf "$work"' EXIT
key=0123456789abcdef
pkg='{"dependencies":{"fake-agent":"1.0.0"},"name":"spaced-tools","private":true}'
hdr() {	# hdr files-json [postinstall-json [bins-json [cafile-json]]]
	printf '{"key":"%s","files":%s,"postinstall":%s,"bins":%s,"cafile":%s}\n' \
	    "$key" "$1" "${2:-{\"package\":\"fake-agent\",\"script\":\"post.js\"\}}" \
	    "${3:-[{\"name\":\"agent\",\"args\":[\"--version\"]\}]}" "${4:-null}"
}
n=0
# fill [env...]: runs the filler on $work/in in a fresh tools and staging dir
fill() {
	n=$((n + 1)); t=$work/t$n; s=$work/s$n; mkdir -p "$t"
	env PATH="$top/regress/filler:$PATH" FAKE_NPM_LOG="$work/npm$n" "$@" \
	    node "$filler" "$t" "$s" <"$work/in" >"$work/out$n" 2>"$work/err$n"
	rc=$?
}
no_marker() { [ ! -e "$t/.spaced-filled" ] && [ ! -e "$t/.spaced-filled.tmp" ]; }
empty() { [ -z "$(ls -A "$1" 2>/dev/null)" ]; }
plen=$(printf %s "$pkg" | wc -c)
files="[{\"name\":\"package.json\",\"size\":$plen}]"

# A good fill: the marker holds the key, read-only, written last.
{ hdr "$files"; printf %s "$pkg"; } >"$work/in"; fill
check "fill: exits 0" [ $rc -eq 0 ]
check "fill: marker holds the key" [ "$(cat "$t/.spaced-filled" 2>/dev/null)" = $key ]
check "fill: marker mode 0444, no temporary left" \
    sh -c "[ \"\$(stat -c %a '$t/.spaced-filled')\" = 444 ] && [ ! -e '$t/.spaced-filled.tmp' ]"
check "fill: package.json in the tools dir, as sent" [ "$(cat "$t/package.json")" = "$pkg" ]
check "fill: npm install --ignore-scripts --no-audit --no-fund --cache <staging>/npm-cache" \
    [ "$(tr '\n' ' ' <"$work/npm$n")" = "install --ignore-scripts --no-audit --no-fund --cache $s/npm-cache " ]
check "fill: the install script ran (the launcher works)" \
    [ "$("$t/node_modules/.bin/agent")" = 1.0.0 ]

# The order: /bin/sync has run before the marker is renamed into place,
# and the marker's file and folder are flushed around the rename.
if command -v strace >/dev/null 2>&1; then
	{ hdr "$files"; printf %s "$pkg"; } >"$work/in"
	n=$((n + 1)); t=$work/t$n; s=$work/s$n; mkdir -p "$t"
	env PATH="$top/regress/filler:$PATH" strace -f -qq -o "$work/trace" \
	    -e trace=execve,rename,renameat,renameat2,fsync \
	    node "$filler" "$t" "$s" <"$work/in" >/dev/null 2>&1
	sl=$(grep -n 'execve("/bin/sync"' "$work/trace" | head -n 1 | cut -d: -f1)
	rl=$(grep -n 'rename.*spaced-filled\.tmp' "$work/trace" | head -n 1 | cut -d: -f1)
	fl=$(awk -v r="${rl:-0}" 'NR < r && /fsync\(/ { n++ } END { print n + 0 }' "$work/trace")
	check "order: /bin/sync ran before the marker's rename" \
	    [ "${sl:-99999}" -lt "${rl:-0}" ]
	check "order: file and folder flushed before the rename (2 fsync)" [ "$fl" -ge 2 ]
else
	skip "order of sync and marker: no strace"
fi

# Each step that fails leaves no marker and says which step.
{ hdr "$files"; printf %s "$pkg"; } >"$work/in"; fill FAKE_NPM=fail
check "npm fails: exit 3, no marker" sh -c "[ $rc -eq 3 ] && [ ! -e '$t/.spaced-filled' ]"
check "npm fails: the error names the step" grep -q '^spaced-filler: npm: ' "$work/err$n"
# A certificate npm could not verify: the last line (the one the host
# shows) says what to configure; another failure does not (control).
{ hdr "$files"; printf %s "$pkg"; } >"$work/in"; fill FAKE_NPM=tls
check "npm refuses a proxy's certificate: exit 3" [ $rc -eq 3 ]
check "... its last line says what to configure (tools ca bundle)" sh -c \
    "tail -n 1 '$work/err$n' | grep -q '^spaced-filler: npm: TLS SELF_SIGNED_CERT_IN_CHAIN: .*tools ca bundle'"
check_fails "an npm failure of another kind names no CA (control)" \
    grep -q 'tools ca bundle' "$work/err$((n - 1))"
{ hdr "$files"; printf %s "$pkg"; } >"$work/in"; fill FAKE_POST=fail
check "install script fails: exit 4, no marker" sh -c "[ $rc -eq 4 ]" && check "  and no marker" no_marker
{ hdr "$files"; printf %s "$pkg"; } >"$work/in"; fill FAKE_NPM=nobin
check "binary missing: exit 5" [ $rc -eq 5 ]
check "binary missing: no marker" no_marker
{ hdr "$files"; printf %s "$pkg"; } >"$work/in"; fill FAKE_POST=noop
check "binary still the stub (its check fails): exit 5" [ $rc -eq 5 ]
check "binary still the stub: no marker" no_marker
{ hdr "$files" '{"package":"fake-agent","script":"missing.js"}'; printf %s "$pkg"; } >"$work/in"; fill
check "install script not in its package: exit 4, no marker" sh -c "[ $rc -eq 4 ] && [ ! -e '$t/.spaced-filled' ]"
{ hdr "$files" null '[{"name":"agent","args":[]}]'; printf %s "$pkg"; } >"$work/in"; fill FAKE_POST=noop
check "no install script and no check: the stub is enough (exit 0)" [ $rc -eq 0 ]

# Hostile framing: refused with exit 2, and nothing written anywhere.
refused() {	# refused description: after a fill
	if [ $rc -eq 2 ] && empty "$t" && empty "$s" && [ ! -e "$work/npm$n" ]; then
		ok "refused, nothing written: $1"
	else
		not_ok "refused, nothing written: $1 (rc $rc: $(cat "$work/err$n"))"
	fi
}
tgz=xxxxxxxxxx
twofiles() { printf '[{"name":"package.json","size":%s},{"name":"%s","size":%s}]' "$plen" "$1" "$2"; }
{ hdr "$(twofiles a/b.tgz 10)"; printf %s "$pkg$tgz"; } >"$work/in"; fill; refused "a name with a slash"
{ hdr "$(twofiles .. 10)"; printf %s "$pkg$tgz"; } >"$work/in"; fill; refused "a name of .."
{ hdr "$(twofiles .npmrc 10)"; printf %s "$pkg$tgz"; } >"$work/in"; fill; refused "a hidden name"
{ hdr "$(twofiles '' 10)"; printf %s "$pkg$tgz"; } >"$work/in"; fill; refused "an empty name"
{ hdr "$(twofiles a.tgz 536870913)"; printf %s "$pkg$tgz"; } >"$work/in"; fill; refused "a file over 512 MiB"
{ hdr "$(twofiles a.tgz -1)"; printf %s "$pkg$tgz"; } >"$work/in"; fill; refused "a negative size"
{ hdr "$(twofiles a.tgz 1.5)"; printf %s "$pkg$tgz"; } >"$work/in"; fill; refused "a fractional size"
{ hdr "$(twofiles package.json 3)"; printf %s "$pkg"; } >"$work/in"; fill; refused "a name twice"
{ hdr '[{"name":"a.tgz","size":10}]'; printf %s "$tgz"; } >"$work/in"; fill; refused "no package.json"
{ hdr "$files" | sed 's/}$/,"extra":1}/'; printf %s "$pkg"; } >"$work/in"; fill; refused "an unknown field"
{ printf '{"key":"../x","files":%s,"postinstall":null,"bins":[{"name":"agent","args":[]}],"cafile":null}\n' "$files"; printf %s "$pkg"; } >"$work/in"; fill
refused "a key that is not 16 hex"
{ hdr "$files" '{"package":"fake-agent","script":"../../evil.js"}'; printf %s "$pkg"; } >"$work/in"; fill; refused "an install script outside its package"
{ hdr "$files" null '[{"name":"agent","args":["$(id)"]}]'; printf %s "$pkg"; } >"$work/in"; fill; refused "a binary check with shell text"
{ hdr "$files" null null '"ca.pem"'; printf %s "$pkg"; } >"$work/in"; fill; refused "a cafile that is not framed"
{ printf '{"key":"%s",' $key; printf 'bad'; } >"$work/in"; fill; refused "a header that is not JSON"
printf 'not json at all\n' >"$work/in"; fill; refused "a line that is not JSON"
head -c 70000 /dev/zero | tr '\0' ' ' >"$work/in"; fill; refused "a header past 64 KiB without a newline"
{ hdr "$(twofiles a.tgz 10)"; printf %s "$pkg"xxx; } >"$work/in"; fill; refused "stdin truncated inside a file"
{ hdr "$files"; printf %s "$pkg" | head -c 5; } >"$work/in"; fill; refused "stdin truncated inside package.json"
printf '{"key":' >"$work/in"; fill; refused "stdin truncated inside the header"
{ hdr "$files"; printf %s "$pkg"; printf more; } >"$work/in"; fill; refused "bytes after the last file"
: >"$work/in"; fill; refused "empty stdin"
badpkg='{"dependencies":'; bl=$(printf %s "$badpkg" | wc -c)
{ hdr "[{\"name\":\"package.json\",\"size\":$bl}]"; printf %s "$badpkg"; } >"$work/in"; fill; refused "package.json that is not JSON"
# A volume that already holds something is never filled over.
n=$((n + 1)); t=$work/t$n; s=$work/s$n; mkdir -p "$t"; echo other >"$t/.spaced-filled"
{ hdr "$files"; printf %s "$pkg"; } | env PATH="$top/regress/filler:$PATH" node "$filler" "$t" "$s" 2>/dev/null
rc=$?
check "a tools dir with a marker: exit 2, marker untouched" \
    sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$t/.spaced-filled')\" = other ]"

# The same with the real npm against a registry whose certificate no CA
# of the host signs (openssl s_server); with that certificate as the
# fill's CA bundle, TLS passes and the line is not there (control).
real_tls() {
	command -v npm >/dev/null 2>&1 && command -v openssl >/dev/null 2>&1 ||
	    { skip "no npm or openssl for the real TLS refusal"; return; }
	openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 \
	    -addext subjectAltName=IP:127.0.0.1 -days 1 -keyout "$work/tls.key" \
	    -out "$work/tls.crt" >/dev/null 2>&1
	port=$((20000 + $$ % 20000))
	(cd "$work" && exec openssl s_server -quiet -accept "$port" \
	    -cert tls.crt -key tls.key -WWW) >/dev/null 2>&1 &
	spid=$!
	wait_for 10 sh -c "ss -ltn | grep -q ':$port '"
	reg="npm_config_registry=https://127.0.0.1:$port/"
	{ hdr "$files" null '[{"name":"agent","args":[]}]'; printf %s "$pkg"; } >"$work/in"
	n=$((n + 1)); t=$work/t$n; s=$work/s$n; mkdir -p "$t"
	env "$reg" npm_config_fetch_retries=0 npm_config_cache="$work/c$n" \
	    node "$filler" "$t" "$s" <"$work/in" >/dev/null 2>"$work/err$n"
	rc=$?
	check "real npm, an unknown CA: exit 3" [ $rc -eq 3 ]
	check "... its last line names the TLS code and tools ca bundle" sh -c \
	    "tail -n 1 '$work/err$n' | grep -Eq '^spaced-filler: npm: TLS [A-Z_]+: .*tools ca bundle'"
	crt=$(cat "$work/tls.crt"); cl=$(printf %s "$crt" | wc -c)
	{ hdr "[{\"name\":\"package.json\",\"size\":$plen},{\"name\":\"ca.pem\",\"size\":$cl}]" \
	    null '[{"name":"agent","args":[]}]' '"ca.pem"'; printf %s "$pkg$crt"; } >"$work/in"
	n=$((n + 1)); t=$work/t$n; s=$work/s$n; mkdir -p "$t"
	env "$reg" npm_config_fetch_retries=0 npm_config_cache="$work/c$n" \
	    node "$filler" "$t" "$s" <"$work/in" >/dev/null 2>"$work/err$n"
	check "... with it as the CA bundle, TLS passes (control: no such line)" \
	    sh -c "! grep -q 'tools ca bundle' '$work/err$n' && grep -q '^spaced-filler: npm: ' '$work/err$n'"
	kill $spid 2>/dev/null; wait $spid 2>/dev/null
}
real_tls

# A CA bundle: into staging, to npm as its cafile.
ca='-----BEGIN CERTIFICATE-----
MIIB
-----END CERTIFICATE-----'
cl=$(printf %s "$ca" | wc -c)
{ hdr "[{\"name\":\"package.json\",\"size\":$plen},{\"name\":\"ca.pem\",\"size\":$cl}]" "" "" '"ca.pem"'
  printf %s "$pkg$ca"; } >"$work/in"; fill
check "ca bundle: exit 0" [ $rc -eq 0 ]
check "ca bundle: npm gets --cafile <staging>/ca.pem" grep -qx -- "$s/ca.pem" "$work/npm$n"
check "ca bundle: the bytes as sent" [ "$(cat "$s/ca.pem")" = "$ca" ]

# A packed source, with the stand-in: the tarball is where package.json says.
ppkg="{\"dependencies\":{\"fake-agent\":\"file:$work/s$((n + 1))/packed-0.tgz\"},\"overrides\":{\"fake-agent\":\"\$fake-agent\"},\"private\":true}"
pl=$(printf %s "$ppkg" | wc -c)
{ hdr "[{\"name\":\"package.json\",\"size\":$pl},{\"name\":\"packed-0.tgz\",\"size\":10}]"; printf %s "$ppkg$tgz"; } >"$work/in"; fill
check "packed (stand-in npm): exit 0 with the tarball in staging" sh -c "[ $rc -eq 0 ] && [ -f '$s/packed-0.tgz' ]"

# A packed source with the real npm, offline: a local package with a
# launcher that its install script makes work, as opencode-ai does.
realnpm=$(command -v npm || true)
if [ -n "$realnpm" ]; then
	p=$work/pkgsrc; mkdir -p "$p/bin"
	printf '{"name":"local-agent","version":"1.2.3","bin":{"local-agent":"bin/la"},"scripts":{"postinstall":"node post.js"}}' >"$p/package.json"
	printf '#!/bin/sh\necho stub >&2; exit 1\n' >"$p/bin/la"; chmod 755 "$p/bin/la"
	printf "require('fs').writeFileSync('bin/la', '#!/bin/sh\\\\necho 1.2.3\\\\n', {mode: 0o755})\n" >"$p/post.js"
	(cd "$work" && npm pack "$p" --pack-destination "$work" >/dev/null 2>&1)
	tb=$work/local-agent-1.2.3.tgz
	if [ -f "$tb" ]; then
		n2=$((n + 1))
		rpkg="{\"dependencies\":{\"local-agent\":\"file:$work/s$n2/packed-0.tgz\"},\"overrides\":{\"local-agent\":\"\$local-agent\"},\"private\":true}"
		rl=$(printf %s "$rpkg" | wc -c); tl=$(wc -c <"$tb")
		{ printf '{"key":"%s","files":[{"name":"package.json","size":%s},{"name":"packed-0.tgz","size":%s}],"postinstall":{"package":"local-agent","script":"post.js"},"bins":[{"name":"local-agent","args":["--version"]}],"cafile":null}\n' $key "$rl" "$tl"
		  printf %s "$rpkg"; cat "$tb"; } >"$work/in"
		fill PATH="$PATH" HOME="$work" npm_config_offline=true \
		    npm_config_update_notifier=false
		check "packed (real npm, offline): exit 0" [ $rc -eq 0 ]
		check "packed (real npm): the launcher runs from the volume" \
		    [ "$("$t/node_modules/.bin/local-agent" 2>/dev/null)" = 1.2.3 ]
		check "packed (real npm): marker written" [ "$(cat "$t/.spaced-filled" 2>/dev/null)" = $key ]
			else
		skip "packed with the real npm: npm pack failed"
	fi
else
	skip "packed with the real npm: no npm on this host"
fi
finish
