#!/bin/sh
# Code in and history of a generated repository (5,000 files, 3,000
# commits, uncommitted changes) into real spaces, through spacectl, in
# one run against the spec's method on the same engine and image: the
# snapshot with the git CLI, then git push from a bare sender with
# alternates over ext:: through docker exec into git receive-pack, the
# unfold through docker exec, and for the history a push of the whole
# history into a side repository and fetch --unshallow inside.  Then
# spaced's peak memory while a pack of 100 MiB (incompressible) streams.
# Medians over N rounds and the ratios; never asserts a time.
# usage: codein.sh [build-dir] [rounds]
set -eu
b=$(cd "${1:-build}" && pwd)
n=${2:-3}
cd "$(dirname "$0")/../.."
. regress/integration/lib.sh
build=$b
T=$(mktemp -d /tmp/spaced-bench-codein.XXXXXX)
chmod 0755 "$T"
make_tree
SPACED_EXTRA_CONF="install id $(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
start_spaced "$T/sd" || { echo "codein: spaced did not start" >&2; exit 1; }
ids=
trap 'for i in $ids; do ctl remove "$i" >/dev/null 2>&1; done; stop_spaced; rm -rf "$T" "$tree"' EXIT

now() { date +%s%N; }
ms() { echo $((($2 - $1) / 1000000)); }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
space() { i=$(ctl create -n bench) && ids="$ids $i" && echo "$i"; }

# 3,000 commits over 5,000 files, with fast-import (seconds, not minutes).
repo=$T/repo
git init -q -b main "$repo"
python3 - "$repo" <<'EOF' | git -C "$repo" fast-import --quiet
import sys
out = sys.stdout.buffer
def blob(data):
    out.write(b"blob\ndata %d\n%s\n" % (len(data), data))
mark = 0
for c in range(3000):
    out.write(b"commit refs/heads/main\n")
    out.write(b"committer b <b@b.invalid> %d +0000\n" % (1700000000 + c))
    msg = b"commit %d" % c
    out.write(b"data %d\n%s\n" % (len(msg), msg))
    files = range(5000) if c == 0 else [(c * 7 + k) % 5000 for k in range(3)]
    for f in files:
        data = b"file %d version %d\n" % (f, c) * 20
        out.write(b"M 100644 inline d%02d/f%04d.txt\ndata %d\n%s\n" %
            (f % 50, f, len(data), data))
EOF
git -C "$repo" checkout -q main
git -C "$repo" config user.name Bench
git -C "$repo" config user.email bench@bench.invalid
echo changed >>"$repo/d00/f0000.txt"
git -C "$repo" add d00/f0000.txt
echo unstaged >>"$repo/d01/f0001.txt"
echo new >"$repo/new.txt"
echo "# repository: $(git -C "$repo" ls-files | wc -l) files, $(git -C "$repo" rev-list --count HEAD) commits"

# The spec's method (its "Code in" and "History" steps), the git CLI and
# docker exec, nothing of ours.
spec_codein() {
	c=spaced-space-$1-space
	s=$T/spec-$1
	p=/spaces/$1/spec
	zero=0000000000000000000000000000000000000000
	git -C "$repo" update-ref -d refs/spec/start 2>/dev/null || true
	cp "$(git -C "$repo" rev-parse --path-format=absolute --git-path index)" "$T/index"
	st=$(GIT_INDEX_FILE=$T/index git -C "$repo" -c core.splitIndex=false write-tree)
	printf '.\0' | GIT_INDEX_FILE=$T/index git -C "$repo" \
	    -c core.splitIndex=false add --all --pathspec-from-file=- \
	    --pathspec-file-nul
	wt=$(GIT_INDEX_FILE=$T/index git -C "$repo" -c core.splitIndex=false write-tree)
	sc=$(git -C "$repo" commit-tree --no-gpg-sign "$st" -p HEAD -m staged)
	ws=$(git -C "$repo" commit-tree --no-gpg-sign "$wt" -p "$sc" -m work)
	git -C "$repo" update-ref refs/spec/start "$ws" "$zero"
	base=$(git -C "$repo" rev-parse HEAD)
	docker exec "$c" sh -c "git init -q --initial-branch=main '$p' &&
	    git -C '$p' config receive.shallowUpdate true"
	git init -q --bare --template= "$s"
	git -C "$repo" rev-parse --path-format=absolute --git-path objects \
	    >"$s/objects/info/alternates"
	echo "$base" >"$s/shallow"
	ext="ext::docker exec -i $c git-receive-pack $p"
	git -C "$s" -c protocol.ext.allow=always push -q "$ext" \
	    "$base:refs/spec/base"
	git -C "$s" -c protocol.ext.allow=always push -q "$ext" \
	    "$sc:refs/spec/start-index" "$ws:refs/spec/start"
	docker exec "$c" sh -c "cd '$p' && git checkout -q -B main refs/spec/start &&
	    git reset -q --soft refs/spec/base && git read-tree refs/spec/start-index"
	echo "$base" >"$T/spec-base-$1"
}
spec_history() {
	c=spaced-space-$1-space
	p=/spaces/$1/spec
	h=/spaces/$1/.spec-history.git
	s=$T/spech-$1
	base=$(cat "$T/spec-base-$1")
	docker exec "$c" sh -c "rm -rf '$h' && git init -q --bare '$h'"
	git init -q --bare --template= "$s"
	git -C "$repo" rev-parse --path-format=absolute --git-path objects \
	    >"$s/objects/info/alternates"
	git -C "$s" -c protocol.ext.allow=always push -q \
	    "ext::docker exec -i $c git-receive-pack $h" "$base:refs/spec/base"
	docker exec "$c" sh -c "cd '$p' && git fetch -q --unshallow --no-tags '$h' \
	    +refs/spec/base:refs/spec/base; rm -rf '$h'"
}

