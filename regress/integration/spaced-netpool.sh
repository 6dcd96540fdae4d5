#!/bin/sh
# Outer networks from spaced's pool and a cap of spaces per owner (issue
# 27, M4).  Each space's outer bridge took a default pool of the engine
# (a /20 or /16), so about 30 spaces exhausted the engine: every later
# network create failed, for every user and workload.  Here the pool is
# a /23 of /29s (64 networks) of 10.213/16 and the cap 34: 33 spaces,
# more than the default pools hold, get 33 distinct /29s of the pool and
# none of the engine's; the engine still makes a network of its own; the
# 34th space is made, the 35th refused (too_many_spaces), leaving nothing.
# About two minutes.
r=$(od -An -N1 -tu1 /dev/urandom | tr -d ' ')
POOL=10.213.$((r % 128 * 2)).0
SPACED_EXTRA_CONF="space network pool $POOL/23
space network size 29
spaces per owner 34"
. "$(dirname "$0")/../contract/lib.sh"

ids=""
remove_all() { for i in $ids; do sc remove "$i" >/dev/null 2>&1; done; ids=; }
subnet() { api GET "/networks/spaced-space-$1-net" |
    jq -r '[.IPAM.Config[].Subnet] | join(",")'; }
# in_pool CIDR...: each one a /29 of the /23
in_pool() {
	python3 -c 'import ipaddress, sys
pool = ipaddress.ip_network(sys.argv[1])
for a in sys.argv[2:]:
    n = ipaddress.ip_network(a)
    if n.prefixlen != 29 or not n.subnet_of(pool):
        sys.exit(1)
sys.exit(len(sys.argv) < 3)' "$POOL/23" "$@" 2>/dev/null
}

sc create -n "pool 1" -m 64m >"$T/id" 2>"$T/err"; id=$(cat "$T/id")
ids="$id"
check "the first space is made ($(cat "$T/err"))" test -n "$id"
s=$(subnet "$id")
if in_pool "$s"; then
	ok "its outer network is a /29 of the pool ($s)"
else
	# one of the engine's pools: 30 more would exhaust them for all
	not_ok "its outer network is a /29 of the pool ($s)"
	remove_all
	finish
fi
for n in $(seq 2 33); do
	sc create -n "pool $n" -m 64m >"$T/id" 2>"$T/err" && ids="$ids $(cat "$T/id")"
done
check "33 spaces, more than the engine's default pools hold, are made" \
    test "$(echo $ids | wc -w)" -eq 33
for i in $ids; do subnet "$i"; done >"$T/subnets"
check "each outer network is a /29 of the pool" in_pool $(cat "$T/subnets")
check "33 distinct subnets" test "$(sort -u "$T/subnets" | wc -l)" -eq 33
check "the engine still makes a network from its own pools" sh -c \
    "docker network create spaced-netpool-$INSTALL >/dev/null &&
     docker network rm spaced-netpool-$INSTALL >/dev/null"

# --- spaces per owner: 34 here ------------------------------------------
sc create -n "pool 34" -m 64m >"$T/id" 2>"$T/err" && ids="$ids $(cat "$T/id")"
check "the 34th space is made (the cap, positive control)" \
    test "$(echo $ids | wc -w)" -eq 34
sc create -n "pool 35" -m 64m >"$T/id" 2>"$T/err" && ids="$ids $(cat "$T/id")"
check "the 35th is refused: too_many_spaces, with the cap named" \
    grep -q "too_many_spaces: 34 spaces already, 34 at most" "$T/err"
check "nothing of the refused one remains (34 spaces listed)" \
    test "$(sc -j list | jq length)" -eq 34 -a "$(echo $ids | wc -w)" -eq 34
remove_all
finish