ours_ci= ours_h= spec_ci= spec_h=
for r in $(seq 1 "$n"); do
	id=$(space)
	git -C "$repo" update-ref -d "refs/spaced/spaces/$id/start" 2>/dev/null || true
	t0=$(now); ctl code-in "$id" "$repo" >/dev/null; t1=$(now)
	ctl history "$id" "$repo" >/dev/null; t2=$(now)
	ours_ci="$ours_ci $(ms "$t0" "$t1")"; ours_h="$ours_h $(ms "$t1" "$t2")"
	t0=$(now); spec_codein "$id"; t1=$(now); spec_history "$id"; t2=$(now)
	spec_ci="$spec_ci $(ms "$t0" "$t1")"; spec_h="$spec_h $(ms "$t1" "$t2")"
	ctl exec "$id" -- sh -c "cd /spaces/$id/repo && git status --porcelain | wc -l" >"$T/ours.st"
	ctl exec "$id" -- sh -c "cd /spaces/$id/spec && git status --porcelain | wc -l" >"$T/spec.st"
	cmp -s "$T/ours.st" "$T/spec.st" ||
	    { echo "codein: the two methods disagree inside" >&2; exit 1; }
	ctl remove "$id" >/dev/null
done
m() { echo $1 | tr ' ' '\n' | median; }
oc=$(m "$ours_ci"); oh=$(m "$ours_h"); pc=$(m "$spec_ci"); ph=$(m "$spec_h")
echo "code in:  spacectl ${oc} ms, spec's push over ext:: ${pc} ms, ratio $(awk "BEGIN { printf \"%.2f\", $pc / $oc }")x (goal >= 2)"
echo "history:  spacectl ${oh} ms, spec's push over ext:: ${ph} ms, ratio $(awk "BEGIN { printf \"%.2f\", $ph / $oh }")x (goal >= 2)"

# spaced's peak memory while 100 MiB of incompressible history streams.
big=$T/big
git init -q -b main "$big"
head -c $((100 * 1024 * 1024)) /dev/urandom >"$big/blob"
git -C "$big" add blob
git -C "$big" -c user.name=b -c user.email=b@b.invalid commit -qm big
echo small >"$big/small"
git -C "$big" add small
git -C "$big" -c user.name=b -c user.email=b@b.invalid commit -qm small
git -C "$big" rm -q blob
git -C "$big" -c user.name=b -c user.email=b@b.invalid commit -qm gone
id=$(space)
hwm() { awk '/^VmHWM/ { print $2 }' "/proc/$spaced_pid/status"; }
before=$(hwm)
ctl code-in "$id" "$big" >/dev/null
t0=$(now); ctl -j history "$id" "$big" >"$T/big.json"; t1=$(now)
after=$(hwm)
echo "100 MiB history pack: $(jq .bytes "$T/big.json") bytes in $(ms "$t0" "$t1") ms; spaced peak RSS ${before} KiB before, ${after} KiB after (the stream window is $((1024)) KiB)"
